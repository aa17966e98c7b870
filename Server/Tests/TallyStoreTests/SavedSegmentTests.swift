import Foundation
import TallyStoreTesting
import Testing

@testable import TallyStore

/// Saved segments on both databases: what is saved reads back by name, a name saved again
/// replaces its filter, deleting removes it, the bounds hold, and no app reaches another's.
@Suite struct SavedSegmentTests {
    /// A store with an app segmented by the user property `plan`.
    static func store(_ database: TestDatabase) async throws -> (EventStore, AppID) {
        let store = try await database.makeStore()
        let app = try await store.apps.create(name: "Bills", timeZone: "UTC").app.id
        _ = try await store.apps.update(app, segmentProperties: SegmentProperties(user: ["plan"]))
        return (store, app)
    }

    static let pro = SegmentFilter([.is("plan", "pro"), .is("platform", "ios")])
    static let android = SegmentFilter([.isNot("platform", "android")])

    @Test(arguments: TestDatabase.all) func segmentsAreSavedListedByNameReplacedAndDeleted(database: TestDatabase) async throws {
        let (store, app) = try await Self.store(database)
        #expect(try await store.segments.saved(app: app).isEmpty)
        let before = Date().addingTimeInterval(-1)
        let saved = try await store.segments.save(app: app, name: "Pro on iOS", filter: Self.pro)
        #expect(saved.name == "Pro on iOS" && saved.filter == Self.pro)
        #expect(saved.createdAt >= before && saved.createdAt <= Date().addingTimeInterval(1))
        // Names are trimmed; the list is in code point order (upper case first).
        try await store.segments.save(app: app, name: "  android users\n", filter: Self.android)
        try await store.segments.save(app: app, name: "Beta", filter: SegmentFilter([.is("app_version", "3.3.0", "3.2.0")]))
        #expect(try await store.segments.saved(app: app).map(\.name) == ["Beta", "Pro on iOS", "android users"])
        #expect(try await store.segments.saved(app: app).first { $0.name == "Pro on iOS" } == saved)

        // The same name again: its filter replaced, its creation time kept, still one segment.
        let replaced = try await store.segments.save(app: app, name: "Pro on iOS", filter: Self.android)
        #expect(replaced.filter == Self.android && replaced.createdAt == saved.createdAt)
        let listed = try await store.segments.saved(app: app)
        #expect(listed.count == 3)
        #expect(listed.first { $0.name == "Pro on iOS" } == replaced)

        #expect(try await store.segments.delete(app: app, name: "Pro on iOS"))
        #expect(try await !store.segments.delete(app: app, name: "Pro on iOS"))
        #expect(try await store.segments.delete(app: app, name: " android users "))
        #expect(try await store.segments.saved(app: app).map(\.name) == ["Beta"])
    }

    /// A filter with every escaped character, and a name typed decomposed, read back the same.
    @Test(arguments: TestDatabase.all) func filtersAndNamesReadBackExactly(database: TestDatabase) async throws {
        let (store, app) = try await Self.store(database)
        let odd = SegmentFilter([.is("plan", "a|b;c\\d=e!f", ""), .isNot("app_version", "3.3.0")])
        try await store.segments.save(app: app, name: "Cafe\u{301} ☕️", filter: odd)
        let listed = try await store.segments.saved(app: app)
        #expect(listed.map(\.filter) == [odd])
        #expect(listed.map { Array($0.name.unicodeScalars) } == [Array("Caf\u{E9} ☕️".unicodeScalars)])
        #expect(try await store.segments.delete(app: app, name: "Caf\u{E9} ☕️"))
    }

    /// A name to refuse, shown in the test log by a label (some are long).
    struct BadName: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let text: String
        init(_ label: String, _ text: String) { (testDescription, self.text) = (label, text) }
    }

    @Test(
        arguments: TestDatabase.all,
        [
            BadName("empty", ""), BadName("spaces", "   "), BadName("white space", "\n\t"),
            BadName("65 characters", String(repeating: "x", count: 65)), BadName("a newline", "a\nb"), BadName("a tab", "tab\there"),
            BadName("NUL", "nul\u{0}"), BadName("DEL", "\u{7F}"), BadName("BEL", "bell\u{7}"),
            BadName("one character of 301 scalars", "e" + String(repeating: "\u{301}", count: 300)),
            BadName("100,000 characters", String(repeating: "y", count: 100_000)),
        ])
    func namesAreBounded(database: TestDatabase, bad: BadName) async throws {
        let name = bad.text
        let (store, app) = try await Self.store(database)
        let error = await #expect(throws: TallyStoreError.self) { try await store.segments.save(app: app, name: name, filter: Self.pro) }
        #expect(error?.code == .invalidSegmentName)
        // The error repeats the name's start only: at most the longest name within its sentence.
        let sentence = TallyStoreError.invalidSegmentName("").description.unicodeScalars.count
        #expect((error?.description.unicodeScalars.count ?? 0) <= sentence + SavedSegment.maximumNameLength)
        #expect(try await store.segments.saved(app: app).isEmpty)
        #expect(try await !store.segments.delete(app: app, name: name))
    }

    @Test(arguments: TestDatabase.all) func namesAtTheLimitsAreKept(database: TestDatabase) async throws {
        let (store, app) = try await Self.store(database)
        let names = [String(repeating: "x", count: 64), String(repeating: "🙂", count: 64), "a", " padded " + String(repeating: "z", count: 57)]
        for name in names { try await store.segments.save(app: app, name: name, filter: Self.pro) }
        #expect(Set(try await store.segments.saved(app: app).map(\.name)) == Set(names.map { $0.trimmingCharacters(in: .whitespaces) }))
    }

    @Test(arguments: TestDatabase.all) func filtersAreBounded(database: TestDatabase) async throws {
        let (store, app) = try await Self.store(database)
        await #expect(throws: TallyStoreError.invalidSegmentFilter("it has no condition")) {
            try await store.segments.save(app: app, name: "All", filter: SegmentFilter())
        }
        await #expect(throws: TallyStoreError.unknownFilterProperty("country")) {
            try await store.segments.save(app: app, name: "France", filter: SegmentFilter([.is("country", "fr")]))
        }
        let values = (0..<SegmentFilter.maximumValues).map { String(format: "%070d", $0) }
        let long = SegmentFilter([SegmentFilter.Condition(property: "plan", isNegated: false, values: values)])
        #expect(long.description.utf8.count > SavedSegment.maximumFilterBytes)
        await #expect(throws: TallyStoreError.self) { try await store.segments.save(app: app, name: "Long", filter: long) }
        await #expect(throws: TallyStoreError.invalidSegmentFilter("it holds a NUL character")) {
            try await store.segments.save(app: app, name: "Nul", filter: SegmentFilter([.is("plan", "a\u{0}b")]))
        }
        let fits = SegmentFilter([SegmentFilter.Condition(property: "plan", isNegated: false, values: Array(values.prefix(56)))])
        #expect(fits.description.utf8.count <= SavedSegment.maximumFilterBytes)
        try await store.segments.save(app: app, name: "Fits", filter: fits)
        #expect(try await store.segments.saved(app: app).map(\.name) == ["Fits"])
    }

    /// At most 100 per app, even when saves race; replacing one at the limit still works,
    /// and the limit is the app's own.
    @Test(arguments: TestDatabase.all) func anAppKeepsAtMostAHundred(database: TestDatabase) async throws {
        let (store, app) = try await Self.store(database)
        let other = try await store.apps.create(name: "Other", timeZone: "UTC").app.id
        for index in 0..<95 { try await store.segments.save(app: app, name: "s\(index)", filter: Self.pro) }
        // Twenty new names at once: five fit.
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<20 {
                group.addTask { (try? await store.segments.save(app: app, name: "race\(index)", filter: Self.pro)) != nil }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 5)
        #expect(try await store.segments.saved(app: app).count == SavedSegment.maximumPerApp)
        await #expect(throws: TallyStoreError.tooManySavedSegments(app)) {
            try await store.segments.save(app: app, name: "one more", filter: Self.pro)
        }
        try await store.segments.save(app: app, name: "s0", filter: Self.android)
        try await store.segments.save(app: other, name: "one more", filter: SegmentFilter([.is("platform", "ios")]))
        #expect(try await store.segments.delete(app: app, name: "s1"))
        try await store.segments.save(app: app, name: "one more", filter: Self.pro)
        #expect(try await store.segments.saved(app: app).count == SavedSegment.maximumPerApp)
    }

    /// Two apps' segments of one name are two segments; an app's debug id reaches its own.
    @Test(arguments: TestDatabase.all) func appsNeverReachEachOthersSegments(database: TestDatabase) async throws {
        let (store, app) = try await Self.store(database)
        let other = try await store.apps.create(name: "Other", timeZone: "UTC").app.id
        try await store.segments.save(app: app, name: "Mine", filter: Self.pro)
        try await store.segments.save(app: other, name: "Mine", filter: Self.android)
        #expect(try await store.segments.saved(app: app).map(\.filter) == [Self.pro])
        #expect(try await store.segments.saved(app: other).map(\.filter) == [Self.android])
        #expect(try await store.segments.saved(app: app.debug).map(\.filter) == [Self.pro])
        #expect(try await store.segments.delete(app: other, name: "Mine"))
        #expect(try await store.segments.saved(app: app).map(\.filter) == [Self.pro])
        #expect(try await !store.segments.delete(app: other, name: "Mine"))

        let unknown = AppID(rawValue: 999)
        await #expect(throws: TallyStoreError.unknownApp(unknown)) { try await store.segments.save(app: unknown, name: "x", filter: Self.android) }
        #expect(try await store.segments.saved(app: unknown).isEmpty)
    }

    @Test func segmentsSurviveReopeningTheFile() async throws {
        let database = try await TestDatabase.sqlite.makeDatabase()
        defer { TestDatabase.sqlite.removeDatabase(database) }
        do {
            let store = try EventStore(path: database)
            let app = try await store.apps.create(name: "Bills", timeZone: "UTC").app.id
            try await store.segments.save(app: app, name: "Android", filter: Self.android)
        }
        let store = try EventStore(path: database)
        #expect(try await store.segments.saved(app: AppID(rawValue: 1)).map(\.name) == ["Android"])
    }
}
