#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The origin of the update a channel is applying on the current thread, for the
/// ``Synced`` property it sets to record.
///
/// A channel applies a key by setting a key path, so the property cannot be told where
/// the value came from; the channel leaves the origin here for the length of the set, and
/// the first ``Synced`` setter to run takes it (later sets, such as one made by an
/// observer of that change, are local again). The origin lives on the applying
/// function's stack; the thread-local slot holds a pointer to it, so an update costs two
/// thread-local stores and a local set one thread-local load.
@usableFromInline
enum ApplyingOrigin {
    /// Runs `body` with `origin` left for the first ``Synced`` setter.
    static func with(_ origin: SyncOrigin, _ body: () -> Void) {
        let previous = pthread_getspecific(key)
        var pending: SyncOrigin? = origin
        withUnsafeMutablePointer(to: &pending) { pointer in
            pthread_setspecific(key, pointer)
            defer { pthread_setspecific(key, previous) }
            body()
        }
    }

    /// The origin left by an update running on this thread, once; `nil` outside updates
    /// and after the first take.
    @usableFromInline
    static func take() -> SyncOrigin? {
        guard let slot = pthread_getspecific(key)?.assumingMemoryBound(to: SyncOrigin?.self) else { return nil }
        defer { slot.pointee = nil }
        return slot.pointee
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()
}
