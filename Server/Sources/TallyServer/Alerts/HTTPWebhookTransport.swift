public import Foundation
import Locking
public import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// POSTs webhooks over HTTP/1.1 with SwiftNIO, TLS for `https` (the system's trust roots).
///
/// Guarded against misuse: `http` and `https` only, a connection and an answer within
/// ``timeout``, one request per connection, no redirect followed (a 3xx is a failure), and
/// only the answer's status read: the connection closes at its head, so a large or endless
/// body costs nothing.
public struct HTTPWebhookTransport: WebhookTransport {
    /// How long a connection and its answer's head may take.
    public var timeout: TimeAmount

    /// Creates a transport.
    public init(timeout: TimeAmount = .seconds(10)) {
        self.timeout = timeout
    }

    /// Why a POST got no answer.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public func post(to url: URL, body: [UInt8], headers: [(name: String, value: String)]) async throws -> Int {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            throw Failure(description: "not an http or https URL with a host")
        }
        let secure = scheme == "https"
        let port = url.port ?? (secure ? 443 : 80)
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var target = components?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = components?.percentEncodedQuery { target += "?" + query }
        var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: target)
        head.headers.add(name: "Host", value: url.port.map { "\(host):\($0)" } ?? host)
        head.headers.add(name: "User-Agent", value: "Tally-Webhooks/1")
        head.headers.add(name: "Content-Length", value: String(body.count))
        head.headers.add(name: "Connection", value: "close")
        for header in headers { head.headers.add(name: header.name, value: header.value) }

        let group = MultiThreadedEventLoopGroup.singleton
        let answer = Answer(promise: group.next().makePromise(of: Int.self))
        let tls = secure ? try NIOSSLContext(configuration: .makeClientConfiguration()) : nil
        let request = head
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: host))
                    }
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(StatusHandler(request: request, body: body, answer: answer))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: host, port: port).get()
        } catch {
            answer.complete(.failure(error))
            throw Failure(description: "cannot connect to \(host):\(port): \(error)")
        }
        let timer = channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
        defer {
            timer.cancel()
            channel.close(promise: nil)
        }
        return try await answer.promise.futureResult.get()
    }
}

/// The status of a POST's answer, completed once: by the handler, or by a failed connect.
private final class Answer: Sendable {
    let promise: EventLoopPromise<Int>
    private let completed = Locked(false)

    init(promise: EventLoopPromise<Int>) {
        self.promise = promise
    }

    /// Completes the promise with `result` unless it is completed already.
    func complete(_ result: Result<Int, any Error>) {
        let first = completed.withLock { completed in
            defer { completed = true }
            return !completed
        }
        if first { promise.completeWith(result) }
    }
}

/// Writes the request once connected and completes the answer with its status, or a failure
/// when the connection ends first.
private final class StatusHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let request: HTTPRequestHead
    private let body: [UInt8]
    private let answer: Answer

    init(request: HTTPRequestHead, body: [UInt8], answer: Answer) {
        self.request = request
        self.body = body
        self.answer = answer
    }

    func channelActive(context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(request)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else { return }
        complete(.success(Int(head.status.code)))
        context.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        complete(.failure(error))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        complete(.failure(HTTPWebhookTransport.Failure(description: "the connection closed before an answer (or timed out)")))
        context.fireChannelInactive()
    }

    private func complete(_ result: Result<Int, any Error>) {
        answer.complete(result)
    }
}
