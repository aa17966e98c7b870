public import Foundation

extension App {
    /// The first instant whose raw events an app keeping them `days` days keeps at `now`: UTC
    /// midnight `days` days before today's (UTC). An event at that instant is kept; one a
    /// millisecond earlier is deleted.
    public static func rawEventsHorizon(days: Int, at now: Date) -> Date {
        let today = now.unixMilliseconds.floorDivided(by: 86_400_000)
        return Date(unixMilliseconds: (today - Int64(days)) * 86_400_000)
    }

    /// The first instant whose raw events the app keeps at `now`; `nil` when it keeps them all.
    public func rawEventsHorizon(at now: Date) -> Date? {
        rawRetentionDays.map { Self.rawEventsHorizon(days: $0, at: now) }
    }

    /// Throws unless `retention` is 1 to ``RawRetention/maximumDays`` days and keeps every event
    /// ingest may still accept a day longer than `acceptedEventAge` (seconds): an event can
    /// arrive only while its raw row is kept, so a repeated id is always found and skipped, and
    /// the rollups never count an event twice.
    static func validate(rawRetention retention: RawRetention, acceptedEventAge: TimeInterval) throws(TallyStoreError) {
        guard case .days(let days) = retention else { return }
        guard (1...RawRetention.maximumDays).contains(days), Double(days) * 86_400 >= acceptedEventAge + 86_400 else {
            throw .invalidRawRetention(days: days, acceptedEventAge: acceptedEventAge)
        }
    }
}

extension Int64 {
    /// The quotient rounded towards negative infinity.
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? quotient - 1 : quotient
    }
}
