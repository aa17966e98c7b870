#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Waiting politely for another thread: yield a few times, then sleep for a growing
/// interval capped at one millisecond.
struct Backoff {
    private var attempts = 0

    mutating func pause() {
        attempts += 1
        if attempts <= 64 {
            sched_yield()
        } else {
            usleep(useconds_t(min(1_000, 1 << min(attempts - 64, 10))))
        }
    }
}
