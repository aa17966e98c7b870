import Componentry
import Testing

@Suite("EventBus as an AsyncSequence")
struct EventBusAsyncSequenceTests {
    let bus = EventBus()

    @Test func forAwaitReceivesPostedEventsInOrder() async {
        let stream = bus.events(of: Tick.self)
        for value in 0..<5 { bus.post(Tick(value: value)) }
        var received: [Int] = []
        for await tick in stream {
            received.append(tick.value)
            if received.count == 5 { break }
        }
        #expect(received == [0, 1, 2, 3, 4])
    }

    @Test func cancellingTheLoopEndsTheSubscription() async {
        let bus = bus
        let task = Task {
            var count = 0
            for await _ in bus.events(of: Tick.self) { count += 1 }
            return count
        }
        while bus.subscriberCount(Tick.self) == 0 { await Task.yield() }
        bus.post(Tick(value: 1))
        task.cancel()
        _ = await task.value
        #expect(bus.subscriberCount(Tick.self) == 0)
    }

    @Test func subTypeFilterApplies() async {
        let stream = bus.events(of: BillSaved.self, subTypes: ["income"])
        bus.post(BillSaved(amount: 1, kind: "expense"))
        bus.post(BillSaved(amount: 2, kind: "income"))
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next()?.amount == 2)
    }
}
