public import Foundation

/// An object that can own subscriptions: conforming gives it short call sites that make
/// `self` the owner, so the subscription ends when the object is deallocated.
///
/// Every `NSObject` conforms; any other class opts in with an empty extension.
///
/// ```swift
/// extension BillListModel: LifetimeOwner {}
///
/// subscribe(to: BillCreated.self).handle { list, bill in list.refresh(bill) }
/// ```
///
/// Handlers of owned subscriptions and observations get the owner as their first
/// parameter, so they need not capture `self`, and capturing it strongly would keep it
/// alive for as long as the subscription — that is, forever.
public protocol LifetimeOwner: AnyObject {}

extension LifetimeOwner {
    /// Starts a subscription on `bus` owned by `self`: it ends when `self` is deallocated,
    /// and its handler gets `self` as its first parameter.
    public func subscribe<Event: BusEvent>(
        to type: Event.Type, on bus: EventBus = .shared
    ) -> OwnedSubscriptionBuilder<Self, Event> {
        bus.on(type).owner(self)
    }
}

extension NSObject: LifetimeOwner {}
