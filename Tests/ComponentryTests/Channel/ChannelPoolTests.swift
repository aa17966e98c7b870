import Componentry
import Testing

@MainActor
@Suite("Channel pool")
struct ChannelPoolTests {
    let channel = SyncChannel()

    @Test func objectsLeaveThePoolWhenDeallocated() {
        var row: AccountRow? = AccountRow(id: "42", channel: channel)
        let header = AccountHeader(id: "42", channel: channel)
        let article = ArticleCell(id: "1", channel: channel)
        #expect(channel.snapshot().objectCounts == ["account": 2, "article": 1])
        #expect(channel.snapshot().identityCount == 2)

        withExtendedLifetime(row) {}
        row = nil
        #expect(channel.snapshot().objectCounts == ["account": 1, "article": 1])

        withExtendedLifetime((header, article)) {}
    }

    /// Every entry goes with its object, and every bucket with its last entry: nothing is
    /// left once the objects are gone, without any emit touching their buckets.
    @Test func creatingAndFreeingManyObjectsLeavesNoEntry() {
        let survivor = AccountRow(id: "keep", channel: channel)
        for round in 0..<10 {
            var rows: [AccountRow]? = (0..<1_000).map { AccountRow(id: "\(round)-\($0 % 300)", channel: channel) }
            #expect(channel.snapshot().objectCount == 1_001)
            withExtendedLifetime(rows) {}
            rows = nil
        }
        let snapshot = channel.snapshot()
        #expect(snapshot.objectCounts == ["account": 1])
        #expect(snapshot.identityCount == 1)
        withExtendedLifetime(survivor) {}
    }

    @Test func joiningAgainDoesNothing() {
        let row = AccountRow(id: "42", channel: channel)
        row.join(channel)
        channel.join(row)
        #expect(channel.snapshot().objectCount == 1)
        #expect(row.membership.channel === channel)
    }

    @Test func theSnapshotDescribesThePool() {
        let rows = ["1", "2"].map { AccountRow(id: $0, channel: channel) }
        let article = ArticleCell(id: "1", channel: channel)
        #expect("\(channel.snapshot())" == "account: 2, article: 1 (3 objects, 3 identities)")
        withExtendedLifetime((rows, article)) {}
    }
}
