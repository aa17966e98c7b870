import TallyStore

/// What the funnel section and the funnel sheet draw of a ``TallyStore/Funnel``: each
/// step's users, conversion from the first step, drop from the one before and median time,
/// and a bar as long as its share of the first step's users.
enum FunnelView {
    /// One step, as a bar shows it.
    struct Step {
        /// `2. bill_created`, with the step's conditions as people read them.
        var label: String
        var users: Int
        /// The users as a share of the first step's, 0 to 1 (0 when nobody took the first).
        var share: Double
        /// `63% of step 1 · 37% dropped · median 4m 10s`; the first step's is its share.
        var detail: String
    }

    /// The steps of `funnel` as bars show them.
    static func steps(of funnel: [Funnel.Step], named steps: [FunnelStep]) -> [Step] {
        let first = funnel.first?.users ?? 0
        return funnel.enumerated().map { index, step in
            let share = first > 0 ? Double(step.users) / Double(first) : 0
            var parts: [String] = []
            if index == 0 {
                parts.append("first step")
            } else {
                parts.append("\(percent(share)) of step 1")
                let previous = funnel[index - 1].users
                if previous > 0 { parts.append("\(percent(1 - Double(step.users) / Double(previous))) dropped") }
                if let median = step.medianSeconds { parts.append("median \(duration(median))") }
            }
            let name = steps.indices.contains(index) ? steps[index].readable : step.event
            return Step(label: "\(index + 1). \(name)", users: step.users, share: share, detail: parts.joined(separator: " · "))
        }
    }

    /// The share of users who reached the last step, as a percentage, or `—` when nobody took the first.
    static func conversion(of funnel: [Funnel.Step]) -> String {
        guard let first = funnel.first?.users, first > 0, let last = funnel.last?.users else { return "—" }
        return percent(Double(last) / Double(first))
    }

    /// An SVG bar `share` of its width long: attributes, not styles, so the page's
    /// Content-Security-Policy (no inline style) draws it.
    static func bar(_ share: Double) -> String {
        let length = (min(max(share, 0), 1) * 100 * 10).rounded() / 10
        return "<svg class=\"funnel-bar\" viewBox=\"0 0 100 8\" preserveAspectRatio=\"none\" aria-hidden=\"true\" focusable=\"false\">"
            + "<rect class=\"track\" width=\"100\" height=\"8\"/><rect class=\"fill\" width=\"\(length)\" height=\"8\"/></svg>"
    }

    /// `share` (0 to 1) as a whole percentage; under 1% but above 0 as `<1%`.
    static func percent(_ share: Double) -> String {
        guard share.isFinite else { return "—" }
        if share > 0 && share < 0.005 { return "<1%" }
        return "\(Int((share * 100).rounded()))%"
    }

    /// `seconds` as a short duration: `42s`, `4m 10s`, `3h 5m`, `2d 4h`.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        if total < 60 { return "\(total)s" }
        let (days, hours, minutes, rest) = (total / 86_400, total / 3_600 % 24, total / 60 % 60, total % 60)
        if days > 0 { return hours > 0 ? "\(days)d \(hours)h" : "\(days)d" }
        if hours > 0 { return minutes > 0 ? "\(hours)h \(minutes)m" : "\(hours)h" }
        return rest > 0 ? "\(minutes)m \(rest)s" : "\(minutes)m"
    }
}

extension FunnelStep {
    /// The step as people read it: `screen_view (screen is BillEditor)`.
    var readable: String {
        conditions.isEmpty ? event : "\(event) (\(conditions.conditions.map(\.readable).joined(separator: ", ")))"
    }
}
