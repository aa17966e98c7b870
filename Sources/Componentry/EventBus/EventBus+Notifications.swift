public import Foundation

/// A `Notification` delivered through an ``EventBus``.
///
/// `Notification` itself is not `Sendable`, so the bus copies what can cross threads:
/// the name, and the `userInfo` entries with string keys. Values of common `Sendable`
/// property-list types are kept as they are; any other value is kept as its description.
public struct NotificationEvent: BusEvent {
    /// The notification's name.
    public let name: Notification.Name
    /// The notification's `userInfo`, as described above.
    public let userInfo: [String: any Sendable]

    public var subType: String? { name.rawValue }

    init(_ notification: Notification) {
        name = notification.name
        var info: [String: any Sendable] = [:]
        for case (let key as String, let value) in notification.userInfo ?? [:] {
            info[key] = Self.sendable(value)
        }
        userInfo = info
    }

    private static func sendable(_ value: Any) -> any Sendable {
        switch value {
        case let value as String: value
        case let value as Int: value
        case let value as Double: value
        case let value as Bool: value
        case let value as Date: value
        case let value as Data: value
        case let value as URL: value
        case let value as UUID: value
        default: String(describing: value)
        }
    }
}

/// One NotificationCenter observer shared by every bus subscription to a name.
struct NotificationBridge {
    var subscribers: Int
    let observer: NotificationObserver
}

/// The token NotificationCenter returned; only ever passed back to it.
struct NotificationObserver: @unchecked Sendable {
    let token: any NSObjectProtocol
}

extension EventBus {
    /// Starts a subscription to notifications called `name`, posted on this bus's
    /// notification center.
    ///
    /// The bus observes each name with a single NotificationCenter observer, added with
    /// the first subscription and removed when the last one ends.
    ///
    /// ```swift
    /// bus.on(notification: .NSSystemClockDidChange).owner(self).handle { _ in refresh() }
    /// ```
    public func on(notification name: Notification.Name) -> SubscriptionBuilder<NotificationEvent> {
        var builder = on(NotificationEvent.self).subType(name.rawValue)
        builder.options.bridgedNotification = name.rawValue
        return builder
    }

    /// The number of NotificationCenter observers the bus holds: one per bridged name.
    public var bridgedNotificationCount: Int {
        bridges.withLock { $0.count }
    }

    /// Counts a new subscriber to `name`, observing it on the first; returns the hook that
    /// releases it.
    func acquireBridge(_ name: String) -> @Sendable () -> Void {
        bridges.withLock { bridges in
            if bridges[name] != nil {
                bridges[name]!.subscribers += 1
            } else {
                let token = notificationCenter.addObserver(
                    forName: Notification.Name(name), object: nil, queue: nil
                ) { [weak self] notification in
                    self?.post(NotificationEvent(notification))
                }
                bridges[name] = NotificationBridge(subscribers: 1, observer: NotificationObserver(token: token))
            }
        }
        return { [weak self] in self?.releaseBridge(name) }
    }

    private func releaseBridge(_ name: String) {
        bridges.withLock { bridges in
            guard let bridge = bridges[name] else { return }
            if bridge.subscribers > 1 {
                bridges[name]!.subscribers -= 1
            } else {
                notificationCenter.removeObserver(bridge.observer.token)
                bridges[name] = nil
            }
        }
    }
}
