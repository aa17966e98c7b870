import Foundation
import NIOCore
import NIOPosix
import Synchronization
import TallyServer
import TallyServerTesting
import Testing

/// The limits on what a connection may cost the server: the size of a request head, how long
/// a connection may stay silent, and how many connections are served at once. A client over
/// a limit is refused or made to wait, and everyone else is still served.
@Suite(.timeLimit(.minutes(2))) struct ConnectionLimitTests {
    @Test func requestHeadsAboveTheLimitsAreRefusedAndTheServerGoesOn() async throws {
        var configuration = ServerConfiguration()
        configuration.maximumHeaderBytes = 4_096
        configuration.maximumHeaderFields = 20
        try await LiveServer.with(configuration: configuration) { server in
            let heads = [
                "GET /healthz HTTP/1.1\r\nHost: a\r\nX-Big: \(String(repeating: "b", count: 5_000))\r\n\r\n",
                "GET /healthz HTTP/1.1\r\nHost: a\r\n" + (1...30).map { "X-Field-\($0): v\r\n" }.joined() + "\r\n",
                "GET /\(String(repeating: "p", count: 5_000)) HTTP/1.1\r\nHost: a\r\n\r\n",
            ]
            for head in heads {
                let answer = try await RawConnection.open(to: server).send(head, readingUntil: .closed)
                #expect(answer.hasPrefix("HTTP/1.1 400"), "\(head.prefix(40))… → \(answer.prefix(40))")
            }
            let within = "GET /healthz HTTP/1.1\r\nHost: a\r\n" + (1...15).map { "X-Field-\($0): v\r\n" }.joined() + "\r\n"
            #expect(try await RawConnection.open(to: server).send(within, readingUntil: .answered).hasPrefix("HTTP/1.1 200"))
        }
    }

    /// A connection that sends nothing, or stops halfway through a request head (a slow
    /// client holding a connection open), is closed once the idle timeout has passed.
    @Test(arguments: ["", "GET /healthz HTTP/1.1\r\nHost: a\r\n"])
    func silentConnectionsAreClosed(sent: String) async throws {
        var configuration = ServerConfiguration()
        configuration.idleTimeout = 0.5
        try await LiveServer.with(configuration: configuration) { server in
            let answer = try await RawConnection.open(to: server).send(sent, readingUntil: .closed)
            #expect(answer.isEmpty)
        }
    }

    /// Above the limit a connection waits, unanswered, until another closes; then it is
    /// served.
    @Test func connectionsAboveTheLimitWaitForOneToClose() async throws {
        var configuration = ServerConfiguration()
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

    /// Connects to `server`.
    static func open(to server: LiveServer) async throws -> RawConnection {
        let (pieces, continuation) = AsyncStream.makeStream(of: String.self)
        let channel = try await ClientBootstrap(group: .singletonMultiThreadedEventLoopGroup)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Forwarder(continuation: continuation)) }
            }
            .connect(host: "127.0.0.1", port: server.url.port ?? 0).get()
        return RawConnection(channel: channel, pieces: pieces)
    }

    /// Sends `text` and returns what the server answers, read until `until`. A server that
    /// closed the connection before `text` was written has answered nothing.
    func send(_ text: String, readingUntil until: Until) async throws -> String {
        do {
            if !text.isEmpty { try await channel.writeAndFlush(ByteBuffer(string: text)) }
        } catch ChannelError.ioOnClosedChannel {
            return received
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

    /// Closes the connection.
    func close() async throws {
        try await channel.close()
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
