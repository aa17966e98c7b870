import Componentry
import Foundation
import Testing

@Suite("EventBus NotificationCenter bridge")
struct EventBusNotificationTests {
    let center = NotificationCenter()
    let bus: EventBus
    let name = Notification.Name("test.bill.saved")

    init() {
        bus = EventBus(notificationCenter: center)
    }

    @Test func notificationsArriveThroughTheBus() {
        let seen = Recorder<Int>()
        bus.on(notification: name).handle { event in
            if let count = event.userInfo["count"] as? Int { seen.append(count) }
        }
        center.post(name: name, object: nil, userInfo: ["count": 3, 7: "ignored"])
        center.post(name: Notification.Name("other"), object: nil)
        #expect(seen.values == [3])
    }

    @Test func oneObserverPerNameRemovedWithTheLastSubscriber() {
        let seen = Counter()
        let first = bus.on(notification: name).handle { _ in seen.increment() }
        let second = bus.on(notification: name).handle { _ in seen.increment() }
        let other = bus.on(notification: .init("test.other")).handle { _ in }
        #expect(bus.bridgedNotificationCount == 2)

        center.post(name: name, object: nil)
        #expect(seen.count == 2)  // one observer, delivered to both subscribers

        first.dispose()
        #expect(bus.bridgedNotificationCount == 2)
        second.dispose()
        #expect(bus.bridgedNotificationCount == 1)
        center.post(name: name, object: nil)
        #expect(seen.count == 2)
        other.dispose()
        #expect(bus.bridgedNotificationCount == 0)
    }

    @Test func ownerDeathReleasesTheObserver() {
        var owner: Owner? = Owner()
        bus.on(notification: name).owner(owner!).handle { _, _ in }
        #expect(bus.bridgedNotificationCount == 1)
        owner = nil
        center.post(name: name, object: nil)  // finds the dead owner and purges it
        #expect(bus.bridgedNotificationCount == 0)
    }

    @Test func userInfoValuesThatAreNotSendableArriveAsDescriptions() {
        final class Opaque: CustomStringConvertible { var description: String { "opaque" } }
        let seen = Recorder<String>()
        bus.on(notification: name).handle { event in
            if let text = event.userInfo["value"] as? String { seen.append(text) }
        }
        center.post(name: name, object: nil, userInfo: ["value": Opaque()])
        #expect(seen.values == ["opaque"])
    }
}
