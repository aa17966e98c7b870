import Foundation
import Testing

@testable import Componentry

@Suite("Delivery threads")
struct DeliveryThreadTests {
    /// Every thread that delivers gets a record that `dispose()` reads; a server makes and
    /// ends threads for as long as it lives, so records of exited threads must be reused.
    @Test func recordsOfExitedThreadsAreReusedSoTheirCountStaysBounded() async {
        let bus = EventBus()
        bus.on(Tick.self).handle { _ in }
        var most = 0
        for _ in 0..<1_000 {
            await runOnThread { bus.post(Tick(value: 1)) }
            most = max(most, DeliveryThread.all.count)
        }
        // The threads of this test ran one at a time; other tests may deliver meanwhile.
        #expect(most <= 64)
    }
}
