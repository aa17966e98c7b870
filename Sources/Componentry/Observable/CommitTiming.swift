/// When a set of an ``Observable`` becomes its value and reaches observers.
///
/// ```swift
/// let query = Observable("", timing: .debounce(.milliseconds(300)))
/// query.value = "z"; query.value = "za"; query.value = "zao"
/// // 300 ms after the last set, observers hear once, of "zao"
/// ```
///
/// Timed commits are made on a background thread (observers that ask for a queue or the
/// main actor are called there). Whatever the threads that set and however the timer
/// fires, the value committed last is the value set last: the pending value is read when
/// the commit is made, not captured when the set was.
///
/// Intervals are ``CommitInterval``s, clamped: a negative one counts as zero, and one
/// longer than Dispatch can express (about 292 years) as the longest it can, which is
/// never reached — the value set stays pending.
public enum CommitTiming: Sendable, Equatable {
    /// Every set is committed at once, on the setting thread (the default).
    case immediate
    /// A set is held until no other set has come for the interval; then the last value
    /// set is committed, once.
    case debounce(CommitInterval)
    /// At most one commit per interval: a set after a quiet interval is committed at
    /// once; sets within the interval are held, and the last of them is committed when
    /// the interval ends.
    case throttle(CommitInterval)
}
