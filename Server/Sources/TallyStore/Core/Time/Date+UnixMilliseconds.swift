import Foundation

extension Date {
    /// Milliseconds since 1970-01-01T00:00:00Z, rounded to the nearest millisecond:
    /// the precision at which the store keeps instants.
    var unixMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    /// The instant `milliseconds` after 1970-01-01T00:00:00Z.
    init(unixMilliseconds milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
