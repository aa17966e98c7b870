public import Foundation

/// A segment saved by name for an app: a ``SegmentFilter`` that the dashboard's filter bar
/// applies in one click, kept by ``SegmentStore/save(app:name:filter:)``.
///
/// Names are unique per app and compared exactly (`Pro` and `pro` are two segments), after
/// ``SegmentStore/save(app:name:filter:)`` trimmed them and put them in Unicode's
/// canonical composed form (NFC), so a name typed either way is one name.
public struct SavedSegment: Hashable, Sendable {
    /// The name people chose for it.
    public var name: String
    /// Its conditions.
    public var filter: SegmentFilter
    /// When a segment of this name was first saved; saving it again keeps this time.
    public var createdAt: Date

    /// The most characters a name has, once trimmed.
    public static let maximumNameLength = 64
    /// The most bytes a name's UTF-8 has: a character may be made of many scalars.
    public static let maximumNameBytes = 256
    /// The most bytes the text of a saved filter (its ``SegmentFilter/description``) has.
    public static let maximumFilterBytes = 4_096
    /// The most segments an app keeps.
    public static let maximumPerApp = 100

    /// A segment named `name` of `filter`, first saved at `createdAt`.
    public init(name: String, filter: SegmentFilter, createdAt: Date) {
        self.name = name
        self.filter = filter
        self.createdAt = createdAt
    }

    /// `name` as segments are named: without the white space around it, in NFC.
    ///
    /// - Throws: ``TallyStoreError/invalidSegmentName(_:)`` unless that has 1 to
    ///   ``maximumNameLength`` characters, at most ``maximumNameBytes`` bytes, and no control
    ///   character (a name is shown in pages and sent in paths).
    public static func normalized(name: String) throws(TallyStoreError) -> String {
        // Bounded before any work on it: a name may come from anyone.
        guard name.utf8.count <= 16 * maximumNameBytes else { throw .invalidSegmentName(shown(name)) }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        guard (1...maximumNameLength).contains(trimmed.count), trimmed.utf8.count <= maximumNameBytes,
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw .invalidSegmentName(shown(name)) }
        return trimmed
    }

    /// The start of `name` that an error repeats: at most ``maximumNameLength`` scalars.
    private static func shown(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.prefix(maximumNameLength)))
    }

    /// The text `filter` is stored as, its ``SegmentFilter/description``.
    ///
    /// - Throws: ``TallyStoreError/invalidSegmentFilter(_:)`` for a filter without a
    ///   condition, one whose text passes ``maximumFilterBytes``, or holds a NUL character.
    static func storedText(of filter: SegmentFilter) throws(TallyStoreError) -> String {
        guard !filter.isEmpty else { throw .invalidSegmentFilter("it has no condition") }
        let text = filter.description
        guard text.utf8.count <= maximumFilterBytes else {
            throw .invalidSegmentFilter("its text is \(text.utf8.count) bytes, more than \(maximumFilterBytes)")
        }
        guard !text.utf8.contains(0) else { throw .invalidSegmentFilter("it holds a NUL character") }
        return text
    }
}
