public import Foundation

extension UUID {
    /// The event id `text` spells: a UUID in its 36-character text form, hex digits in
    /// either case; `nil` for any other text.
    ///
    /// Hand-written because every event of a batch carries one, and Foundation's
    /// `UUID(uuidString:)` goes through `sscanf`, several times slower.
    public init?(eventID text: some StringProtocol) {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var utf8 = text.utf8.makeIterator()
        let parsed = withUnsafeMutableBytes(of: &bytes) { bytes -> Bool in
            // The text form: 8-4-4-4-12 hex digits, two per byte.
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10, utf8.next() != UInt8(ascii: "-") { return false }
                guard let high = utf8.next().flatMap(Self.hexValue), let low = utf8.next().flatMap(Self.hexValue) else { return false }
                bytes[index] = high << 4 | low
            }
            return utf8.next() == nil
        }
        guard parsed else { return nil }
        self.init(uuid: bytes)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
