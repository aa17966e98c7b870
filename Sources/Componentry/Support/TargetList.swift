/// An immutable, ordered list of delivery targets: an ``EventBus`` snapshot, an
/// ``Observable``'s observers.
///
/// Deliveries iterate a list without holding a lock and without a reference count of their
/// own; its keeper (``TypeRegistry``, ``ObservableCore``) holds it unmanaged, and keeps a
/// list it replaced for as long as a delivery may still be iterating it. (A retain and
/// release of the list were a quarter of a delivery's cost to one target.) Lists are
/// replaced, never changed, so a delivery in steady state allocates nothing.
@usableFromInline
final class TargetList<Target: DeliveryTarget>: @unchecked Sendable {
    // @unchecked: `targets` is written once, in `init`, and freed in `deinit`.

    /// The targets in delivery order; a plain buffer, so a borrowed list's targets are read
    /// without a retain.
    let targets: UnsafeBufferPointer<Target>

    init(_ targets: [Target]) {
        let buffer = UnsafeMutableBufferPointer<Target>.allocate(capacity: targets.count)
        _ = buffer.initialize(from: targets)
        self.targets = UnsafeBufferPointer(buffer)
    }

    deinit {
        UnsafeMutableBufferPointer(mutating: targets).deinitialize().deallocate()
    }

    /// A new list, retained once for its keeper.
    static func retained(_ targets: [Target]) -> Unmanaged<TargetList> {
        Unmanaged.passRetained(TargetList(targets))
    }

    /// Calls `body` with each target in order, borrowed (no retain).
    @inline(__always)
    func forEach(_ body: (Target) -> Void) {
        for index in targets.indices {
            // The list keeps the target alive.
            Unmanaged.passUnretained(targets[index])._withUnsafeGuaranteedRef(body)
        }
    }
}
