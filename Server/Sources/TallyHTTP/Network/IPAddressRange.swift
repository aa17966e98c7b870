import Foundation

/// A range of IP addresses in CIDR notation, `10.0.0.0/8` or `fd00::/8`; an address alone is
/// a range of one.
public struct IPAddressRange: Hashable, Sendable, CustomStringConvertible {
    /// The first address of the range.
    public let base: IPAddress
    /// How many leading bits every address of the range shares with ``base``.
    public let prefixLength: Int

    /// Parses `text`: an address, or an address, `/` and a prefix length of at most its bit
    /// count; `nil` for anything else.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0].trimmingCharacters(in: .whitespaces)) else { return nil }
        let bits = address.bytes.count * 8
        if parts.count == 2 {
            guard parts[1].utf8.count <= 3, let length = Int(parts[1].trimmingCharacters(in: .whitespaces)), (0...bits).contains(length) else {
                return nil
            }
            prefixLength = length
        } else {
            prefixLength = bits
        }
        base = address
    }

    /// Whether `address` is in the range.
    public func contains(_ address: IPAddress) -> Bool {
        guard address.bytes.count == base.bytes.count else { return false }
        var remaining = prefixLength
        for (mine, theirs) in zip(base.bytes, address.bytes) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xff : ~(0xff >> remaining)
            guard mine & mask == theirs & mask else { return false }
            remaining -= 8
        }
        return true
    }

    public var description: String { "\(base)/\(prefixLength)" }
}
