import Foundation

/// A class that is not `Equatable`, to observe by instance.
final class Photo: Sendable {
    let name: String

    init(_ name: String) {
        self.name = name
    }
}

/// An `NSCopying` class equal by text, for the copy storage policy and `Equatable`
/// classes.
final class Note: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked: `text` is changed only by the test that owns the instance.
    var text: String

    init(_ text: String) {
        self.text = text
    }

    func copy(with zone: NSZone? = nil) -> Any {
        Note(text)
    }

    override func isEqual(_ object: Any?) -> Bool {
        (object as? Note)?.text == text
    }
}

/// A value type that is not `Equatable`.
struct Draft: Sendable {
    var text: String
}

/// A lock-protected box for test state shared with callbacks.
final class Box<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func get() -> Value {
        lock.guarding { value }
    }

    func set(_ newValue: Value) {
        lock.guarding { value = newValue }
    }
}

/// Polls `condition` until it holds or about two seconds have passed; returns whether it
/// held. For results that arrive asynchronously (timers, queues): tests assert the values,
/// never the time taken.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<400 {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 5_000_000)
    }
    return condition()
}
