import Foundation
import NIOCore
import NIOPosix
import Synchronization
import TallyHTTP
import TallyServer
import TallyServerTesting
import Testing

/// The limits on what a connection may cost the server: the size of a request head, how long
/// a connection may stay silent, and how many connections are served at once. A client over
/// a limit is refused or made to wait, and everyone else is still served.
@Suite(.timeLimit(.minutes(2))) struct ConnectionLimitTests {
    /// Each request the HTTP decoder refuses gets the status HTTP has for it, and its
    /// connection is closed; the server goes on.
    @Test func refusedRequestHeadsGetTheirStatusAndTheirConnectionIsClosed() async throws {
        var configuration = ServerSettings()
        configuration.maximumHeaderBytes = 4_096
        configuration.maximumHeaderFields = 20
        try await LiveServer.with(configuration: configuration) { server in
            let answers: [(String, String)] = [
                ("GET /healthz HTTP/1.1\r\nHost: a\r\nX-Big: \(String(repeating: "b", count: 5_000))\r\n\r\n", "431"),
                ("GET /healthz HTTP/1.1\r\nHost: a\r\n" + (1...30).map { "X-Field-\($0): v\r\n" }.joined() + "\r\n", "431"),
                ("GET /\(String(repeating: "p", count: 100_000)) HTTP/1.1\r\nHost: a\r\n\r\n", "414"),
                ("FOO / HTTP/1.1\r\nHost: a\r\n\r\n", "501"),
                ("\u{16}\u{3}\u{1}\u{0}\u{a5}\u{1}\u{0}\u{0}\u{a1}\u{3}\u{3}" + String(repeating: "x", count: 64), "400"),  // a TLS ClientHello
                ("POST /v1/events HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "400"),
                ("POST /v1/events HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", "400"),
            ]
            for (head, status) in answers {
                let answer = try await RawConnection.open(to: server).send(head, readingUntil: .closed)
                #expect(answer.hasPrefix("HTTP/1.1 \(status) "), "\(head.prefix(40))… → \(answer.prefix(40))")
                #expect(answer.contains("Connection: close"))
            }
            let within = "GET /healthz HTTP/1.1\r\nHost: a\r\n" + (1...15).map { "X-Field-\($0): v\r\n" }.joined() + "\r\n"
            #expect(try await RawConnection.open(to: server).send(within, readingUntil: .answered).hasPrefix("HTTP/1.1 200"))
        }
    }

    /// A connection that sends nothing, or stops halfway through a request head (a slow
    /// client holding a connection open), is answered 408 and closed once the head timeout has
    /// passed.
    @Test(arguments: ["", "GET /healthz HTTP/1.1\r\nHost: a\r\n"])
    func slowFirstRequestHeadsAreAnswered408AndClosed(sent: String) async throws {
        var configuration = ServerSettings()
        configuration.requestHeadTimeout = 0.5
        try await LiveServer.with(configuration: configuration) { server in
            let started = ContinuousClock.now
            let answer = try await RawConnection.open(to: server).send(sent, readingUntil: .closed)
            #expect(answer.hasPrefix("HTTP/1.1 408 "))
            #expect(ContinuousClock.now - started >= .milliseconds(500))
        }
    }

    /// On a kept-alive connection, silence between requests is the idle timeout's (60 s): a
    /// later head is timed from its first byte.
    @Test func aLaterRequestHeadIsTimedFromItsFirstByte() async throws {
        var configuration = ServerSettings()
        configuration.requestHeadTimeout = 3
        try await LiveServer.with(configuration: configuration) { server in
            let keptAlive = try await RawConnection.open(to: server)
            #expect(try await keptAlive.send("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n", readingUntil: .answered).hasPrefix("HTTP/1.1 200"))
            try await Task.sleep(for: .seconds(4))
            let started = ContinuousClock.now
            let second = try await keptAlive.send("GET /healthz HTTP/1.1\r\n", readingUntil: .closed)
            #expect(second.contains("HTTP/1.1 408 "))
            #expect(ContinuousClock.now - started >= .seconds(3))
        }
    }

    /// One address cannot hold more than its share of connections: one more is closed at
    /// once, while another address is still served.
    @Test func oneAddressHoldsAtMostItsShareOfConnections() async throws {
        var configuration = ServerSettings()
        configuration.maximumConnectionsPerAddress = 2
        // The held connections stay silent: however slow the machine, no head timeout ends them.
        configuration.requestHeadTimeout = 600
        try await LiveServer.with(configuration: configuration) { server in
            let held = [try await RawConnection.open(to: server), try await RawConnection.open(to: server)]
            try await Task.sleep(for: .milliseconds(100))
            #expect(try await RawConnection.open(to: server).send("", readingUntil: .closed).isEmpty)
            let other = try await RawConnection.open(to: server, from: "127.0.0.2")
            #expect(try await other.send("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n", readingUntil: .answered).hasPrefix("HTTP/1.1 200"))
            try await held[0].close()
            try await Task.sleep(for: .milliseconds(100))
            let again = try await RawConnection.open(to: server)
            #expect(try await again.send("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n", readingUntil: .answered).hasPrefix("HTTP/1.1 200"))
            for open in [held[1], other, again] { try await open.close() }
        }
    }

    /// Above the limit a connection waits, unanswered, until another closes; then it is
    /// served.
    @Test func connectionsAboveTheLimitWaitForOneToClose() async throws {
        var configuration = ServerSettings()
        configuration.maximumConnections = 2
        let request = "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n"
        try await LiveServer.with(configuration: configuration) { server in
            let first = try await RawConnection.open(to: server)
            let second = try await RawConnection.open(to: server)
            for open in [first, second] { #expect(try await open.send(request, readingUntil: .answered).hasPrefix("HTTP/1.1 200")) }
            let third = try await RawConnection.open(to: server)
            let waiting = Task { try await third.send(request, readingUntil: .answered) }
            try await Task.sleep(for: .seconds(1))
            #expect(third.received.isEmpty, "a third connection is served while two are open")
            try await first.close()
            #expect(try await waiting.value.hasPrefix("HTTP/1.1 200"))
            try await second.close()
            try await third.close()
        }
    }
}

/// A TCP connection that sends raw bytes, for requests no HTTP client would send.
final class RawConnection: Sendable {
    /// When ``send(_:readingUntil:)`` stops reading.
    enum Until {
        /// The server closed the connection.
        case closed
        /// A whole answer of `GET /healthz` arrived.
        case answered
    }

    private let channel: any Channel
    /// Each piece the server sends, as text; finished when the connection closes.
    private let pieces: AsyncStream<String>
    private let receivedText = Mutex("")

    /// What the server has sent so far.
    var received: String { receivedText.withLock { $0 } }

    private init(channel: any Channel, pieces: AsyncStream<String>) {
        self.channel = channel
        self.pieces = pieces
    }

    /// Connects to `server` from the loopback address `source`.
    static func open(to server: LiveServer, from source: String = "127.0.0.1") async throws -> RawConnection {
        let (pieces, continuation) = AsyncStream.makeStream(of: String.self)
        let channel = try await ClientBootstrap(group: .singletonMultiThreadedEventLoopGroup)
            .bind(to: try SocketAddress(ipAddress: source, port: 0))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Forwarder(continuation: continuation)) }
            }
            .connect(host: "127.0.0.1", port: server.url.port ?? 0).get()
        return RawConnection(channel: channel, pieces: pieces)
    }

    /// Sends `text` and returns what the server answers, read until `until`, or until the
    /// server closed the connection, maybe before `text` was written.
    func send(_ text: String, readingUntil until: Until) async throws -> String {
        do {
            if !text.isEmpty { try await channel.writeAndFlush(ByteBuffer(string: text)) }
        } catch ChannelError.ioOnClosedChannel {
            // The server closed first (a slow test may write after the head timeout): what it
            // sent before is still to be read.
        }
        for await piece in pieces {
            let text = receivedText.withLock {
                $0 += piece
                return $0
            }
            if until == .answered, text.contains(#""status":"ok""#) { break }
        }
        return received
    }

    /// Closes the connection, unless the server closed it first (a test slowed down past the
    /// head timeout of a silent connection).
    func close() async throws {
        do {
            try await channel.close()
        } catch ChannelError.alreadyClosed {}
    }

    /// Hands what the server sends to a stream.
    private final class Forwarder: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let continuation: AsyncStream<String>.Continuation

        init(continuation: AsyncStream<String>.Continuation) {
            self.continuation = continuation
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            continuation.yield(String(buffer: unwrapInboundIn(data)))
        }

        func channelInactive(context: ChannelHandlerContext) {
            continuation.finish()
            context.fireChannelInactive()
        }
    }
}
