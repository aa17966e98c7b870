import Foundation
public import HTTPTypes

/// The reverse proxies whose word on the client's address is taken: a request whose peer is
/// one of them comes from the address its forwarding header names, read from the right
/// (the hop the proxy appended) past every trusted hop. A request from any other peer comes
/// from the peer, whatever its headers say.
///
/// ```swift
/// let proxies = try TrustedProxies(parsing: "127.0.0.1, 10.0.0.0/8")
/// proxies.client(peer: IPAddress("127.0.0.1"), headers: [.xForwardedFor: "203.0.113.7"])  // 203.0.113.7
/// ```
public struct TrustedProxies: Hashable, Sendable {
    /// The header the proxies write.
    public enum Header: String, Hashable, Sendable, CaseIterable {
        /// `X-Forwarded-For: client, proxy1, …`, as nginx, HAProxy, Caddy, Traefik and most load
        /// balancers write it.
        case xForwardedFor = "x-forwarded-for"
        /// RFC 7239's `Forwarded: for=client, for=proxy1`.
        case forwarded
    }

    /// The proxies' addresses.
    public var ranges: [IPAddressRange]
    /// The header they append the client's address to. Only this one is read: a proxy passes
    /// the other on as the client sent it.
    public var header: Header

    /// Trusts the proxies in `ranges`, which write `header`.
    public init(_ ranges: [IPAddressRange] = [], header: Header = .xForwardedFor) {
        self.ranges = ranges
        self.header = header
    }

    /// Trusts the comma-separated addresses and CIDR ranges of `list` (empty: none).
    ///
    /// - Throws: ``ConfigurationError`` naming the first item that is no address or range.
    public init(parsing list: String, header: Header = .xForwardedFor) throws(ConfigurationError) {
        var ranges: [IPAddressRange] = []
        for item in list.split(separator: ",") where !item.allSatisfy(\.isWhitespace) {
            guard let range = IPAddressRange(item) else {
                throw ConfigurationError(setting: "trustedProxies", value: String(item.prefix(60)), expected: "an IP address or a CIDR range")
            }
            ranges.append(range)
        }
        self.init(ranges, header: header)
    }

    /// Whether `address` is a trusted proxy's.
    public func contains(_ address: IPAddress) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// The client's address for a request from `peer` with `headers`.
    public func client(peer: IPAddress, headers: HTTPFields) -> IPAddress {
        var client = peer
        // Each trusted hop vouches for the one before it; the first untrusted hop is the client.
        for hop in lastHops(in: headers) {
            guard contains(client), let address = hop else { break }
            client = address
        }
        return client
    }

    /// Whether a request from `peer` with `headers` comes from this host: its client is a
    /// loopback address, and no forwarding header that was not walked through trusted proxies
    /// (one a proxy on this host that is not trusted wrote, say) says it was forwarded.
    public func isLocal(peer: IPAddress, headers: HTTPFields) -> Bool {
        isLocal(client: client(peer: peer, headers: headers), peer: peer, headers: headers)
    }

    /// ``isLocal(peer:headers:)`` for a request whose `client` is already resolved.
    func isLocal(client: IPAddress, peer: IPAddress, headers: HTTPFields) -> Bool {
        let other = Header.allCases.filter { $0 != header }.map(\.name)
        return client.isLoopback && other.allSatisfy { headers[$0] == nil } && (contains(peer) || headers[header.name] == nil)
    }

    /// The most hops read from a header: a request head is bounded, but its walk need not be long.
    static let maximumHops = 32

    /// The addresses of ``header``'s last ``maximumHops`` hops, the last first; `nil` for a
    /// hop that names none (`unknown`, an obfuscated name).
    func lastHops(in headers: HTTPFields) -> [IPAddress?] {
        let lines = headers[values: header.name]
        return lines.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.suffix(Self.maximumHops).reversed().map { element in
            switch header {
            case .xForwardedFor: Self.address(in: element)
            case .forwarded:
                element.split(separator: ";").lazy.compactMap { pair -> Substring? in
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "for" else { return nil }
                    return parts[1]
                }.first.flatMap(Self.address(in:))
            }
        }
    }

    /// The address of one hop: `192.0.2.1`, `192.0.2.1:4711`, `2001:db8::1`, `[2001:db8::1]:4711`,
    /// optionally quoted.
    private static func address(in hop: Substring) -> IPAddress? {
        var text = Substring(hop.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = text.dropFirst().dropLast() }
        if text.hasPrefix("["), let end = text.firstIndex(of: "]") { return IPAddress(text[text.index(after: text.startIndex)..<end]) }
        if text.count(where: { $0 == ":" }) == 1, let colon = text.firstIndex(of: ":") { return IPAddress(text[..<colon]) }
        return IPAddress(text)
    }
}

extension TrustedProxies.Header {
    /// The header's field name.
    var name: HTTPField.Name {
        switch self {
        case .xForwardedFor: Self.xForwardedForName
        case .forwarded: Self.forwardedName
        }
    }

    // Made once, not per request; both are valid field names.
    private static let xForwardedForName = HTTPField.Name("X-Forwarded-For")!
    private static let forwardedName = HTTPField.Name("Forwarded")!
}
