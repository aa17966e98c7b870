import ComponentryList

/// The HTML inside the dashboard's cells: the section title, each number with its
/// `data-metric` key (so scripts and tests find a number by key and read it as text), the
/// user ids that link to their user sheet (the live feed's), a section's chart and its flag.
enum SectionCell {
    /// The inner HTML of `cell`, or `nil` for a cell kind the dashboard does not draw itself.
    @Sendable static func html(_ cell: Cell) -> String? {
        switch cell.kind.identifier {
        case "title":
            return "<h2>\(HTMLText.escape(cell["title"] ?? ""))</h2>"
        case "metric":
            var html = "<span class=\"label\">\(HTMLText.escape(cell["label"] ?? ""))</span>"
            let value = cell["value"] ?? ""
            // A word (a breakdown's leading value) is set smaller than a number, so it fits whole.
            let isWord = cell["style"] == "word"
            html +=
                "<span class=\"value\(isWord ? " word" : "")\"\(number(value)) data-metric=\"\(HTMLText.escape(cell["key"] ?? ""))\">\(HTMLText.escape(value))</span>"
            let href = cell["href"] ?? ""
            if let user = cell["user"], !user.isEmpty, let link = cell["userHref"], !link.isEmpty, href.isEmpty {
                // The user's id, linked to their user sheet (a cell that is a link itself holds no other).
                let id = HTMLText.escape(user)
                html +=
                    "<a class=\"detail user-link\" href=\"\(HTMLText.escape(link))\" data-event=\"sheet\" data-value=\"user:\(id)\" title=\"\(id)\">\(id)</a>"
            } else if let detail = cell["detail"], !detail.isEmpty {
                html += "<span class=\"detail\">\(HTMLText.escape(detail))</span>"
            }
            html += pathsLink(cell)
            guard !href.isEmpty else { return html }
            let key = HTMLText.escape(cell["key"] ?? "")
            return "<a class=\"metric\" href=\"\(HTMLText.escape(href))\" data-event=\"sheet\" data-value=\"metric:\(key)\">\(html)</a>"
        case "chart":
            // Made by TrendChart, which escapes its texts.
            return cell["html"]
        case "step":
            let share = cell["share"].flatMap(Double.init) ?? 0
            return "<span class=\"label\">\(HTMLText.escape(cell["label"] ?? ""))</span>"
                + "<span class=\"value\"\(number(cell["value"] ?? "")) data-metric=\"\(HTMLText.escape(cell["key"] ?? ""))\">\(HTMLText.escape(cell["value"] ?? ""))</span>"
                + FunnelView.bar(share) + "<span class=\"detail\">\(HTMLText.escape(cell["detail"] ?? ""))</span>"
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
