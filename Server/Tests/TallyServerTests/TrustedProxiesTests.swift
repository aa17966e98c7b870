import HTTPTypes
import TallyHTTP
import TallyServer
import Testing

/// Where a request comes from: its peer, or, through trusted reverse proxies, the address
/// they forward. A client cannot choose the address its limits are counted by.
@Suite struct TrustedProxiesTests {
    let proxies: TrustedProxies

    init() throws {
        proxies = try TrustedProxies(parsing: "127.0.0.1, 10.0.0.0/8, fd00::/8")
    }

    /// Public addresses, and IANA's special-purpose ones at the edges of their blocks.
    @Test func publicAddressesAreTheOnesOutsideTheSpecialPurposeBlocks() {
        let publicAddresses = [
            "8.8.8.8", "1.1.1.1", "11.0.0.0", "9.255.255.255", "172.15.255.255", "172.32.0.0", "100.63.255.255", "100.128.0.0",
            "169.253.255.255", "223.255.255.255", "2606:4700:4700::1111", "2a00:1450:4001::200e", "64:ff9b::808:808",
        ]
        let special = [
            "0.0.0.0", "10.0.0.0", "10.255.255.255", "100.64.0.1", "127.0.0.1", "127.255.255.254", "169.254.169.254", "172.16.0.1",
            "172.31.255.255", "192.0.0.8", "192.0.2.1", "192.168.1.1", "198.18.0.1", "198.51.100.7", "203.0.113.9", "224.0.0.1",
            "240.0.0.1", "255.255.255.255", "::", "::1", "::ffff:10.0.0.1", "::ffff:127.0.0.1", "64:ff9b::a00:1", "64:ff9b:1::1",
            "100::1", "2001:db8::1", "2001::1", "2002:c000:204::1", "fc00::1", "fd12:3456::1", "fe80::1", "febf::1", "ff02::1",
        ]
        for text in publicAddresses { #expect(IPAddress(text)?.isPublic == true, "\(text)") }
        for text in special { #expect(IPAddress(text)?.isPublic == false, "\(text)") }
    }

    @Test func addressesAndRangesParse() throws {
        #expect(IPAddress("192.0.2.1")?.bytes == [192, 0, 2, 1])
        #expect(IPAddress("::ffff:192.0.2.1") == IPAddress("192.0.2.1"))
        #expect(IPAddress("2001:db8::1")?.description == "2001:db8::1")
        for text in ["", "1.2.3", "1.2.3.256", "example.com", "[::1]", "1.2.3.4:80", String(repeating: "1", count: 100)] {
            #expect(IPAddress(text) == nil, "\(text.prefix(20))")
        }
        let range = try #require(IPAddressRange("10.1.0.0/17"))
        #expect(range.contains(IPAddress("10.1.127.255")!))
        #expect(!range.contains(IPAddress("10.1.128.0")!))
        #expect(!range.contains(IPAddress("::ffff:10.2.0.0")!))
        #expect(!range.contains(IPAddress("2001:db8::1")!))
        #expect(IPAddressRange("0.0.0.0/0")?.contains(IPAddress("203.0.113.9")!) == true)
        for text in ["10.0.0.0/33", "10.0.0.0/-1", "10.0.0.0/", "fd00::/129", "10.0.0.0/8/8", "nonsense"] {
            #expect(IPAddressRange(text) == nil, "\(text)")
        }
        #expect(throws: ConfigurationError.self) { try TrustedProxies(parsing: "10.0.0.1, proxy.internal") }
        #expect(try TrustedProxies(parsing: " ").ranges.isEmpty)
    }

    @Test func aPeerThatIsNoTrustedProxyIsTheClientWhateverItsHeadersSay() {
        let peer = IPAddress("203.0.113.9")!
        #expect(proxies.client(peer: peer, headers: [.xForwardedFor: "198.51.100.1"]) == peer)
        #expect(!proxies.isLocal(peer: peer, headers: [.xForwardedFor: "127.0.0.1"]))
    }

    @Test func throughTrustedProxiesTheClientIsTheFirstUntrustedHopFromTheRight() {
        let proxy = IPAddress("127.0.0.1")!
        #expect(proxies.client(peer: proxy, headers: [.xForwardedFor: "198.51.100.1"]) == IPAddress("198.51.100.1"))
        // A client that sends its own X-Forwarded-For only prepends to what the proxy appends.
        #expect(proxies.client(peer: proxy, headers: [.xForwardedFor: "1.1.1.1, 198.51.100.1, 10.0.0.7"]) == IPAddress("198.51.100.1"))
        var twoLines = HTTPFields()
        twoLines.append(HTTPField(name: .init("X-Forwarded-For")!, value: "1.1.1.1"))
        twoLines.append(HTTPField(name: .init("X-Forwarded-For")!, value: "198.51.100.1:5678"))
        #expect(proxies.client(peer: proxy, headers: twoLines) == IPAddress("198.51.100.1"))
        // A hop that names no address stops the walk at the proxy that wrote it.
        #expect(proxies.client(peer: proxy, headers: [.xForwardedFor: "198.51.100.1, unknown"]) == proxy)
        // Only the configured header is read: the other comes from the client.
        #expect(proxies.client(peer: proxy, headers: [.forwarded: "for=198.51.100.1"]) == proxy)
        #expect(!proxies.isLocal(peer: proxy, headers: [.forwarded: "for=198.51.100.1"]))
        #expect(proxies.isLocal(peer: proxy, headers: [:]))
    }

    @Test func forwardedElementsAreReadAsRFC7239WritesThem() {
        let proxies = TrustedProxies(self.proxies.ranges, header: .forwarded)
        let proxy = IPAddress("fd00::1")!
        let header = #"for="[2001:db8:cafe::17]:4711";proto=https, for=10.1.2.3;by=10.0.0.1"#
        #expect(proxies.client(peer: proxy, headers: [.forwarded: header]) == IPAddress("2001:db8:cafe::17"))
        #expect(proxies.client(peer: proxy, headers: [.forwarded: "For=198.51.100.1:80"]) == IPAddress("198.51.100.1"))
        #expect(proxies.client(peer: proxy, headers: [.forwarded: "for=_hidden"]) == proxy)
        #expect(proxies.client(peer: proxy, headers: [.xForwardedFor: "198.51.100.1"]) == proxy)
    }

    /// However many hops a header lists, the walk stops after a bounded number.
    @Test func aLongChainOfTrustedHopsIsWalkedABoundedWay() {
        let hops = Array(repeating: "10.0.0.1", count: 5_000).joined(separator: ",")
        #expect(proxies.client(peer: IPAddress("10.0.0.2")!, headers: [.xForwardedFor: "198.51.100.1," + hops]) == IPAddress("10.0.0.1"))
    }
}

extension HTTPField.Name {
    fileprivate static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    fileprivate static let forwarded = HTTPField.Name("Forwarded")!
}
