import TallyStore

/// The app's members, for its owners: each member's name and role, a form to change the
/// role, a button to remove the member, and a form that adds a dashboard user by name with
/// a role. The page reads the members (``DashboardPage/loadSheetData(force:)``) when the
/// sheet opens and after each change. To a user who is not an owner it shows no member.
@MainActor
struct MembersSheet {
    let page: DashboardPage

    var html: String {
        var values: [String: Any] = ["maximumNameLength": DashboardUser.maximumNameLength]
        if page.role.canManageMembers {
            values["owner"] = true
            func roles(_ selected: AppRole) -> [[String: Any]] {
                AppRole.allCases.reversed().map { ["value": $0.rawValue, "selected": $0 == selected] }
            }
            values["roles"] = roles(.viewer)
            if let members = page.viewModel.members {
                values["members"] = members.map { ["name": $0.user.name, "roles": roles($0.role)] }
            } else {
                values["message"] = "Reading the members…"
            }
        }
        return SheetTarget.frame("members", title: "Members", body: DashboardViews.render("members-sheet", values), page: page)
    }
}
