import Componentry
import Testing

@Suite("Commit interval")
struct CommitIntervalTests {
    @Test func unitsScaleToNanoseconds() {
        #expect(CommitInterval.seconds(2).nanoseconds == 2_000_000_000)
        #expect(CommitInterval.milliseconds(300).nanoseconds == 300_000_000)
        #expect(CommitInterval.microseconds(7).nanoseconds == 7_000)
        #expect(CommitInterval.nanoseconds(9).nanoseconds == 9)
        #expect(CommitInterval.seconds(0.25).nanoseconds == 250_000_000)
        #expect(CommitInterval.milliseconds(1.5).nanoseconds == 1_500_000)
    }

    @Test func negativeIntervalsAreNone() {
        #expect(CommitInterval.seconds(-5) == .zero)
        #expect(CommitInterval.milliseconds(-0.5) == .zero)
        #expect(CommitInterval.seconds(Double.nan) == .zero)
        #expect(CommitInterval.nanoseconds(Int64.min) == .zero)
    }

    @Test func intervalsPastInt64NanosecondsAreTheLongest() {
        #expect(CommitInterval.seconds(Int64.max).nanoseconds == .max)
        #expect(CommitInterval.milliseconds(UInt64.max).nanoseconds == .max)
        #expect(CommitInterval.seconds(1e300).nanoseconds == .max)
        #expect(CommitInterval.seconds(9_223_372_036).nanoseconds == 9_223_372_036_000_000_000)
    }

    @Test func aDurationConvertsToTheNanosecond() {
        #expect(CommitInterval(.milliseconds(300)) == .milliseconds(300))
        #expect(CommitInterval(.nanoseconds(1)) == .nanoseconds(1))
        #expect(CommitInterval(.seconds(-1)) == .zero)
        #expect(CommitInterval(.seconds(Int64.max)).nanoseconds == .max)
    }
}
