import TallyStore

extension AppStore {
    /// The app `reference` names: its id, else its name, which must name one app.
    ///
    /// - Throws: ``MembershipError`` when no app, or more than one, answers to `reference`.
    func app(named reference: String) async throws -> App {
        if let id = Int64(reference), let app = try await app(id: AppID(rawValue: id)) { return app }
        let named = try await all().filter { $0.name == reference }
        guard named.count <= 1 else {
            throw MembershipError(description: "\(named.count) apps are named \"\(reference)\": name the app by its id")
        }
        guard let app = named.first else { throw MembershipError(description: "no app has the id or name \"\(reference)\"") }
        return app
    }
}

extension AccountStore {
    /// The dashboard user named exactly `name`.
    ///
    /// - Throws: ``MembershipError`` when there is none.
    func dashboardUser(named name: String) async throws -> DashboardUser {
        guard let found = try await account(named: name) else { throw MembershipError(description: "no dashboard user is named \"\(name)\"") }
        return found.user
    }
}
