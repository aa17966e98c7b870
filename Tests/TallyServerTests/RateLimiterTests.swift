import Foundation
import TallyStore
import Testing
@testable import TallyServer

@Suite struct RateLimiterTests {
    /// The wait is computed in floating point from the configured rate; however small the
    /// rate, it converts to a `Retry-After` of at most a day instead of overflowing `Int`.
    @Test(arguments: [1e-300, 1e-9, 0.5] as [Double])
    func aTinyRateAsksForABoundedWait(eventsPerSecond: Double) {
        let limiter = RateLimiter(limit: RateLimit(eventsPerSecond: eventsPerSecond, burst: 10))
        let app = AppID(rawValue: 1)
        let now = Date()
        #expect(limiter.take(10, for: app, at: now) == nil)
        let wait = limiter.take(1_000_000, for: app, at: now)
        #expect(wait.map { (1...Int(RateLimiter.maximumWait)).contains($0) } == true)
    }
}
