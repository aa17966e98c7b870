import Componentry
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TallyEvent
import TallyHTTP
import TallyStore

/// `GET /`, `GET /apps/{id}` and `GET /apps/{id}/metrics/{key}.csv`.
struct PageRoutes: Sendable {
    let server: DashboardServer

    func add(to router: Router<DashboardRequestContext>) {
        router.get("/") { request, _ in
            guard let session = try await server.session(of: request) else { return Response.redirect(to: "/login", type: .found) }
            guard let app = try await server.store.members.apps(visibleTo: session.user.id).first else {
                return .html(DashboardViews.render("no-apps", [:]))
            }
            return Response.redirect(to: "/apps/\(app.id.rawValue)", type: .found)
        }
        router.get("/apps/:id") { request, context in
            guard let session = try await server.session(of: request) else { return Response.redirect(to: "/login", type: .found) }
            let (app, role, query, notice) = try await server.page(request, context: context, user: session.user.id)
            let page = await server.makePage(app: app, role: role, query: query, user: session.user.id, filterNotice: notice)
            await page.refresh()
            let (csrf, isNew) = server.cookies.csrfToken(of: request)
            var response = await Response.html(styleNonce: { await page.document(csrf: csrf, styleNonce: $0) })
            if isNew { response.setCookie(server.cookies.csrf(csrf)) }
            return response
        }
        router.get("/apps/:id/metrics/:file") { request, context in
            guard let session = try await server.session(of: request) else { throw HTTPError(.unauthorized, message: "Sign in first.") }
            let (app, _, query, notice) = try await server.page(request, context: context, user: session.user.id)
            // A download has no page to say that its filter was left out: it is refused instead.
            if let problem = notice ?? DashboardPage.filterProblem(query.filter, app: app) {
                throw HTTPError(.badRequest, message: "filters: \(problem)")
            }
            guard let file = context.parameters.get("file"), file.hasSuffix(".csv") else { throw HTTPError(.notFound) }
            let key = String(file.dropLast(4))
            let report = try await server.reads.run(.user(session.user.id, in: app.id)) { [store = server.store, layout = server.layout] in
                try await DayReport.load(from: store, app: app.id, layout: layout, query: query)
            }
            guard let series = MetricSeries(key: key, layout: server.layout, report: report, query: query) else {
                throw HTTPError(.notFound, message: "No daily series for the metric \(key.prefix(64)).")
            }
            return Response(
                status: .ok,
                headers: [
                    .contentType: "text/csv; charset=utf-8",
                    .contentDisposition:
                        "attachment; filename=\"\(key.filter { $0.isLetter || $0.isNumber || $0 == "_" })-\(query.from)-\(query.date).csv\"",
                ],
                body: ResponseBody(byteBuffer: ByteBuffer(string: series.csv)))
        }
    }
}

extension DashboardServer {
    /// The app a page request names with `user`'s role in it, the query, and why its filter
    /// was left out if it does not read (the page then shows every event and says so).
    ///
    /// - Throws: a 404 for an app that does not exist or in which `user` has no role: the
    ///   same answer, so a user learns nothing of the apps they may not see; a 400 naming
    ///   another bad parameter.
    func page(
        _ request: Request, context: DashboardRequestContext, user: DashboardUserID
    ) async throws -> (App, AppRole, PageQuery, filterNotice: String?) {
        guard let id = context.parameters.get("id", as: Int64.self), let role = try await store.members.role(of: user, in: AppID(rawValue: id)),
            let app = try await store.apps.app(id: AppID(rawValue: id))
        else { throw HTTPError(.notFound, message: "No such app.") }
        var parameters: [String: String] = [:]
        for (name, value) in request.uri.queryParameters where parameters[String(name)] == nil {
            parameters[String(name)] = String(value)
        }
        let today = CalendarDay(Date(), in: TimeZone(identifier: parameters["tz"] ?? app.timeZone) ?? .gmt)
        do {
            let (query, ignored) = try PageQuery.reading(parameters, today: today)
            return (app, role, query, ignored)
        } catch {
            throw HTTPError(.badRequest, message: error.description)
        }
    }

    /// A page of `app` for `user`, whose role in it is `role`, in the user's saved section
    /// order, saving the order when the user changes it; its filter bar lists the app's saved
    /// segments and says `filterNotice`, and its header links the other apps the user may open.
    func makePage(app: App, role: AppRole, query: PageQuery, user: DashboardUserID, filterNotice: String? = nil) async -> DashboardPage {
        let saved = try? await store.accounts.sectionLayout(user: user, app: app.id).flatMap {
            try JSONDecoder().decode(ComponentOrder.self, from: $0)
        }
        // A read that fails leaves the list empty: the page works without it.
        let segments = (try? await store.segments.saved(app: app.id)) ?? []
        let apps = (try? await store.members.apps(visibleTo: user)) ?? []
        return await MainActor.run { [store, layout, channel, allowsPrivateWebhooks, reads, sheetReads, liveSheetInterval] in
            let page = DashboardPage(
                app: app, layout: layout, query: query, order: saved, store: store, channel: channel, savedSegments: segments,
                filterNotice: filterNotice, role: role)
            page.reads = PageReads(admission: reads, user: user, app: app.id, sheets: sheetReads, liveSheetInterval: liveSheetInterval)
            page.apps = apps
            page.allowsPrivateWebhooks = allowsPrivateWebhooks
            // Saves run one after another, so the last order chosen is the one kept.
            var saving: Task<Void, Never>?
            page.orderDidChange = { order in
                guard let data = try? JSONEncoder().encode(order) else { return }
                saving = Task { [previous = saving] in
                    await previous?.value
                    try? await store.accounts.saveSectionLayout(data, user: user, app: app.id)
                }
            }
            return page
        }
    }
}
