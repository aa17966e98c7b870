import Componentry
import Testing

// The README's channel example, verbatim; `readmeExamplesAreCompiledByTests` (in
// ReadmeExamples.swift) fails when the README and this file drift apart.

extension SyncType<String> {
    static var user: Self { Self("user") }  // users have String ids
}

extension SyncKey<Bool> {
    static var followed: Self { Self("followed") }
}

final class UserRow: Syncable {  // a row of a list
    static let syncType = SyncType.user
    let id: String
    let membership = SyncMembership()
    @Synced var followed = false

    static func registerSyncKeys(in keys: inout SyncKeyMap<UserRow>) {
        keys.bind(.followed, to: \.followed)
    }

    init(id: String) {
        self.id = id
        join()  // into SyncChannel.shared, which holds it weakly; it leaves when deallocated
    }
}

final class ProfilePage: Syncable {  // another class, the same user
    static let syncType = SyncType.user
    let id: String
    let membership = SyncMembership()
    @Synced var isFollowing = false

    static func registerSyncKeys(in keys: inout SyncKeyMap<ProfilePage>) {
        keys.bind(.followed, to: \.isFollowing)  // its own name for the key
    }

    init(id: String) {
        self.id = id
        join()
    }
}

@Suite("README examples: channel")
struct ReadmeExamplesChannel {
    @MainActor
    @Test func channelExample() {
        let origins = Recorder<SyncOrigin>()
        let row = UserRow(id: "42")
        let page = ProfilePage(id: "42")
        page.$isFollowing.observe().didChange { new, _ in
            print("following:", new.value, "mine:", new.origin.isLocal)
            origins.append(new.origin)
        }
        row.emit(.followed, true)  // on the main actor: page is updated when emit returns
        #expect(row.followed && page.isFollowing)
        SyncChannel.shared.emit(.followed, false, to: .user, id: "42")  // from any thread
        #expect(!row.followed && !page.isFollowing)
        #expect(origins.values == [.synced(from: row), .synced(from: nil)])
    }
}
