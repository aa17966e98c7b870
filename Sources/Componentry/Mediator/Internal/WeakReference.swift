/// A reference that does not keep its object alive, shareable across threads: it is set
/// once, at creation, and Swift's weak loads are atomic.
final class WeakReference: @unchecked Sendable {
    weak let object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}
