public import Foundation

/// An object that can own subscriptions: conforming gives it short call sites that make
/// `self` the owner, so the subscription ends when the object is deallocated.
///
/// Every `NSObject` conforms; any other class opts in with an empty extension.
///
/// ```swift
/// extension BillListModel: LifetimeOwner {}
///
/// subscribe(to: BillCreated.self).handle { bill in print(bill.amount) }
/// ```
public protocol LifetimeOwner: AnyObject {}

extension LifetimeOwner {
    /// Starts a subscription on `bus` owned by `self`.
    public func subscribe<Event: BusEvent>(
        to type: Event.Type, on bus: EventBus = .shared
    ) -> SubscriptionBuilder<Event> {
        bus.on(type).owner(self)
    }
}

extension NSObject: LifetimeOwner {}
