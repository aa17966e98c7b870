import Foundation
import TallyEvent

@testable import TallyStore

/// The configured metrics of ``EventStore`` (property averages, empty shares, breakdowns,
/// daily counts per name) by brute force, from their definitions.
extension MetricsOracle {
    func events(named name: String, on date: String) -> [Event] {
        events.filter { $0.name == name && day(of: $0.timestamp) == date }
    }

    func propertyAverage(event: String, property: String, date: String) -> NumericSummary {
        let numbers = events(named: event, on: date).compactMap { event -> Double? in
            switch event.properties[property] {
            case .int(let value)?: Double(value)
            case .double(let value)?: value
            default: nil
            }
        }
        return NumericSummary(
            count: numbers.count, average: numbers.isEmpty ? nil : numbers.reduce(0, +) / Double(numbers.count),
            maximum: numbers.max())
    }

    func emptyPropertyShare(event: String, property: String, date: String) -> EmptyShare {
        let events = events(named: event, on: date)
        let empty = events.filter { event in
            switch event.properties[property] {
            case nil, .null?: true
            case .string(let text)?: text.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
            default: false
            }
        }
        return EmptyShare(events: events.count, empty: empty.count)
    }

    /// A property value as the breakdown names it, or `nil` when it counts as missing.
    static func text(_ value: PropertyValue?) -> String? {
        switch value {
        case .string(let text)?: text
        case .int(let number)?: String(number)
        case .double(let number)?: "\(number)"
        case .bool(let flag)?: flag ? "true" : "false"
        case .null?, nil: nil
        }
    }

    func breakdown(event: String, property: String, date: String, limit: Int) -> Breakdown {
        let events = events(named: event, on: date)
        let byValue = Dictionary(grouping: events.filter { Self.text($0.properties[property]) != nil }) {
            Self.text($0.properties[property])!
        }
        let sorted = byValue.sorted { $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key }
        let others = sorted.dropFirst(limit)
        return Breakdown(
            top: sorted.prefix(limit).map { .init(value: $0.key, events: $0.value.count, users: Set($0.value.map(\.userID)).count) },
            otherValues: others.count,
            otherEvents: others.map(\.value.count).reduce(0, +),
            otherUsers: Set(others.flatMap { $0.value.map(\.userID) }).count,
            missing: events.count - byValue.values.map(\.count).reduce(0, +))
    }

    func dailyCount(event: String, date: String) -> DailyCount {
        let events = events(named: event, on: date)
        return DailyCount(date: date, events: events.count, users: Set(events.map(\.userID)).count)
    }
}
