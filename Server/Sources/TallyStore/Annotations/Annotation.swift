public import Foundation

/// A note on an app's timeline ("v2.3 released", "campaign started"), which every chart of
/// the dashboard marks at its instant.
public struct Annotation: Hashable, Sendable {
    /// The row's id.
    public var id: Int64
    /// The instant it marks.
    public var time: Date
    /// Its text: 1 to ``maximumTextLength`` characters.
    public var text: String
    /// When it was made.
    public var createdAt: Date

    /// The longest text.
    public static let maximumTextLength = 280
    /// The most annotations an app keeps.
    public static let maximumPerApp = 10_000

    /// `text` trimmed, if it can be an annotation's.
    ///
    /// - Throws: ``TallyStoreError/invalidAnnotation(_:)``.
    static func validated(text: String) throws(TallyStoreError) -> String {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...maximumTextLength).contains(text.count),
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw .invalidAnnotation("an annotation's text has 1 to \(maximumTextLength) characters and no control character") }
        return text
    }
}
