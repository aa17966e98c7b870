import ComponentryList

/// The HTML inside the dashboard's cells: the section title, and each number with its
/// `data-metric` key, so scripts and tests find a number by key and read it as text.
enum SectionCell {
    /// The inner HTML of `cell`, or `nil` for a cell kind the dashboard does not draw itself.
    @Sendable static func html(_ cell: Cell) -> String? {
        switch cell.kind.identifier {
        case "title":
            return "<h2>\(HTMLText.escape(cell["title"] ?? ""))</h2>"
        case "metric":
            var html = "<span class=\"label\">\(HTMLText.escape(cell["label"] ?? ""))</span>"
            html += "<span class=\"value\" data-metric=\"\(HTMLText.escape(cell["key"] ?? ""))\">\(HTMLText.escape(cell["value"] ?? ""))</span>"
            if let detail = cell["detail"], !detail.isEmpty {
                html += "<span class=\"detail\">\(HTMLText.escape(detail))</span>"
            }
            return html
        default:
            return nil
        }
    }
}
