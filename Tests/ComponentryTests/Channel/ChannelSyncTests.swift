import Componentry
import Foundation
import Testing

/// An emit made on the main actor applies before it returns, so these tests read the
/// copies right after emitting.
@MainActor
@Suite("Channel sync")
struct ChannelSyncTests {
    let channel = SyncChannel()

    @Test func differentClassesWithTheSameTypeAndIDSync() {
        let row = AccountRow(id: "42", channel: channel)
        let header = AccountHeader(id: "42", channel: channel)
        let badge = AccountBadge(id: "42", channel: channel)
        let otherID = AccountRow(id: "7", channel: channel)
        let otherType = ArticleCell(id: "42", channel: channel)

        row.emit(.starred, true)
        row.emit(.likes, 5)

        #expect(row.starred && header.isStarred && badge.starred)
        #expect(row.likes == 5 && header.likeCount == 5)
        #expect(!otherID.starred && otherID.likes == 0)
        #expect(otherType.likes == 0)
    }

    @Test func anEmitByTypeAndIDReachesEveryCopy() {
        let copies = (0..<3).map { _ in AccountRow(id: "42", channel: channel) }
        let header = AccountHeader(id: "42", channel: channel)
        channel.emit(.likes, 9, to: .account, id: "42")
        #expect(copies.map(\.likes) == [9, 9, 9])
        #expect(header.likeCount == 9)
    }

    /// The entity type fixes the id type: `emit(…, to: .account, id: 42)` does not compile,
    /// and the copies of an entity with `Int` ids sync by `Int`.
    @Test func theEntityTypeFixesTheIDType() {
        let copies = (0..<2).map { _ in InvoiceRow(id: 42, channel: channel) }
        let other = InvoiceRow(id: 7, channel: channel)
        channel.emit(.paid, true, to: .invoice, id: 42)
        #expect(copies.map(\.paid) == [true, true])
        #expect(!other.paid)
    }

    /// A name is one entity type with one id type: making it with another traps at once,
    /// instead of an emit silently missing every object.
    @Test func aTypeNameDeclaredWithAnotherIDTypeTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = SyncType.invoice  // Int ids
            _ = SyncType<String>("invoice")
        }
    }

    @Test func unknownKeysAreSkippedAndTheTraceSaysSo() {
        let traces = Recorder<SyncTrace>()
        channel.tracer = { traces.append($0) }
        let row = AccountRow(id: "42", channel: channel)
        let badge = AccountBadge(id: "42", channel: channel)

        row.emit(.likes, 3)  // the badge has no likes
        channel.emit(SyncKey<String>("likes"), "3", to: .account, id: "42")  // likes of another type
        badge.emit(.likes, 4)  // the emitter itself does not accept it

        #expect(row.likes == 4)
        let summary = traces.values.map { [$0.updated, $0.skipped.count] }
        #expect(summary == [[0, 1], [0, 2], [1, 1]])
        #expect(traces.values[0].skipped == [SyncObject(badge)])
        #expect(Set(traces.values[1].skipped) == [SyncObject(row), SyncObject(badge)])
        #expect(traces.values[2].skipped == [SyncObject(badge)])
        #expect(traces.values[2].description.hasPrefix("account[42].likes = 4 from AccountBadge(0x"))
    }

    @Test func eachChangeTellsWhetherItWasLocalAndWhereItCameFrom() {
        let row = AccountRow(id: "42", channel: channel)
        let header = AccountHeader(id: "42", channel: channel)
        let rowOrigins = Recorder<SyncOrigin>()
        let headerOrigins = Recorder<SyncOrigin>()
        row.$starred.observe().didChange { new, _ in rowOrigins.append(new.origin) }
        header.$isStarred.observe().didChange { new, _ in headerOrigins.append(new.origin) }

        row.emit(.starred, true)
        channel.emit(.starred, false, to: .account, id: "42")
        header.isStarred = true

        #expect(rowOrigins.values == [.local, .synced(from: nil)])
        #expect(headerOrigins.values == [.synced(from: row), .synced(from: nil), .local])
        #expect(header.$isStarred.value.origin.isLocal)
        #expect(SyncOrigin.synced(from: row).source == ObjectIdentifier(row))
    }

    @Test func aSetMadeByAnObserverOfASyncedChangeIsLocal() {
        // The observer runs where the update is applied: on the main actor, with `row`.
        let row = AccountRow(id: "42", channel: channel)
        let likeOrigins = Recorder<SyncOrigin>()
        row.$likes.observe().didChange { new, _ in likeOrigins.append(new.origin) }
        row.$starred.observe().didChange { new, _ in MainActor.assumeIsolated { row.likes += new.value ? 1 : -1 } }

        channel.emit(.starred, true, to: .account, id: "42")

        #expect(row.$starred.value.origin == .synced(from: nil))
        #expect(likeOrigins.values == [.local])
    }

    @Test func anEqualValueIsNoChange() {
        let row = AccountRow(id: "42", channel: channel)
        let changes = Counter()
        row.$likes.observe().didChange { _, _ in changes.increment() }
        channel.emit(.likes, 1, to: .account, id: "42")
        channel.emit(.likes, 1, to: .account, id: "42")
        #expect(changes.count == 1)
    }

    /// An emit made by an observer while another is applied waits for it, so every copy
    /// ends with the value emitted last, and it has been applied when the outer emit
    /// returns.
    @Test func anEmitFromAnObserverIsAppliedAfterTheOneRunning() {
        let copies = (0..<3).map { _ in AccountRow(id: "42", channel: channel) }
        copies[0].$likes.observe().didChange { [channel] new, _ in
            if new.value == 1 { channel.emit(.likes, 2, to: .account, id: "42") }
        }
        channel.emit(.likes, 1, to: .account, id: "42")
        #expect(copies.map(\.likes) == [2, 2, 2])
    }

    @Test func anObjectThatHasNotJoinedIsSetByItsOwnEmit() {
        final class Draft: Syncable {
            static let syncType = SyncType.account
            let id = "draft"
            let membership = SyncMembership()
            @Synced var likes = 0
            static func registerSyncKeys(in keys: inout SyncKeyMap<Draft>) { keys.bind(.likes, to: \.likes) }
        }
        let draft = Draft()
        draft.emit(.likes, 3)
        #expect(draft.likes == 3)
        #expect(draft.membership.channel == nil)
    }

    @Test func decodedModelsJoinInOneLine() throws {
        let json = Data(#"[{"id": "42", "starred": true, "likes": 1}, {"id": "7", "starred": false, "likes": 2}]"#.utf8)
        let rows = channel.join(try JSONDecoder().decode([AccountRow].self, from: json))
        #expect(rows.map(\.likes) == [1, 2])
        let changes = Counter()
        rows[0].$likes.observe().didChange { _, _ in changes.increment() }

        channel.emit(.likes, 8, to: .account, id: "42")
        channel.emit(.likes, 8, to: .account, id: "42")  // decoded, still Equatable: no change
        #expect(rows.map(\.likes) == [8, 2])
        #expect(changes.count == 1)
        #expect(rows[0].$likes.value.origin == .synced(from: nil))
        #expect(channel.snapshot().objectCounts == ["account": 2])
    }
}
