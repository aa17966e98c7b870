public import ArgumentParser
import Foundation
public import TallyStore

// `public import ArgumentParser` above: a conformance of a public type must see its protocol publicly.
extension RawRetention: ExpressibleByArgument {
    /// `forever`, or a whole number of days.
    public init?(argument: String) {
        if argument == "forever" {
            self = .forever
        } else if let days = Int(argument) {
            self = .days(days)
        } else {
            return nil
        }
    }
}

extension App {
    /// How long the app keeps its raw events, and since when they are kept, as the CLI says it.
    var rawRetentionText: String {
        let kept = rawEventsKeptSince.map { " (kept since \($0.formatted(.iso8601)))" } ?? ""
        guard let days = rawRetentionDays else { return "kept forever" + kept }
        return "kept \(days) days" + kept
    }
}
