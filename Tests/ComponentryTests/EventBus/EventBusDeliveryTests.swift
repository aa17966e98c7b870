import Componentry
import Testing

@Suite("EventBus delivery")
struct EventBusDeliveryTests {
    let bus = EventBus()

    @Test func typedEventReachesSubscriberBeforePostReturns() {
        let seen = Recorder<String>()
        bus.on(LoginEvent.self).handle { seen.append($0.userID) }
        bus.post(LoginEvent(userID: "42"))
        #expect(seen.values == ["42"])
    }

    @Test func otherEventTypesAreNotDelivered() {
        let seen = Recorder<Int>()
        bus.on(Tick.self).handle { seen.append($0.value) }
        bus.post(LoginEvent(userID: "1"))
        #expect(seen.values.isEmpty)
    }

    @Test func subTypeFilterSelectsOneOrSeveral() {
        let expenses = Recorder<Double>()
        let either = Recorder<Double>()
        let all = Recorder<Double>()
        bus.on(BillSaved.self).subType("expense").handle { expenses.append($0.amount) }
        bus.on(BillSaved.self).subTypes(["expense", "income"]).handle { either.append($0.amount) }
        bus.on(BillSaved.self).handle { all.append($0.amount) }

        bus.post(BillSaved(amount: 1, kind: "expense"))
        bus.post(BillSaved(amount: 2, kind: "income"))
        bus.post(BillSaved(amount: 3, kind: "transfer"))
        bus.post(BillSaved(amount: 4))

        #expect(expenses.values == [1])
        #expect(either.values == [1, 2])
        #expect(all.values == [1, 2, 3, 4])
    }

    @Test func namedEventsCarryTheirPayload() {
        let amounts = Recorder<Double>()
        bus.on(named: "bill.created").handle { event in
            if let amount = event["amount", as: Double.self] { amounts.append(amount) }
        }
        bus.post(named: "bill.created", payload: ["amount": 12.5])
        bus.post(named: "bill.deleted", payload: ["amount": 99.0])
        #expect(amounts.values == [12.5])
    }

    @Test func priorityThenRegistrationOrder() {
        let order = Recorder<String>()
        bus.on(Tick.self).handle { _ in order.append("a0") }
        bus.on(Tick.self).priority(5).handle { _ in order.append("b5") }
        bus.on(Tick.self).priority(-1).handle { _ in order.append("c-1") }
        bus.on(Tick.self).handle { _ in order.append("d0") }
        bus.on(Tick.self).priority(5).handle { _ in order.append("e5") }
        bus.post(Tick(value: 0))
        #expect(order.values == ["b5", "e5", "a0", "d0", "c-1"])
    }

    @Test func subscriptionIDsIncrease() {
        let ids = (0..<100).map { _ in bus.on(Tick.self).handle { _ in }.id }
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
    }

    @Test func postFromHandlerIsDeliveredDepthFirst() {
        let order = Recorder<String>()
        bus.on(Tick.self).handle { [bus] tick in
            order.append("first \(tick.value)")
            if tick.value == 1 { bus.post(Tick(value: 2)) }
        }
        bus.on(Tick.self).handle { tick in order.append("second \(tick.value)") }
        bus.post(Tick(value: 1))
        #expect(order.values == ["first 1", "first 2", "second 2", "second 1"])
    }

    @Test func subscriptionMadeInHandlerMissesTheCurrentEvent() {
        let late = Recorder<Int>()
        let once = Counter()
        bus.on(Tick.self).handle { [bus] _ in
            guard once.count == 0 else { return }
            once.increment()
            bus.on(Tick.self).handle { late.append($0.value) }
        }
        bus.post(Tick(value: 1))
        bus.post(Tick(value: 2))
        #expect(late.values == [2])
    }

    @Test func subscriptionDisposedInHandlerIsSkippedInTheSamePost() {
        let seen = Recorder<String>()
        let later = Recorder<Subscription>()
        bus.on(Tick.self).handle { _ in
            seen.append("first")
            later.values.first?.dispose()
        }
        later.append(bus.on(Tick.self).handle { _ in seen.append("second") })
        bus.post(Tick(value: 1))
        bus.post(Tick(value: 2))
        #expect(seen.values == ["first", "first"])
    }

    @Test func handlerMayDisposeItself() {
        let seen = Recorder<Int>()
        let slot = Recorder<Subscription>()
        slot.append(
            bus.on(Tick.self).handle { tick in
                seen.append(tick.value)
                slot.values.first?.dispose()
            })
        bus.post(Tick(value: 1))
        bus.post(Tick(value: 2))
        #expect(seen.values == [1])
    }

    @Test func classEventsAreDeliveredByIdentity() {
        final class Snapshot: BusEvent {
            let total: Int
            init(total: Int) { self.total = total }
        }
        let event = Snapshot(total: 3)
        let seen = Recorder<Snapshot>()
        bus.on(Snapshot.self).handle { seen.append($0) }
        bus.post(event)
        #expect(seen.values.first === event)
    }
}
