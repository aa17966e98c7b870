import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TallyStore

/// `GET /apps/{id}/users/{user}/data` and `POST /apps/{id}/users/{user}/delete`: one user's
/// data, for the app's owners only. `{user}` is the user's id, percent-encoded UTF-8.
///
/// A user without a role in the app gets the answer about an app that does not exist (404);
/// a viewer or an editor gets 403. The export is the NDJSON of
/// ``TallyStore/EventStore/exportUserData(app:user:into:)``, streamed; the deletion takes the form's
/// `csrf` field (the page's CSRF token) and answers with a redirect to the app's page.
struct UserDataRoutes: Sendable {
    let server: DashboardServer

    /// The longest `{user}` read, percent-encoded.
    static let maximumUserBytes = 3 * 1_024

    func add(to router: Router<DashboardRequestContext>) {
        router.get("/apps/:id/users/:user/data") { request, context in
            let (app, user, _) = try await owned(request, context: context)
            guard try await server.store.userData.contains(app: app.id, user: user) else {
                throw HTTPError(.notFound, message: "No such user in this app.")
            }
            let store = server.store
            return Response(
                status: .ok,
                headers: [
                    .contentType: "application/x-ndjson; charset=utf-8",
                    .contentDisposition: "attachment; filename=\"user-data-app-\(app.id.rawValue).ndjson\"",
                ],
                // Streamed a page of events at a time: a user of millions of events is never
                // held whole. A deletion between the check and the end cuts the answer short.
                body: ResponseBody { writer in
                    _ = try await store.userData.export(app: app.id, user: user) { try await writer.write(ByteBuffer(bytes: $0)) }
                    try await writer.finish(nil)
                })
        }
        router.post("/apps/:id/users/:user/delete") { request, context in
            guard let session = try await server.session(of: request) else { throw HTTPError(.unauthorized, message: "Sign in first.") }
            guard let form = try? await SignInRoutes.decode(DeleteForm.self, request, context: context),
                server.cookies.isValidCSRF(form.csrf, for: request)
            else { throw HTTPError(.forbidden, message: "The form is out of date: reload the page and try again.") }
            let (app, user, _) = try await owned(request, context: context, session: session)
            do {
                _ = try await server.store.userData.delete(app: app.id, user: user, by: session.user.name)
            } catch TallyStoreError.Code.unknownAppUser {
                throw HTTPError(.notFound, message: "No such user in this app.")
            }
            return Response.redirect(to: "/apps/\(app.id.rawValue)", type: .normal)
        }
    }

    /// What the deletion's form posts.
    private struct DeleteForm: Decodable {
        var csrf: String
    }

    /// The app and the user a request names, for a signed-in owner of the app.
    ///
    /// - Throws: 401 without a session; 404 for an app that does not exist or in which the
    ///   user has no role (the same answer); 403 for a viewer or an editor; 400 for a user id
    ///   that is not percent-encoded UTF-8 of at most a kilobyte.
    private func owned(
        _ request: Request, context: DashboardRequestContext, session known: DashboardSession? = nil
    ) async throws -> (App, String, DashboardSession) {
        var session = known
        if session == nil { session = try await server.session(of: request) }
        guard let session else { throw HTTPError(.unauthorized, message: "Sign in first.") }
        guard let id = context.parameters.get("id", as: Int64.self),
            let role = try await server.store.members.role(of: session.user.id, in: AppID(rawValue: id)),
            let app = try await server.store.apps.app(id: AppID(rawValue: id))
        else { throw HTTPError(.notFound, message: "No such app.") }
        guard role.canManageUserData else { throw HTTPError(.forbidden, message: "Only the app's owners may export or delete a user's data.") }
        guard let raw = context.parameters.get("user"), raw.utf8.count <= Self.maximumUserBytes, let user = raw.removingPercentEncoding,
            !user.isEmpty
        else { throw HTTPError(.badRequest, message: "The user id must be percent-encoded UTF-8 of at most 1,024 bytes.") }
        return (app, user, session)
    }
}
