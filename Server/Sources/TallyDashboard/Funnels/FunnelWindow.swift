import TallyStore

/// How long a funnel's chain may take from its first event, in whole seconds, as the layout
/// file and the page's address write it: a number and a unit, `s`, `m`, `h` or `d` (`90s`,
/// `30m`, `1h`, `7d`).
public struct FunnelWindow: Hashable, Sendable, CustomStringConvertible {
    /// The window in seconds: 1 through ``Funnel/maximumWindow``.
    public let seconds: Int

    /// A day: the store's default window.
    public static let day = FunnelWindow(checked: 86_400)

    /// The windows the ad-hoc funnel sheet offers.
    static let choices: [FunnelWindow] = [300, 1_800, 3_600, 86_400, 7 * 86_400, 30 * 86_400].map(FunnelWindow.init(checked:))

    private init(checked seconds: Int) {
        self.seconds = seconds
    }

    /// The window of `seconds`, or `nil` outside 1 second to ``Funnel/maximumWindow``.
    public init?(seconds: Int) {
        guard (1...Funnel.maximumWindow).contains(seconds) else { return nil }
        self.seconds = seconds
    }

    /// The window `text` names (`30m`, `1d`), or `nil` if it is not a whole number of one of
    /// the units within 1 second to 90 days.
    public init?(_ text: String) {
        guard let unit = text.last, let scale = Self.units.first(where: { $0.unit == unit })?.seconds,
            let count = Int(text.dropLast()), count > 0, count <= Funnel.maximumWindow / scale
        else { return nil }
        self.init(seconds: count * scale)
    }

    /// The units, largest first.
    private static let units: [(unit: Character, seconds: Int, name: String)] = [
        ("d", 86_400, "day"), ("h", 3_600, "hour"), ("m", 60, "minute"), ("s", 1, "second"),
    ]

    /// The window in its largest whole unit: `1d`, `90m`.
    public var description: String {
        let unit = Self.units.first { seconds % $0.seconds == 0 } ?? Self.units[3]
        return "\(seconds / unit.seconds)\(unit.unit)"
    }

    /// The window as people read it: `1 day`, `30 minutes`.
    var readable: String {
        let unit = Self.units.first { seconds % $0.seconds == 0 } ?? Self.units[3]
        let count = seconds / unit.seconds
        return "\(count) \(unit.name)\(count == 1 ? "" : "s")"
    }
}
