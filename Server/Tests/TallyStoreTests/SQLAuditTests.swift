import Foundation
import TallyEvent
import TallyStoreTesting
import Testing

/// Values reach SQL only as bound parameters: the store's SQL text interpolates nothing but
/// the names and fragments below, each a constant of the store's own code (tables, columns,
/// a month's partition and its bounds, the WAL's checkpoint size). A new interpolation fails
/// this test until it is reviewed and added here. PostgresNIO's `PostgresQuery` literals bind
/// what they interpolate, so they are checked only for `\(unescaped:)`.
@Suite struct SQLAuditTests {
    static let reviewed: Set<String> = [
        "App.columns", "Event.columns", "columns", "column", "condition", "Self.eventsWithProperty", "table", "periodColumn",
        "keyColumn", "partition.table", "range.lowerBound", "range.upperBound", "unescaped: Self.eventColumns",
        #"latestFirst ? "DESC" : "ASC""#, "unescaped: Self.appColumns", "unescaped: partition.table", "unescaped: table", "unescaped: column",
        "unescaped: keyColumn", "selected", "Self.deliveryColumns", "unescaped: Self.deliveryColumns", "Self.autocheckpointPages",
        // The delivery states' raw values, and one `?` per app a claim skips (their ids bound).
        "Self.knownStates", "unescaped: Self.knownStates", "databaseQuestionMarks(count: excluding.count)",
    ]

    @Test func sqlInterpolatesOnlyReviewedConstants() throws {
        let sources = try #require(PackageRoot.url()).appending(path: "Sources/TallyStore")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 20)
        // Text given to GRDB (`sql:`) or to PostgreSQL unparsed (`unsafeSQL:`), and every
        // `\(unescaped: …)`.
        let unbound = try Regex(#"(?:sql|unsafeSQL):\s*(\"\"\"[\s\S]*?\"\"\"|\"(?:[^\"\\]|\\.)*\")"#)
        let interpolation = try Regex(#"\\\(((?:[^()]|\([^()]*\))*)\)"#)
        var found: [String: Set<String>] = [:]
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            var literals = text.matches(of: unbound).compactMap { $0.output[1].substring.map(String.init) }
            literals += text.matches(of: try Regex(#"\\\(unescaped:[^)]*\)"#)).map { String(text[$0.range]) }
            for literal in literals {
                for match in literal.matches(of: interpolation) {
                    if let expression = match.output[1].substring { found[file.lastPathComponent, default: []].insert(String(expression)) }
                }
            }
        }
        let unreviewed = found.mapValues { $0.subtracting(Self.reviewed) }.filter { !$0.value.isEmpty }
        #expect(unreviewed.isEmpty, "SQL interpolating unreviewed expressions: \(unreviewed)")
        #expect(found.values.reduce(into: Set()) { $0.formUnion($1) } == Self.reviewed, "reviewed names no longer used")
    }
}
