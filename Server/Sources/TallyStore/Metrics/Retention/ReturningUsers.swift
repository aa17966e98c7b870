/// Of the users first seen some days before a day, how many have an event on that day, as
/// returned by ``MetricStore/returningUsers(after:in:)``.
public struct ReturningUsers: Hashable, Sendable, Codable {
    /// How many days before the day the users were first seen.
    public var days: Int
    /// The users whose first event ever is on that earlier day.
    public var firstSeen: Int
    /// Those of them with an event on the day.
    public var returned: Int

    /// `days` days after their first, `returned` of `firstSeen` users came back.
    public init(days: Int, firstSeen: Int, returned: Int) {
        self.days = days
        self.firstSeen = firstSeen
        self.returned = returned
    }
}
