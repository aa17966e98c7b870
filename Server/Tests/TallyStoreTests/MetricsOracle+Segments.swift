import Foundation
import TallyEvent

@testable import TallyStore

/// Segments by brute force, from their definitions in `SegmentFilter` and `UserTraits`.
extension MetricsOracle {
    /// A test of each event against `filter`, given every deduplicated event of the app.
    static func matching(_ filter: SegmentFilter, properties: SegmentProperties) -> ([Event]) -> (Event) -> Bool {
        { all in
            // Each user's latest value of each user property: the greatest (rank, value).
            var latest: [String: [String: (rank: Int64, value: String)]] = [:]
            for event in all {
                var assignments: [(String, String, Int64)] = []
                let time = max(event.timestamp.unixMilliseconds, 0)
                for property in properties.user {
                    if event.name == "identify", let value = event.properties[property]?.segmentText { assignments.append((property, value, time)) }
                    for (key, rank) in [("$set", time), ("$set_once", -1 - time)] {
                        guard case .string(let json)? = event.properties[key],
                            let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
                            let raw = object[property]
                        else { continue }
                        // The random data sets strings only.
                        if let value = raw as? String { assignments.append((property, value, rank)) }
                    }
                }
                for (property, value, rank) in assignments {
                    if let known = latest[event.userID]?[property], (known.rank, known.value) >= (rank, value) { continue }
                    latest[event.userID, default: [:]][property] = (rank, value)
                }
            }
            return { event in
                filter.conditions.allSatisfy { condition in
                    let value: String? =
                        switch condition.property {
                        case "app_version": event.appVersion
                        case "platform": event.platform
                        case let name where properties.user.contains(name): latest[event.userID]?[name]?.value
                        case let name: event.properties[name]?.segmentText
                        }
                    guard let value else { return condition.isNegated }
                    return condition.values.contains(value) != condition.isNegated
                }
            }
        }
    }
}
