public import Foundation

/// One of an app's users: an id its events carried (`user_id`), and when the first came.
public struct AppUser: Hashable, Sendable {
    /// The id the app sends, as it sends it.
    public var id: String
    /// The time of the user's earliest event.
    public var firstSeen: Date

    /// The user `id`, first seen at `firstSeen`.
    public init(id: String, firstSeen: Date) {
        self.id = id
        self.firstSeen = firstSeen
    }

    /// The least text greater than every text that starts with `prefix`, in code point order
    /// (which UTF-8's byte order follows); `nil` when there is none (`prefix` is empty or
    /// all U+10FFFF). A search for `prefix` reads the ids from `prefix` up to it.
    static func upperBound(ofPrefix prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            // The next scalar, stepping over the surrogates, which no text holds.
            let next = last.value == 0xD7FF ? 0xE000 : last.value + 1
            if let scalar = Unicode.Scalar(next) {
                var text = String.UnicodeScalarView()
                text.append(contentsOf: scalars)
                text.append(scalar)
                return String(text)
            }
        }
        return nil
    }
}
