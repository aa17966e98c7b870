import Componentry
import Dispatch
import Foundation

extension SyncType {
    static let account = SyncType("account")
    static let article = SyncType("article")
}

extension SyncKey<Bool> {
    static var starred: Self { Self("starred") }
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

/// A channel that applies on its own serial queue, for tests off the main actor.
func queueChannel(_ label: String = "test.channel") -> (SyncChannel, DispatchQueue) {
    let queue = DispatchQueue(label: label)
    return (SyncChannel(executor: .queue(queue)), queue)
}
