import Componentry
import Dispatch
import Foundation

extension SyncType<String> {
    static var account: Self { Self("account") }
    static var article: Self { Self("article") }
}

extension SyncType<Int> {
    static var invoice: Self { Self("invoice") }
}

extension SyncKey<Bool> {
    static var starred: Self { Self("starred") }
    static var paid: Self { Self("paid") }
}

extension SyncKey<Int> {
    static var likes: Self { Self("likes") }
}

/// A list row: binds each key to the property of the same name.
final class AccountRow: Syncable, Decodable {
    static let syncType = SyncType.account
    let id: String
    let membership = SyncMembership()
    @Synced var starred = false
    @Synced var likes = 0

    private enum CodingKeys: String, CodingKey {
        case id, starred, likes
    }

    static func registerSyncKeys(in keys: inout SyncKeyMap<AccountRow>) {
        keys.bind(.starred, to: \.starred)
        keys.bind(.likes, to: \.likes)
    }

    init(id: String, channel: SyncChannel) {
        self.id = id
        join(channel)
    }
}

/// Another class for the same entity, with its own names for the keys; `likeCount` is a
/// plain property.
final class AccountHeader: Syncable {
    static let syncType = SyncType.account
    let id: String
    let membership = SyncMembership()
    @Synced var isStarred = false
    var likeCount = 0

    static func registerSyncKeys(in keys: inout SyncKeyMap<AccountHeader>) {
        keys.bind(.starred, to: \.isStarred)
        keys.bind(.likes, to: \.likeCount)
    }

    init(id: String, channel: SyncChannel) {
        self.id = id
        join(channel)
    }
}

/// A class of the same entity that accepts `starred` only.
final class AccountBadge: Syncable {
    static let syncType = SyncType.account
    let id: String
    let membership = SyncMembership()
    @Synced var starred = false

    static func registerSyncKeys(in keys: inout SyncKeyMap<AccountBadge>) {
        keys.bind(.starred, to: \.starred)
    }

    init(id: String, channel: SyncChannel) {
        self.id = id
        join(channel)
    }
}

/// Another entity type, with the same ids and key names as accounts.
final class ArticleCell: Syncable {
    static let syncType = SyncType.article
    let id: String
    let membership = SyncMembership()
    @Synced var likes = 0

    static func registerSyncKeys(in keys: inout SyncKeyMap<ArticleCell>) {
        keys.bind(.likes, to: \.likes)
    }

    init(id: String, channel: SyncChannel) {
        self.id = id
        join(channel)
    }
}

/// An entity with `Int` ids.
final class InvoiceRow: Syncable {
    static let syncType = SyncType.invoice
    let id: Int
    let membership = SyncMembership()
    @Synced var paid = false

    static func registerSyncKeys(in keys: inout SyncKeyMap<InvoiceRow>) {
        keys.bind(.paid, to: \.paid)
    }

    init(id: Int, channel: SyncChannel) {
        self.id = id
        join(channel)
    }
}

/// Waits until the main queue has run every job enqueued on it before this call: emits
/// handed over from other threads included.
func drainMainQueue() async {
    await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
}
