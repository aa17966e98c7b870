import Foundation
import TallyEvent

@testable import TallyStore

/// Segments by brute force, from their definitions in `SegmentFilter` and `UserTraits`.
extension MetricsOracle {
    /// Each user's latest value of each user property: the greatest (rank, value).
    static func latestValues(_ all: [Event], properties: SegmentProperties) -> [String: [String: String]] {
        var latest: [String: [String: (rank: Int64, value: String)]] = [:]
        for event in all {
            var assignments: [(String, String, Int64)] = []
            let time = max(event.timestamp.unixMilliseconds, 0)
            for property in properties.user {
                if event.name == "identify", let value = event.properties[property]?.segmentText { assignments.append((property, value, time)) }
                for (key, rank) in [("$set", time), ("$set_once", -1 - time)] {
                    guard case .string(let json)? = event.properties[key],
                        let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
                    else { continue }
                    // The random data sets strings only.
                    if let value = object[property] as? String { assignments.append((property, value, rank)) }
                }
            }
            for (property, value, rank) in assignments {
                if let known = latest[event.userID]?[property], (known.rank, known.value) >= (rank, value) { continue }
                latest[event.userID, default: [:]][property] = (rank, value)
            }
        }
        return latest.mapValues { $0.mapValues(\.value) }
    }

    /// The value of `property` for `event`: its field, its own property, or its user's latest value.
    static func value(of property: String, properties: SegmentProperties, all: [Event]) -> (Event) -> String? {
        let latest = latestValues(all, properties: properties)
        return { event in
            switch property {
            case "app_version": event.appVersion
            case "platform": event.platform
            case let name where properties.user.contains(name): latest[event.userID]?[name]
            case let name: event.properties[name]?.segmentText
            }
        }
    }

    /// A test of each event against `filter`, given every deduplicated event of the app.
    static func matching(_ filter: SegmentFilter, properties: SegmentProperties) -> ([Event]) -> (Event) -> Bool {
        { all in
            let values = filter.conditions.map { value(of: $0.property, properties: properties, all: all) }
            return { event in zip(filter.conditions, values).allSatisfy { $0.matches($1(event)) } }
        }
    }
}
