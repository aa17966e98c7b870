import ComponentryList
import TallyEvent

/// A daily series drawn on the server as an SVG chart: the App section's trend and the metric
/// sheet's chart.
///
/// The chart has a value axis with gridlines at round steps, a time axis with dates, the
/// current period as a solid line and, when comparing, the previous period as a dashed one.
/// The page's script reads the series from the SVG's `data-` attributes to show the date and
/// value of the point under the pointer, or chosen with the arrow keys once the chart has
/// the focus, in the `<output>` below it. A table of the same numbers, behind a toggle, is
/// its text alternative.
struct TrendChart {
    /// The days, oldest first, as `YYYY-MM-DD`, one per value.
    var dates: [String]
    /// The values, one per day.
    var values: [Int]
    /// The previous period's values, day by day, drawn dashed; empty for none.
    var previous: [Int] = []
    /// What the values are: "Daily active users".
    var title: String
    /// A caption under the chart, if any.
    var caption: String? = nil
    /// The annotations to mark: a dashed line at each one's day, its text on hover and focus.
    var annotations: [ChartAnnotation] = []

    /// The chart's height in pixels, and the plot's inside it: the dates below, room above
    /// for the top gridline's label. The chart is as wide as its container: the plot is an
    /// inner SVG stretched to it (its lines keep their width), and the texts stay at their
    /// size, placed in pixels and percentages.
    static let height = 180.0
    static let top = 16.0
    static let bottom = 22.0
    static var plotHeight: Double { height - top - bottom }
    /// The inner plot's width, in the units of its `viewBox`.
    static let plotWidth = 1_000.0

    /// The figure: the chart, the hovered point's readout, the caption and the table.
    var html: String {
        let caption = caption.map { "<figcaption>\(HTMLText.escape($0))</figcaption>" } ?? ""
        return "<figure class=\"chart\">\(svg)<output class=\"chart-readout\" aria-live=\"polite\"></output>\(caption)\(table)</figure>"
    }

    /// The SVG element.
    var svg: String {
        let scale = ValueScale(maximum: max(values.max() ?? 0, previous.max() ?? 0))
        let count = values.count
        /// A day's place across the plot, 0 to 1.
        func across(_ index: Int) -> Double { count > 1 ? Double(index) / Double(count - 1) : 0.5 }
        /// A value's height in the plot, 0 (top) to `plotHeight`.
        func down(_ value: Int) -> Double { Self.plotHeight * (1 - Double(max(value, 0)) / Double(scale.top)) }
        let summary = "\(title): \(count) days\(values.last.map { ", last \($0)" } ?? ""), highest \(values.max() ?? 0)"
        var svg = "<svg width=\"100%\" height=\"\(Int(Self.height))\" role=\"img\" tabindex=\"0\" aria-label=\"\(HTMLText.escape(summary))\""
        svg += " data-dates=\"\(dates.joined(separator: ","))\" data-values=\"\(Self.list(values))\" data-previous=\"\(Self.list(previous))\""
        svg += " data-y=\"\(Self.format(Self.top))\" data-height=\"\(Self.format(Self.plotHeight))\" data-top=\"\(scale.top)\">"
        svg += "<title>\(HTMLText.escape(summary))</title>"
        for tick in scale.ticks {
            let position = Self.top + down(tick)
            svg += "<line class=\"grid\" x1=\"0\" x2=\"100%\" y1=\"\(Self.format(position))\" y2=\"\(Self.format(position))\"/>"
            svg += "<text class=\"tick\" x=\"0\" y=\"\(Self.format(position - 4))\">\(ValueScale.short(tick))</text>"
        }
        for index in Self.labelledDays(count: dates.count) {
            let anchor = dates.count == 1 ? "middle" : index == 0 ? "start" : index == dates.count - 1 ? "end" : "middle"
            svg += "<text class=\"tick\" x=\"\(Self.format(across(index) * 100))%\" y=\"\(Self.format(Self.height - 5))\" text-anchor=\"\(anchor)\">"
            svg += "\(Self.shortDate(dates[index]))</text>"
        }
        svg += "<svg y=\"\(Self.format(Self.top))\" width=\"100%\" height=\"\(Self.format(Self.plotHeight))\""
        svg += " viewBox=\"0 0 \(Int(Self.plotWidth)) \(Self.format(Self.plotHeight))\" preserveAspectRatio=\"none\">"
        func polyline(_ series: [Int], className: String) -> String {
            let points = series.prefix(count).enumerated().map { "\(Self.format(across($0) * Self.plotWidth)),\(Self.format(down($1)))" }
            return "<polyline class=\"\(className)\" points=\"\(points.joined(separator: " "))\"/>"
        }
        if previous.count > 1 { svg += polyline(previous, className: "series previous") }
        if count > 1 { svg += polyline(values, className: "series") }
        svg += "</svg>"
        if count == 1 { svg += "<circle class=\"series\" cx=\"50%\" cy=\"\(Self.format(Self.top + down(values[0])))\" r=\"3\"/>" }
        svg += markers(across: across)
        svg += "<g class=\"cursor\" visibility=\"hidden\"><line y1=\"\(Self.format(Self.top))\" y2=\"\(Self.format(Self.top + Self.plotHeight))\"/>"
        svg += "<circle r=\"4\"/></g>"
        return svg + "</svg>"
    }

    /// The annotations' markers, one per day with any: a dashed line across the plot and a
    /// dot on top that takes the focus, their texts as its title (shown on hover) and label.
    private func markers(across: (Int) -> Double) -> String {
        var texts: [Int: [String]] = [:]
        for annotation in annotations {
            guard let index = dates.firstIndex(of: annotation.day) else { continue }
            texts[index, default: []].append(annotation.text)
        }
        var svg = ""
        for (index, notes) in texts.sorted(by: { $0.key < $1.key }) {
            let x = "\(Self.format(across(index) * 100))%"
            let label = HTMLText.escape("\(Self.shortDate(dates[index])): \(notes.joined(separator: "; "))")
            svg += "<g class=\"annotation\" tabindex=\"0\" role=\"note\" aria-label=\"\(label)\" data-day=\"\(dates[index])\"><title>\(label)</title>"
            svg += "<line x1=\"\(x)\" x2=\"\(x)\" y1=\"\(Self.format(Self.top))\" y2=\"\(Self.format(Self.top + Self.plotHeight))\"/>"
            svg += "<circle cx=\"\(x)\" cy=\"\(Self.format(Self.top))\" r=\"4\"/></g>"
        }
        return svg
    }

    /// The numbers as a table behind a toggle: the chart's text alternative.
    var table: String {
        var html = "<details class=\"chart-table\"><summary>Table</summary><div class=\"table-scroll\"><table><thead><tr>"
        html += "<th scope=\"col\">Day</th><th scope=\"col\">\(HTMLText.escape(title))</th>"
        if !previous.isEmpty { html += "<th scope=\"col\">Previous period</th>" }
        html += "</tr></thead><tbody>"
        for (index, date) in dates.enumerated().reversed() {
            html += "<tr><th scope=\"row\">\(CalendarDay(shown: date)?.readable ?? date)</th>"
            html += "<td data-n=\"\(values.indices.contains(index) ? values[index] : 0)\">\(values.indices.contains(index) ? values[index] : 0)</td>"
            if !previous.isEmpty {
                let value = previous.indices.contains(index) ? String(previous[index]) : ""
                html += "<td\(value.isEmpty ? "" : " data-n=\"\(value)\"")>\(value)</td>"
            }
            html += "</tr>"
        }
        return html + "</tbody></table></div></details>"
    }

    /// The days whose date the time axis shows: the first, the last, and up to three between.
    static func labelledDays(count: Int) -> [Int] {
        guard count > 2 else { return Array(0..<count) }
        let gaps = min(4, count - 1)
        var days: [Int] = []
        for gap in 0...gaps where days.last != (count - 1) * gap / gaps { days.append((count - 1) * gap / gaps) }
        return days
    }

    /// `2026-11-24` as `24 Nov`.
    static func shortDate(_ text: String) -> String {
        guard let day = CalendarDay(shown: text) else { return HTMLText.escape(text) }
        return String(day.readable.split(separator: " ").prefix(2).joined(separator: " "))
    }

    private static func list(_ values: [Int]) -> String {
        values.map(String.init).joined(separator: ",")
    }

    private static func format(_ value: Double) -> String {
        String(Double((value * 10).rounded()) / 10)
    }
}

/// A value axis from 0: its top, a round number at or above the largest value, and its ticks.
struct ValueScale {
    /// The value at the plot's top.
    let top: Int
    /// The gridlines' values, 0 first.
    let ticks: [Int]

    /// The scale of values up to `maximum`: at most 4 steps of 1, 2 or 5 times a power of ten.
    init(maximum: Int) {
        let maximum = max(maximum, 1)
        var (base, step) = (1, 1)
        search: while true {
            for factor in [1, 2, 5] {
                step = base * factor
                if maximum / step + (maximum % step == 0 ? 0 : 1) <= 4 { break search }
            }
            let (next, overflow) = base.multipliedReportingOverflow(by: 10)
            guard !overflow, next <= Int.max / 5 else {
                step = maximum
                break
            }
            base = next
        }
        let steps = maximum / step + (maximum % step == 0 ? 0 : 1)
        let (rounded, overflow) = steps.multipliedReportingOverflow(by: step)
        top = overflow ? maximum : rounded
        ticks = overflow ? [0, maximum] : (0...steps).map { $0 * step }
    }

    /// `value` in a few characters: `950`, `1.2k`, `12k`, `3.4M`.
    static func short(_ value: Int) -> String {
        let magnitude = abs(value)
        // A value that rounds up to the next unit takes it: 999,999 is 1M, not 1000k.
        for (limit, suffix) in [(1_000_000_000, "B"), (1_000_000, "M"), (1_000, "k")] where magnitude >= limit - limit / 2_000 {
            let scaled = Double(value) / Double(limit)
            let text = abs(scaled) < 10 ? String(Double((scaled * 10).rounded()) / 10) : String(Int(scaled.rounded()))
            return (text.hasSuffix(".0") ? String(text.dropLast(2)) : text) + suffix
        }
        return String(value)
    }
}
