import ComponentryList

/// A daily series drawn as an SVG line, on the server: the App section's trend and the
/// metric sheet's chart. No script draws anything.
///
/// The chart scales to its container (`viewBox`, width 100%), draws the current period as
/// a solid line and, when comparing, the previous period as a dashed one, and carries a
/// text alternative (`<title>`) for screen readers.
struct TrendChart {
    /// The values, one per day, oldest first.
    var values: [Int]
    /// The previous period's values, drawn dashed; empty for none.
    var previous: [Int] = []
    /// What the chart shows, for its title: "Daily active users, 24 Oct – 23 Nov 2026".
    var title: String

    private static let width = 300.0
    private static let height = 80.0
    private static let inset = 4.0

    /// The SVG element.
    var svg: String {
        let top = max(values.max() ?? 0, previous.max() ?? 0, 1)
        var html = "<svg viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" role=\"img\" preserveAspectRatio=\"none\">"
        html += "<title>\(HTMLText.escape(title)); highest \(top)</title>"
        html += "<line class=\"axis\" x1=\"0\" y1=\"\(Self.height - Self.inset)\" x2=\"\(Self.width)\" y2=\"\(Self.height - Self.inset)\"/>"
        if previous.count > 1 { html += polyline(previous, top: top, className: "series previous") }
        if values.count > 1 {
            html += polyline(values, top: top, className: "series")
        } else if let only = values.first {
            html += "<circle class=\"series\" cx=\"\(Self.width / 2)\" cy=\"\(y(only, top: top))\" r=\"3\"/>"
        }
        return html + "</svg>"
    }

    private func polyline(_ series: [Int], top: Int, className: String) -> String {
        let step = (Self.width - 2 * Self.inset) / Double(max(series.count - 1, 1))
        let points = series.enumerated().map { index, value in
            "\(format(Self.inset + Double(index) * step)),\(format(y(value, top: top)))"
        }
        return "<polyline class=\"\(className)\" fill=\"none\" vector-effect=\"non-scaling-stroke\" points=\"\(points.joined(separator: " "))\"/>"
    }

    private func y(_ value: Int, top: Int) -> Double {
        Self.height - Self.inset - (Self.height - 2 * Self.inset) * Double(max(value, 0)) / Double(top)
    }

    private func format(_ value: Double) -> String {
        String(Double((value * 10).rounded()) / 10)
    }
}
