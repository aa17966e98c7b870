#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address, parsed from its text. An IPv4-mapped IPv6 address
/// (`::ffff:192.0.2.1`) is the IPv4 address it maps, as a dual-stack socket reports IPv4 peers.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address's bytes in network order: 4 for IPv4, 16 for IPv6.
    public let bytes: [UInt8]

    /// Parses `text`: dotted IPv4 or any IPv6 notation, without brackets or port; `nil` for
    /// anything else.
    public init?(_ text: some StringProtocol) {
        guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
        let text = String(text)
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            let all = withUnsafeBytes(of: &v6) { Array($0) }
            bytes = all.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] ? Array(all.suffix(4)) : all
        } else {
            return nil
        }
    }

    /// Whether this is a loopback address: `127.0.0.0/8` or `::1`.
    public var isLoopback: Bool {
        bytes.count == 4 ? bytes[0] == 127 : bytes == Array(repeating: 0, count: 15) + [1]
    }

    public var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var v6 = in6_addr()
        withUnsafeMutableBytes(of: &v6) { $0.copyBytes(from: bytes) }
        guard inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
