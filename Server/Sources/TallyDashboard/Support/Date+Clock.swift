import Foundation

extension Date {
    /// The time of day in `zone`, as `HH:mm:ss`: the live feed's and the timeline's times
    /// (without `String(format:)`, which showed in the live tick's profile).
    func clock(in zone: TimeZone) -> String {
        let seconds = Int((timeIntervalSince1970 + Double(zone.secondsFromGMT(for: self))).rounded(.down))
        let time = (seconds % 86_400 + 86_400) % 86_400
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        return "\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60))"
    }
}
