public import Foundation

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

    /// Whether the address is public: one a host on the internet may have, outside IANA's
    /// special-purpose ranges (loopback, private, shared, link-local, documentation,
    /// benchmarking, multicast, reserved, unique local, unspecified). A NAT64 address
    /// (`64:ff9b::/96`, what DNS64 answers for an IPv4-only host) is as public as the IPv4
    /// address it carries.
    public var isPublic: Bool {
        if bytes.count == 16, Self.nat64.contains(self) { return IPAddress(bytes: Array(bytes.suffix(4))).isPublic }
        return !Self.special.contains { $0.contains(self) }
    }

    /// The host of `url` when it is `localhost` (or under it) or an address that is not
    /// public; `nil` for a public address or another name, which only its resolution tells.
    public static func nonPublicHost(of url: URL) -> String? {
        guard let host = url.host?.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased() else { return nil }
        if host == "localhost" || host.hasSuffix(".localhost") { return host }
        return IPAddress(host).flatMap { $0.isPublic ? nil : host }
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private static let nat64 = IPAddressRange("64:ff9b::/96")!

    /// IANA's special-purpose address registries, the blocks not forwarded on the internet.
    private static let special = [
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24",
        "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/3",
        "::/127", "64:ff9b:1::/48", "100::/64", "2001::/23", "2001:db8::/32", "2002::/16", "fc00::/7", "fe80::/10", "ff00::/8",
    ].map { IPAddressRange($0)! }

    public var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var v6 = in6_addr()
        withUnsafeMutableBytes(of: &v6) { $0.copyBytes(from: bytes) }
        guard inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
