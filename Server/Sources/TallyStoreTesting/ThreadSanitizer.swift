#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the stress tests change when they run under ThreadSanitizer (`swift test
/// --sanitize=thread`), where every memory access costs 5 to 15 times more.
///
/// A stress test there keeps its concurrent shape (as many tasks, the same data past the
/// thresholds where the engine splits work across threads), which is what the sanitizer checks,
/// and runs fewer rounds of the single-threaded brute force that checks the answers, which the
/// plain run of the same test has already checked in full.
public enum ThreadSanitizer {
    /// Whether this process runs under ThreadSanitizer: its runtime's entry point is linked in
    /// and exported.
    public static let isActive = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil

    /// `all` in a plain run, its first `count` elements under ThreadSanitizer.
    public static func prefix<C: Collection>(_ count: Int, of all: C) -> C.SubSequence {
        all.prefix(isActive ? count : all.count)
    }
}
