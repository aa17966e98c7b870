#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the current thread is in the middle of delivering: the snapshots its posts are
/// iterating and the subscribers whose queued handlers it is running.
///
/// ``EventBus`` uses it so that `dispose()` waits for deliveries running on *other*
/// threads but never for its own caller — a handler may dispose its own or another
/// subscription without deadlocking. The frames live on the stack of the delivering
/// function and are chained through a thread-local pointer, so entering and leaving a
/// frame costs two thread-local stores and no allocation.
enum DeliveryStack {
    private struct Frame {
        let target: ObjectIdentifier
        let previous: UnsafeMutableRawPointer?
    }

    /// Runs `body` inside a frame for `target`.
    static func within<Result>(_ target: AnyObject, _ body: () throws -> Result) rethrows -> Result {
        let top = topSlot
        let previous = top.pointee
        var frame = Frame(target: ObjectIdentifier(target), previous: previous)
        return try withUnsafeMutablePointer(to: &frame) { pointer in
            top.pointee = UnsafeMutableRawPointer(pointer)
            defer { top.pointee = previous }
            return try body()
        }
    }

    /// How many frames of the current thread are inside `target`.
    static func depth(in target: AnyObject) -> Int {
        let id = ObjectIdentifier(target)
        var depth = 0
        var cursor = topSlot.pointee
        while let frame = cursor?.assumingMemoryBound(to: Frame.self).pointee {
            if frame.target == id { depth += 1 }
            cursor = frame.previous
        }
        return depth
    }

    /// The current thread's pointer to its innermost frame: one thread-local read, the
    /// slot itself allocated on the thread's first delivery and freed with the thread.
    private static var topSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?> {
        if let slot = pthread_getspecific(key) {
            return slot.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        }
        let slot = malloc(MemoryLayout<UnsafeMutableRawPointer?>.size)!
            .bindMemory(to: UnsafeMutableRawPointer?.self, capacity: 1)
        slot.initialize(to: nil)
        pthread_setspecific(key, slot)
        return slot
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { free($0) }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()
}
