import Foundation
import TallyEvent
import TallyServerTesting
import TallyStore
import Testing

@testable import TallyHTTP
@testable import TallyServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `GET /metrics`: what `tally serve` reports in Prometheus' format, and who may read it.
@Suite("GET /metrics")
struct TelemetryExpositionTests {
    @Test func tallyServeReportsIngestOutcomesGroupCommitsAndDiskWaits() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-metrics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("tally.sqlite").path
        let app = try await EventStore(path: db).apps.create(name: "Metrics")
        let server = try await ChildProcess("tally", ["serve", "--port", "0", "--db", db])
        let base = "http://127.0.0.1:\(try await server.listeningPort())"

        func post(_ path: String, _ body: Any, headers: [String: String]) async throws -> Int {
            var request = URLRequest(url: URL(string: base + path)!)
            request.httpMethod = "POST"
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            return (try await URLSession.shared.data(for: request).1 as? HTTPURLResponse)?.statusCode ?? 0
        }
        let events = [Batch.event(), Batch.event(), Batch.event(["name": ""])]
        #expect(
            try await post("/v1/events", ["sent_at": Date().formatted(Batch.iso), "events": events], headers: ["X-App-Key": app.ingestKey]) == 200)
        #expect(try await post("/v1/events", ["sent_at": Date().formatted(Batch.iso), "events": events], headers: ["X-App-Key": "ik_wrong"]) == 401)
        let segment = ["batch": [["type": "track", "event": "a", "userId": "u"], ["type": "track", "event": "b", "userId": "u"]]]
        #expect(try await post("/v1/batch", segment, headers: ["Authorization": basic(app.ingestKey)]) == 200)

        let (body, response) = try await URLSession.shared.data(from: URL(string: base + "/metrics")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        let samples = Self.samples(String(decoding: body, as: UTF8.self))
        #expect(samples[#"tally_ingest_events_total{outcome="accepted"}"#] == 4)
        #expect(samples[#"tally_ingest_events_total{outcome="rejected"}"#] == 1)
        #expect(samples[#"tally_ingest_rejections_total{reason="invalid_name"}"#] == 1)
        #expect(samples[#"tally_ingest_requests_total{api="tally",status="200"}"#] == 1)
        #expect(samples[#"tally_ingest_requests_total{api="tally",status="401"}"#] == 1)
        #expect(samples[#"tally_ingest_requests_total{api="segment",status="200"}"#] == 1)
        // Two stored batches: two or fewer group commits, of 4 events in all, each made durable.
        #expect(samples["tally_group_commit_events_sum"] == 4)
        #expect((1...2).contains(samples["tally_group_commit_batches_count"] ?? 0))
        #expect((samples["tally_fsync_seconds_count"] ?? 0) >= 1)
        server.send(SIGTERM)
        #expect(try await server.exitStatus(within: .seconds(30)) == 0)
    }

    @Test func onlyClientsOnThisHostOrWithTheTokenMayRead() {
        let token = "metrics-token-0123456789"
        #expect(TelemetryExposition.allows(isLocal: true, authorization: nil, token: nil))
        #expect(!TelemetryExposition.allows(isLocal: false, authorization: nil, token: nil))
        #expect(!TelemetryExposition.allows(isLocal: false, authorization: "Bearer \(token)", token: nil))
        #expect(TelemetryExposition.allows(isLocal: false, authorization: "Bearer \(token)", token: token))
        #expect(!TelemetryExposition.allows(isLocal: false, authorization: "Bearer \(token)x", token: token))
        #expect(!TelemetryExposition.allows(isLocal: false, authorization: token, token: token))
        // With a token, a client on this host presents it too: a relay on the host that adds
        // no forwarding header makes every client look local.
        #expect(!TelemetryExposition.allows(isLocal: true, authorization: nil, token: token))
        #expect(TelemetryExposition.allows(isLocal: true, authorization: "Bearer \(token)", token: token))
        var configuration = ServerSettings()
        configuration.metricsToken = "short"
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
    }

    /// Behind a reverse proxy on this host every peer is loopback: a request the proxy
    /// forwards is not local, whether or not the proxy is configured as trusted, and one from
    /// this host itself is.
    @Test(arguments: [false, true])
    func requestsForwardedByAProxyOnThisHostAreNotLocal(proxyIsTrusted: Bool) async throws {
        var configuration = ServerSettings()
        if proxyIsTrusted { configuration.trustedProxies = try TrustedProxies(parsing: "127.0.0.1") }
        let statuses = try await LiveServer.with(configuration: configuration) { server in
            var statuses: [Int] = []
            for headers in [[:], ["X-Forwarded-For": "203.0.113.7"], ["Forwarded": "for=203.0.113.7"], ["X-Forwarded-For": "127.0.0.1"]] {
                var request = URLRequest(url: server.url.appendingPathComponent("metrics"))
                for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
                statuses.append((try await URLSession.shared.data(for: request).1 as? HTTPURLResponse)?.statusCode ?? 0)
            }
            return statuses
        }
        // A client that claims to be this host is believed only through a trusted proxy.
        #expect(statuses == [200, 401, 401, proxyIsTrusted ? 200 : 401])
    }

    /// The value of each sample line, `name{labels} value`, by its name and labels.
    static func samples(_ text: String) -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            samples[String(line[..<space])] = value
        }
        return samples
    }
}
