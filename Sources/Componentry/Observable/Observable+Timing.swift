import Dispatch

extension Observable {
    /// Sets under a debounce or throttle ``CommitTiming``: `produce` turns the value set
    /// last (pending, else committed) into the new one, under the lock.
    ///
    /// At most one timer is scheduled at a time and it is never cancelled. When it fires
    /// it reads the pending value under the lock — so whichever thread set last, and
    /// whenever the timer runs, the value committed is the value set last — and a
    /// debounce timer that fires before the deadline a later set moved schedules itself
    /// again instead of committing.
    @usableFromInline
    func hold(_ produce: (Value) -> Value) {
        var arm: DispatchTime?
        let step = locked { state -> Step in
            let value = produce(storage.pointee.pending ?? storage.pointee.latest)
            let now = DispatchTime.now()
            switch timing {
            case .immediate:
                return accept(value, &state)
            case .throttle(let interval) where !state.timerArmed && now >= state.deadline:
                state.deadline = interval.deadline(after: now)
                return accept(value, &state)
            case .throttle:
                break
            case .debounce(let interval):
                state.deadline = interval.deadline(after: now)
            }
            storage.pointee.pending = value
            if !state.timerArmed {
                state.timerArmed = true
                arm = state.deadline
            }
            return .done
        }
        if let arm { schedule(at: arm) }
        drain(from: step)
    }

    /// The timer: commits the pending value, or waits on for a debounce deadline that a
    /// later set moved.
    private func fire() {
        var rearm: DispatchTime?
        let step = locked { state -> Step in
            let now = DispatchTime.now()
            if case .debounce = timing, now < state.deadline {
                rearm = state.deadline
                return .done
            }
            state.timerArmed = false
            guard let value = storage.pointee.pending.take() else { return .done }
            if case .throttle(let interval) = timing { state.deadline = interval.deadline(after: now) }
            return accept(value, &state)
        }
        if let rearm { schedule(at: rearm) }
        drain(from: step)
    }

    private func schedule(at deadline: DispatchTime) {
        // A deadline beyond what Dispatch can express is never reached: the value stays
        // pending rather than being handed to a timer that would never fire.
        guard deadline != .distantFuture else { return }
        // Holds the observable until the commit: a pending value is never lost.
        DispatchQueue.global().asyncAfter(deadline: deadline) { self.fire() }
    }
}
