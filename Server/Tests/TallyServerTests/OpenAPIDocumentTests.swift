import Foundation
import Hummingbird
import TallyServerTesting
import Testing

/// `GET /openapi.json` describes every route of the collector, and nothing else: adding a
/// route without documenting it fails here. (CI also validates the document and runs
/// schemathesis against a live server, which checks the answers against it.)
@Suite("OpenAPI document")
struct OpenAPIDocumentTests {
    @Test func theDocumentNamesEveryRouteOfTheRouterAndNoOther() async throws {
        try await LiveServer.with { server in
            let response = try await server.request("/openapi.json")
            #expect(response.status == 200)
            let document = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            var documented: Set<String> = []
            for (path, operations) in paths {
                for method in operations.keys { documented.insert("\(method.uppercased()) \(Self.normalized(path))") }
            }
            let router = Router()
            server.server.addRoutes(to: router)
            let routed = Set(
                router.routes.map { route in
                    let (method, path) = (route.method.rawValue, route.path.description)
                    return "\(method) \(Self.normalized(path))"
                })
            #expect(routed.subtracting(documented).isEmpty, "routes the document lacks: \(routed.subtracting(documented).sorted())")
            #expect(documented.subtracting(routed).isEmpty, "documented routes the router lacks: \(documented.subtracting(routed).sorted())")
        }
    }

    /// `path` without a trailing slash, as the router matches it either way.
    static func normalized(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }
}
