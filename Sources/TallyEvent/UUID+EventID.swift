public import Foundation

extension UUID {
    /// The event id `text` spells: a UUID in its 36-character text form, hex digits in
    /// either case; `nil` for any other text.
    ///
    /// Hand-written because every event of a batch carries one, and Foundation's
    /// `UUID(uuidString:)` goes through `sscanf`, several times slower.
    public init?(eventID text: some StringProtocol) {
        let bytes = ASCIIReader.read(text) { text -> uuid_t? in
            var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let parsed = withUnsafeMutableBytes(of: &bytes) { bytes -> Bool in
                // The text form: 8-4-4-4-12 hex digits, two per byte.
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10, !text.take("-") { return false }
                    guard let byte = text.hexByte() else { return false }
                    bytes[index] = byte
                }
                return true
            }
            return parsed ? bytes : nil
        }
        guard let bytes else { return nil }
        self.init(uuid: bytes)
    }
}
