import Dispatch

/// The interval of a debounce or throttle ``CommitTiming``, in whole nanoseconds.
///
/// Written as a `Duration` is — `.milliseconds(300)`, `.seconds(2)`, `.seconds(0.5)` — but
/// available on every platform the package supports: `Duration` needs iOS 16, macOS 13,
/// tvOS 16 and watchOS 9, and the package's floors are iOS 15, macOS 12, tvOS 15 and
/// watchOS 8. Where `Duration` is available, ``init(_:)`` converts one.
///
/// Clamped to `0...Int64.max` nanoseconds: a negative interval means none, and one longer
/// than about 292 years means the longest Dispatch can express, whose deadline is never
/// reached.
public struct CommitInterval: Sendable, Hashable, Comparable {
    /// The interval in nanoseconds, `0...Int64.max`.
    public let nanoseconds: Int64

    private init(_ value: some BinaryInteger, nanosecondsPerUnit: Int64) {
        let (product, overflow) = Int64(clamping: value).multipliedReportingOverflow(by: nanosecondsPerUnit)
        nanoseconds = value < 0 ? 0 : overflow ? .max : product
    }

    private init(_ value: Double, nanosecondsPerUnit: Double) {
        let product = value * nanosecondsPerUnit
        // `!(product > 0)` also catches NaN.
        nanoseconds = !(product > 0) ? 0 : product >= Double(Int64.max) ? .max : Int64(product)
    }

    /// `seconds` seconds.
    public static func seconds(_ seconds: some BinaryInteger) -> Self {
        Self(seconds, nanosecondsPerUnit: 1_000_000_000)
    }

    /// `seconds` seconds, to the nanosecond.
    public static func seconds(_ seconds: Double) -> Self {
        Self(seconds, nanosecondsPerUnit: 1_000_000_000)
    }

    /// `milliseconds` milliseconds.
    public static func milliseconds(_ milliseconds: some BinaryInteger) -> Self {
        Self(milliseconds, nanosecondsPerUnit: 1_000_000)
    }

    /// `milliseconds` milliseconds, to the nanosecond.
    public static func milliseconds(_ milliseconds: Double) -> Self {
        Self(milliseconds, nanosecondsPerUnit: 1_000_000)
    }

    /// `microseconds` microseconds.
    public static func microseconds(_ microseconds: some BinaryInteger) -> Self {
        Self(microseconds, nanosecondsPerUnit: 1_000)
    }

    /// `nanoseconds` nanoseconds.
    public static func nanoseconds(_ nanoseconds: some BinaryInteger) -> Self {
        Self(nanoseconds, nanosecondsPerUnit: 1)
    }

    /// No interval.
    public static var zero: Self { .nanoseconds(0) }

    /// `duration`, in whole nanoseconds (rounded toward zero), clamped.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public init(_ duration: Duration) {
        guard duration > .zero else {
            nanoseconds = 0
            return
        }
        let (seconds, attoseconds) = duration.components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, carry) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        nanoseconds = overflow || carry ? .max : total
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// The deadline this interval after `start`: `DispatchTime.distantFuture` when it is
    /// later than Dispatch can express.
    func deadline(after start: DispatchTime) -> DispatchTime {
        if let whole = Int(exactly: nanoseconds) {
            return start + .nanoseconds(whole)
        }
        // Only where `Int` is 32 bits wide (watchOS on arm64_32 and armv7k): whole seconds,
        // then the rest, each of which fits.
        let (seconds, rest) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        return start + .seconds(Int(clamping: seconds)) + .nanoseconds(Int(rest))
    }
}
