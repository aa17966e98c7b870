import Foundation

/// A thread-safe list of what handlers saw, in arrival order.
///
/// Uses `NSLock` (pthread-based, so ThreadSanitizer sees it) rather than anything from
/// the library under test.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []

    func append(_ value: Value) {
        lock.guarding { storage.append(value) }
    }

    var values: [Value] {
        lock.guarding { storage }
    }

    var count: Int {
        lock.guarding { storage.count }
    }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func increment() {
        lock.guarding { value += 1 }
    }

    var count: Int {
        lock.guarding { value }
    }
}

extension NSLock {
    /// Runs `body` holding the lock: `NSLocking.withLock` is iOS 16 and macOS 13 only, and
    /// the package's floors are iOS 15 and macOS 12.
    func guarding<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
