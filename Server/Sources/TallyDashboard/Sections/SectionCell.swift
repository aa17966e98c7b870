import ComponentryList

/// The HTML inside the dashboard's cells: the section title, each number with its
/// `data-metric` key (so scripts and tests find a number by key and read it as text) —
/// headlines, ranked rows with their bars, funnel steps —, the live feed's events with their
/// users linked to their user sheet, a section's chart, its flag, its empty state and its
/// "Show all".
enum SectionCell {
    /// The inner HTML of `cell`, or `nil` for a cell kind the dashboard does not draw itself.
    @Sendable static func html(_ cell: Cell) -> String? {
        let key = HTMLText.escape(cell["key"] ?? "")
        func text(_ field: String) -> String { HTMLText.escape(cell[field] ?? "") }
        func value(_ field: String = "value") -> String {
            "<span class=\"value\"\(number(cell[field] ?? "")) data-metric=\"\(key)\">\(text(field))</span>"
        }
        switch cell.kind.identifier {
        case "title":
            return "<h2>\(text("title"))</h2>"
        case "metric":
            var html = "<span class=\"label\">\(text("label"))</span>" + value()
            if let detail = cell["detail"], !detail.isEmpty { html += "<span class=\"detail\">\(HTMLText.escape(detail))</span>" }
            guard let href = cell["href"], !href.isEmpty else { return html }
            return "<a class=\"metric\" href=\"\(HTMLText.escape(href))\" data-event=\"sheet\" data-value=\"metric:\(key)\">\(html)</a>"
        case "row":
            // The bar is an SVG's attributes, not a style: the page's Content-Security-Policy
            // allows no inline style.
            let share = min(max(cell["share"].flatMap(Double.init) ?? 0, 0), 1)
            let bar =
                "<svg class=\"row-bar\" viewBox=\"0 0 100 10\" preserveAspectRatio=\"none\" aria-hidden=\"true\" focusable=\"false\">"
                + "<rect width=\"\((share * 1_000).rounded() / 10)\" height=\"10\"/></svg>"
            return bar + "<span class=\"label\" title=\"\(text("label"))\">\(text("label"))</span>" + pathsLink(cell) + value()
        case "heading":
            guard let href = cell["href"], !href.isEmpty else { return "<h3 class=\"list-heading\">\(text("label"))</h3>" }
            return "<h3 class=\"list-heading\"><a href=\"\(HTMLText.escape(href))\" data-event=\"sheet\" data-value=\"metric:\(key)\">"
                + "\(text("label"))</a></h3>"
        case "event":
            // Time, user (linked to their user sheet), event, a key property.
            var html = "<span class=\"time\" data-metric=\"\(key)\">\(text("value"))</span>"
            let (user, link) = (text("user"), cell["userHref"] ?? "")
            html +=
                link.isEmpty
                ? "<span class=\"detail user-link\">\(user)</span>"
                : "<a class=\"detail user-link\" href=\"\(HTMLText.escape(link))\" data-event=\"sheet\" data-value=\"user:\(user)\" title=\"\(user)\">\(user)</a>"
            return html + "<span class=\"label\">\(text("label"))</span><span class=\"detail property\">\(text("detail"))</span>"
        case "empty":
            return "<p class=\"empty\">\(text("text"))</p>"
        case "more":
            return
                "<button class=\"button quiet compact\" type=\"button\" data-event=\"expand\" data-value=\"\(text("value"))\">\(text("text"))</button>"
        case "chart":
            // Made by TrendChart, which escapes its texts.
            return cell["html"]
        case "step":
            let share = cell["share"].flatMap(Double.init) ?? 0
            return "<span class=\"label\">\(HTMLText.escape(cell["label"] ?? ""))</span>"
                + value() + FunnelView.bar(share) + "<span class=\"detail\">\(HTMLText.escape(cell["detail"] ?? ""))</span>"
        case "note":
            return "<p class=\"note\">\(HTMLText.escape(cell["text"] ?? ""))</p>"
        case "flag":
            return "<p class=\"flag unreliable\" role=\"alert\"><strong>\(HTMLText.escape(cell["text"] ?? ""))</strong> "
                + "<span>\(HTMLText.escape(cell["detail"] ?? ""))</span></p>"
        default:
            return nil
        }
    }

    /// The link of a cell that names a screen (the Screens section's rows) to the screen's
    /// paths sheet, which the page's script opens live; nothing for other cells, and in a
    /// cell that is a link itself.
    static func pathsLink(_ cell: Cell) -> String {
        guard let start = cell["paths"], !start.isEmpty, let link = cell["pathsHref"], !link.isEmpty, (cell["href"] ?? "").isEmpty else {
            return ""
        }
        let label = HTMLText.escape("Paths from \(cell["label"] ?? start)")
        return "<a class=\"detail paths-link\" href=\"\(HTMLText.escape(link))\" data-event=\"sheet\" data-value=\"paths:\(HTMLText.escape(start))\""
            + " aria-label=\"\(label)\" title=\"\(label)\">Paths →</a>"
    }

    /// The `data-n` attribute of a whole number, which the page's script shows in the
    /// browser's locale (abbreviated from 10,000, exact on hover); nothing for other text.
    static func number(_ text: String) -> String {
        guard let value = Int(text) else { return "" }
        return " data-n=\"\(value)\""
    }
}
