import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TallyServerTesting
import TallyStore
import Testing

@testable import TallyHTTP
@testable import TallyServer

@Suite struct RateLimiterTests {
    /// The wait is computed in floating point from the configured rate; however small the
    /// rate, it converts to a `Retry-After` of at most a day instead of overflowing `Int`.
    @Test(arguments: [1e-300, 1e-9, 0.5] as [Double])
    func aTinyRateAsksForABoundedWait(eventsPerSecond: Double) {
        let limiter = RateLimiter<AppID>(limit: RateLimit(eventsPerSecond: eventsPerSecond, burst: 10))
        let app = AppID(rawValue: 1)
        let now = Date()
        #expect(limiter.take(10, for: app, at: now) == nil)
        let wait = limiter.take(1_000_000, for: app, at: now)
        #expect(wait.map { (1...Int(RateLimiter<AppID>.maximumWait)).contains($0) } == true)
    }

    /// Ever new addresses (a botnet, a scan of an IPv6 prefix) cannot grow the limiter past
    /// its capacity, whether their buckets have refilled or not.
    @Test(arguments: [0.001, 1_000_000] as [Double])
    func everNewAddressesKeepTheLimiterBounded(eventsPerSecond: Double) {
        let limiter = RateLimiter<String>(limit: RateLimit(eventsPerSecond: eventsPerSecond, burst: 10), capacity: 1_000)
        let start = Date()
        var largest = 0
        for round in 0..<100_000 {
            _ = limiter.take(5, for: "2001:db8::\(String(round, radix: 16))", at: start.addingTimeInterval(Double(round) / 1_000))
            largest = max(largest, limiter.count)
        }
        #expect(largest <= 1_000)
        #expect(limiter.count > 0)
    }

    /// A client address may send `addressRateLimit` events over all apps; another address,
    /// and a loopback one (a reverse proxy on the host), are not held up by it.
    @Test func oneAddressIsLimitedOverAllItsApps() async throws {
        var configuration = ServerSettings()
        configuration.rateLimit = nil
        configuration.addressRateLimit = RateLimit(eventsPerSecond: 0.001, burst: 10)
        try await LiveServer.with(configuration: configuration) { live in
            let first = try await live.makeApp()
            let second = try await live.makeApp()
            let router = Router(context: AddressedContext.self)
            router.add(middleware: AddressedContext.FromHeader())
            live.server.addRoutes(to: router)
            try await Application(router: router).test(.router) { (client: any TestClientProtocol) async throws in
                func post(_ count: Int, key: String, from address: String) async throws -> HTTPResponse.Status {
                    try await client.execute(
                        uri: "/v1/events", method: .post, headers: [HTTPField.Name("X-App-Key")!: key, AddressedContext.address: address],
                        body: ByteBuffer(data: Batch.body((0..<count).map { _ in Batch.event() }))
                    ).status
                }
                #expect(try await post(10, key: first.ingestKey, from: "203.0.113.7") == .ok)
                #expect(try await post(1, key: second.ingestKey, from: "203.0.113.7") == .tooManyRequests)
                #expect(try await post(10, key: second.ingestKey, from: "198.51.100.1") == .ok)
                for _ in 0..<3 { #expect(try await post(10, key: first.ingestKey, from: "127.0.0.1") == .ok) }
            }
        }
    }
}

/// A request context whose client address is the test's `X-Test-Address` header.
private struct AddressedContext: RequestContext, RemoteAddressRequestContext {
    static let address = HTTPField.Name("X-Test-Address")!
    var coreContext: CoreRequestContextStorage
    var remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    /// Sets the context's address from the header.
    struct FromHeader: RouterMiddleware {
        func handle(_ request: Request, context: AddressedContext, next: (Request, AddressedContext) async throws -> Response) async throws
            -> Response
        {
            var context = context
            context.remoteAddress = try request.headers[AddressedContext.address].map { try SocketAddress(ipAddress: $0, port: 4_000) }
            return try await next(request, context)
        }
    }
}
