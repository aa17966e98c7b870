import ComponentryList
import TallyStore

/// The paths sheet's drawing of a ``TallyStore/Paths``: ranked columns in SVG, drawn on the
/// server, and a table of the same numbers behind a toggle, its text alternative.
///
/// Column 0 is the start and its sessions; column k lists the level-k steps, most sessions
/// first, each a row with its name, its sessions and a bar as long as its share of the
/// start's sessions (every level adds up to them, so each column's bars fill one width).
/// The store counts each level on its own — which step of level k a session took after a
/// given step of level k − 1 is not known — so consecutive columns are joined by a light
/// band only, never by flows.
///
/// Sizes are SVG attributes, not styles: the page's Content-Security-Policy allows no
/// inline style. The drawing keeps its width, and scrolls sideways in a narrow sheet.
struct PathChart {
    let paths: Paths
    /// The screens' names as the layout shows them (`BillEditor: Bill editor`); a step
    /// without one shows as it is.
    var names: [String: String] = [:]

    /// The width of a column and of the gap (its band) between two.
    static let columnWidth = 150.0
    static let gap = 36.0
    /// The height of the column titles, then of each row: its name above its bar.
    static let header = 22.0
    static let rowHeight = 40.0
    static let barHeight = 10.0
    /// Where a row's bar starts, below its top.
    static let barOffset = 19.0
    /// The most characters of a step's name drawn; longer names end with `…` (their
    /// `<title>` and the table hold them whole).
    static let nameLength = 17

    /// What a step of the store's is called on the page: its special steps in words, a
    /// screen by its layout name.
    func label(of step: String) -> String {
        switch step {
        case Paths.end: "Session ended"
        case Paths.beginning: "Session start"
        case Paths.other: "Other"
        default: names[step] ?? step
        }
    }

    /// Whether `step` is one of the store's special steps rather than a screen or an event.
    static func isSpecial(_ step: String) -> Bool {
        [Paths.end, Paths.beginning, Paths.other].contains(step)
    }

    /// The title of column `level`: `Start`, then `Step 1`… after the start, `1 step
    /// before`… before it.
    func title(of level: Int) -> String {
        if level == 0 { return "Start" }
        return paths.direction == .after ? "Step \(level)" : "\(level) step\(level == 1 ? "" : "s") before"
    }

    /// Each column's rows: the start, then each level's steps.
    private var columns: [[Paths.Step]] {
        [[Paths.Step(step: paths.start, sessions: paths.sessions)]] + paths.levels
    }

    /// `sessions` as a share of the start's, 0 to 1.
    private func share(_ sessions: Int) -> Double {
        paths.sessions > 0 ? min(max(Double(sessions) / Double(paths.sessions), 0), 1) : 0
    }

    /// The figure: the columns in a box that scrolls sideways, then the table.
    var html: String {
        "<figure class=\"path-chart\"><div id=\"path-scroll\" class=\"path-scroll\">\(svg)</div>\(table)</figure>"
    }

    /// The SVG element.
    var svg: String {
        let columns = columns
        let width = Double(columns.count) * Self.columnWidth + Double(columns.count - 1) * Self.gap
        let height = Self.header + Double(columns.map(\.count).max() ?? 1) * Self.rowHeight
        let start = label(of: paths.start)
        let summary =
            "Paths \(paths.direction == .after ? "after" : "before") \(start): \(paths.sessions) sessions, \(paths.levels.count) levels"
        var svg = "<svg class=\"paths\" width=\"\(Self.format(width))\" height=\"\(Self.format(height))\""
        svg += " viewBox=\"0 0 \(Self.format(width)) \(Self.format(height))\" role=\"img\" aria-label=\"\(HTMLText.escape(summary))\">"
        svg += "<title>\(HTMLText.escape(summary))</title>"
        for (level, steps) in columns.enumerated() {
            let x = Double(level) * (Self.columnWidth + Self.gap)
            if level > 0 { svg += band(from: columns[level - 1].count, to: steps.count, at: x) }
            svg += "<text class=\"path-title\" x=\"\(Self.format(x))\" y=\"14\">\(HTMLText.escape(title(of: level)))</text>"
            svg += "<g class=\"path-column\" data-level=\"\(level)\">"
            for (row, step) in steps.enumerated() {
                svg += self.step(step, level: level, x: x, y: Self.header + Double(row) * Self.rowHeight)
            }
            svg += "</g>"
        }
        return svg + "</svg>"
    }

    /// One step's row: its name and sessions, then its bar.
    private func step(_ step: Paths.Step, level: Int, x: Double, y: Double) -> String {
        let name = level == 0 ? step.step : label(of: step.step)
        let special = level > 0 && Self.isSpecial(step.step)
        let share = share(step.sessions)
        let shown = name.count > Self.nameLength ? String(name.prefix(Self.nameLength - 1)) + "…" : name
        let percent = FunnelView.percent(share)
        var html = "<g class=\"path-step\(level == 0 ? " start" : "")\(special ? " special" : "")\" data-level=\"\(level)\""
        html += " data-step=\"\(HTMLText.escape(step.step))\" data-sessions=\"\(step.sessions)\">"
        html += "<title>\(HTMLText.escape(name)): \(step.sessions) sessions, \(percent)</title>"
        html += "<text class=\"path-name\" x=\"\(Self.format(x))\" y=\"\(Self.format(y + 13))\">\(HTMLText.escape(shown))</text>"
        html += "<text class=\"path-count\" x=\"\(Self.format(x + Self.columnWidth))\" y=\"\(Self.format(y + 13))\" text-anchor=\"end\""
        html += " data-n=\"\(step.sessions)\">\(step.sessions)</text>"
        let barY = Self.format(y + Self.barOffset)
        html +=
            "<rect class=\"track\" x=\"\(Self.format(x))\" y=\"\(barY)\" width=\"\(Self.format(Self.columnWidth))\" height=\"\(Self.format(Self.barHeight))\"/>"
        html += "<rect class=\"fill\" x=\"\(Self.format(x))\" y=\"\(barY)\" width=\"\(Self.format(share * Self.columnWidth))\""
        html += " height=\"\(Self.format(Self.barHeight))\"/>"
        return html + "</g>"
    }

    /// The light band between a column of `before` rows and the next, of `after` rows, at
    /// `x`: from the first bar to the last of one to those of the other. It joins the
    /// columns and claims no flow.
    private func band(from before: Int, to after: Int, at x: Double) -> String {
        func bottom(_ rows: Int) -> String {
            Self.format(Self.header + Double(max(rows, 1) - 1) * Self.rowHeight + Self.barOffset + Self.barHeight)
        }
        let top = Self.format(Self.header + Self.barOffset)
        let (left, right, middle) = (Self.format(x - Self.gap), Self.format(x), Self.format(x - Self.gap / 2))
        let (fromBottom, toBottom) = (bottom(before), bottom(after))
        return "<path class=\"path-band\" aria-hidden=\"true\" d=\"M\(left) \(top)H\(right)V\(toBottom)"
            + "C\(middle) \(toBottom) \(middle) \(fromBottom) \(left) \(fromBottom)Z\"/>"
    }

    /// The numbers as a table behind a toggle: per level, each step's sessions and share of
    /// the start's.
    var table: String {
        var html = "<details class=\"chart-table\"><summary>Table</summary><div class=\"table-scroll\"><table class=\"path-table\"><thead><tr>"
        html += "<th scope=\"col\">Level</th><th scope=\"col\">Step</th><th scope=\"col\">Sessions</th><th scope=\"col\">Share</th>"
        html += "</tr></thead><tbody>"
        for (level, steps) in columns.enumerated() {
            for step in steps {
                let name = level == 0 ? step.step : label(of: step.step)
                html += "<tr data-level=\"\(level)\"><th scope=\"row\">\(HTMLText.escape(title(of: level)))</th>"
                html += "<td class=\"step\">\(HTMLText.escape(name))</td><td data-n=\"\(step.sessions)\">\(step.sessions)</td>"
                html += "<td>\(FunnelView.percent(share(step.sessions)))</td></tr>"
            }
        }
        return html + "</tbody></table></div></details>"
    }

    /// `value` with at most one decimal.
    private static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
