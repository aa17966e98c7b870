import Locking

/// The calls a mediator received while recording, for tests
/// (``Mediator/recordCalls()``).
///
/// ```swift
/// let recording = mediator.recordCalls()
/// reader.openDetail()
/// #expect(recording.calls.map(\.action) == ["page"])
/// ```
///
/// Recording stops when the recording is disposed or deallocated.
public final class MediatorRecording: Disposable {
    private let recorded = Locked<[MediatorCall]>([])
    private let stop = Locked<AnyDisposable?>(nil)

    init() {}

    /// The calls recorded so far, in the order they reached the mediator — refused,
    /// answered and failed ones included.
    public var calls: [MediatorCall] {
        recorded.withLock { $0 }
    }

    func record(_ call: MediatorCall) {
        recorded.withLock { $0.append(call) }
    }

    func stop(with disposable: AnyDisposable) {
        stop.withLock { $0 = disposable }
    }

    /// Stops recording; ``calls`` keeps what was recorded.
    public func dispose() {
        stop.withLock { $0.take() }?.dispose()
    }

    deinit {
        dispose()
    }
}
