import Foundation
public import TallyStore

extension DashboardPage {
    /// Gives the dashboard user named `name` the role `role` in the page's app, or changes
    /// their role, then shows the members again. Refused, with a message to the browser and
    /// nothing changed, unless the page's user is an owner; so are an unknown name and a
    /// change that would leave the app without an owner.
    public func setRole(_ role: AppRole, ofMemberNamed name: String) async {
        guard let store, mayManageMembers("add-member") else { return }
        do {
            guard let user = try await store.accounts.account(named: name)?.user else {
                send(PageMessage(error: "No dashboard user is named \u{201C}\(name.prefix(DashboardUser.maximumNameLength))\u{201D}."))
                return
            }
            try await store.members.setRole(role, of: user.id, in: app.id)
        } catch {
            send(PageMessage(error: Self.memberRefusal(error)))
            return
        }
        await readMembers()
    }

    /// Removes the member named `name` from the page's app, then shows the members again.
    /// Refused as ``setRole(_:ofMemberNamed:)`` is; the app's last owner is not removed.
    public func removeMember(named name: String) async {
        guard let store, mayManageMembers("remove-member") else { return }
        do {
            guard let user = try await store.accounts.account(named: name)?.user, try await store.members.remove(user.id, from: app.id) != nil else {
                send(PageMessage(error: "\u{201C}\(name.prefix(DashboardUser.maximumNameLength))\u{201D} is not a member of this app."))
                return
            }
        } catch {
            send(PageMessage(error: Self.memberRefusal(error)))
            return
        }
        await readMembers()
    }

    /// Whether the page's user may manage the app's members; tells the browser when not.
    private func mayManageMembers(_ event: String) -> Bool {
        guard role.canManageMembers else {
            send(PageMessage(error: BrowserEventError.notAllowed(event, role: role).description))
            return false
        }
        return true
    }

    /// Reads the app's members again and redraws the members sheet.
    private func readMembers() async {
        guard await loadSheetData(force: true) else { return }
        send(PageMessage(patches: refreshSheet()))
    }

    /// What the browser is told when the store refused a change of the members.
    private static func memberRefusal(_ error: any Error) -> String {
        (error as? TallyStoreError)?.description ?? "The members could not be changed: \(error)"
    }
}
