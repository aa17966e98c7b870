import Foundation

extension UUID {
    /// The id stored in `event.id`: the UUID's 16 bytes, as ``RawStatement`` binds them;
    /// `nil` for any other length.
    init?(storedID bytes: Data) {
        guard bytes.count == 16 else { return nil }
        self.init(uuid: bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) })
    }
}
