import ComponentryList
import Foundation
import TallyEvent
import TallyStore

/// The App section's note of the alerts that fired in the last day: live, since the report
/// is read again with each commit the page hears.
struct AlertBanner {
    /// The latest firings, newest first.
    var fired: [AlertEvaluation]
    /// When "now" is.
    var now = Date()

    /// How long a firing is shown: a day.
    static let shownFor: TimeInterval = 86_400

    var html: String {
        let recent = fired.filter { now.timeIntervalSince($0.at) < Self.shownFor }
        guard !recent.isEmpty else { return "" }
        let items = recent.map { evaluation in
            let value = AlertsSheet.number(evaluation.value)
            return "<li><strong>\(HTMLText.escape(evaluation.rule))</strong>: \(HTMLText.escape(evaluation.metric)) was \(value) on "
                + "\(CalendarDay(shown: evaluation.day)?.readable ?? HTMLText.escape(evaluation.day)) (\(HTMLText.escape(evaluation.condition)))</li>"
        }
        return "<div class=\"alert-banner\" role=\"status\"><p>Alerts fired</p><ul>\(items.joined())</ul></div>"
    }
}
