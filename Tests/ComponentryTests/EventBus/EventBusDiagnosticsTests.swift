import Componentry
import Testing

@Suite("EventBus diagnostics")
struct EventBusDiagnosticsTests {
    let bus = EventBus()

    @Test func countsPerKey() {
        bus.on(Tick.self).handle { _ in }
        bus.on(Tick.self).handle { _ in }
        bus.on(BillSaved.self).subTypes(["expense", "income"]).handle { _ in }
        let counts = bus.subscriberCounts
        #expect(counts[EventKey(Tick.self)] == 2)
        #expect(counts[EventKey(BillSaved.self, subType: "expense")] == 1)
        #expect(counts[EventKey(BillSaved.self, subType: "income")] == 1)
        #expect(bus.subscriberCount(BillSaved.self, subType: "expense") == 1)
        #expect(bus.subscriberCount(BillSaved.self) == 0)
    }

    @Test func unhandledEventsReachTheHook() {
        let unhandled = Recorder<String>()
        bus.unhandledEventHandler = { event in unhandled.append(String(describing: type(of: event))) }
        bus.post(Tick(value: 1))
        bus.on(Tick.self).handle { _ in }
        bus.post(Tick(value: 2))
        bus.post(LoginEvent(userID: "x"))
        #expect(unhandled.values == ["Tick", "LoginEvent"])
    }

    @Test func tracerSeesPostsAndDeliveries() {
        let trace = Recorder<BusTraceEntry>()
        bus.tracer = { trace.append($0) }
        let subscription = bus.on(BillSaved.self).handle { _ in }
        bus.post(BillSaved(amount: 1, kind: "expense"))
        bus.tracer = nil
        bus.post(BillSaved(amount: 2))
        let key = EventKey(BillSaved.self, subType: "expense")
        #expect(trace.values == [.posted(key, subscribers: 1), .delivered(key, subscription: subscription.id)])
        #expect(key.description.hasSuffix("BillSaved[expense]"))
    }
}
