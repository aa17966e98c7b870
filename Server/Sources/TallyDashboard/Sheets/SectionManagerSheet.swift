/// The section manager: every section in the user's order, each with buttons to move it
/// up or down and a box to hide it. The page saves the result per user.
@MainActor
struct SectionManagerSheet {
    let page: DashboardPage

    var html: String {
        let order = page.viewModel.order.value
        let ids = order.identifiers
        let rows: [[String: Any]] = ids.enumerated().compactMap { index, id in
            guard let section = page.viewModel.layout.section(id) else { return nil }
            return [
                "id": id, "title": section.title, "hidden": order.hidden.contains(id),
                "up": max(index - 1, 0), "down": min(index + 1, ids.count - 1), "first": index == 0, "last": index == ids.count - 1,
            ]
        }
        let body = DashboardViews.render("sections-sheet", ["sections": rows])
        return SheetTarget.frame("sections", title: "Sections", body: body, page: page)
    }
}
