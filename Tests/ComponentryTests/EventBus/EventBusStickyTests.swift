import Componentry
import Testing

@Suite("EventBus sticky events")
struct EventBusStickyTests {
    let bus = EventBus()

    @Test func lateSubscriberAskingForStickyGetsTheLastOne() {
        bus.postSticky(LoginEvent(userID: "1"))
        bus.postSticky(LoginEvent(userID: "2"))
        let asking = Recorder<String>()
        let notAsking = Recorder<String>()
        bus.on(LoginEvent.self).replayingSticky().handle { asking.append($0.userID) }
        bus.on(LoginEvent.self).handle { notAsking.append($0.userID) }
        #expect(asking.values == ["2"])
        #expect(notAsking.values.isEmpty)
        #expect(bus.sticky(LoginEvent.self)?.userID == "2")
    }

    @Test func stickyIsKeptPerSubType() {
        bus.postSticky(BillSaved(amount: 1, kind: "expense"))
        bus.postSticky(BillSaved(amount: 2, kind: "income"))
        bus.postSticky(BillSaved(amount: 3, kind: "expense"))
        let expenses = Recorder<Double>()
        let all = Recorder<Double>()
        bus.on(BillSaved.self).subType("expense").replayingSticky().handle { expenses.append($0.amount) }
        bus.on(BillSaved.self).replayingSticky().handle { all.append($0.amount) }
        #expect(expenses.values == [3])
        #expect(all.values == [2, 3])
        #expect(bus.sticky(BillSaved.self, subType: "income")?.amount == 2)
    }

    @Test func removedStickyIsNotReplayed() {
        bus.postSticky(BillSaved(amount: 1, kind: "expense"))
        bus.postSticky(BillSaved(amount: 2, kind: "income"))
        bus.removeSticky(BillSaved.self, subType: "expense")
        #expect(bus.sticky(BillSaved.self, subType: "expense") == nil)
        #expect(bus.sticky(BillSaved.self, subType: "income") != nil)
        bus.removeAllSticky(BillSaved.self)
        let seen = Recorder<Double>()
        bus.on(BillSaved.self).replayingSticky().handle { seen.append($0.amount) }
        #expect(seen.values.isEmpty)
    }

    @Test func stickyPostIsAlsoDeliveredToCurrentSubscribers() {
        let seen = Recorder<String>()
        bus.on(LoginEvent.self).handle { seen.append($0.userID) }
        bus.postSticky(LoginEvent(userID: "9"))
        #expect(seen.values == ["9"])
    }
}
