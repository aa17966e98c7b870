import HTTPTypes
import NIOCore
import NIOHTTP1

/// The first handler of every connection: it closes connections that do not send a request
/// head in time, and answers requests the HTTP decoder refuses, with the status HTTP has for
/// each, before closing.
///
/// - A connection must complete its first request head within the head timeout of opening,
///   and every later head within the head timeout of its first byte (silence between requests
///   is the idle timeout's). Past it the server answers 408 and closes.
/// - A head the decoder refuses gets 414 (a request line over the header limit), 431 (a
///   header field, the header block or the number of fields over its limit), 501 (an unknown
///   method), or 400 (anything else, and TLS on the plain port), as reported by
///   ``RequestHeadWatcher``, which sits after the decoder.
///
/// Each answer is written, the output closed, and what the client still sends is read and
/// dropped for a moment before the connection closes, so that the client reads the answer
/// instead of a reset.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum State {
        /// Waiting for a request head.
        case awaitingHead
        /// Requests whose heads arrived and whose answers are not all written.
        case serving(requests: Int)
        /// The connection was upgraded (to a WebSocket): no more HTTP heads.
        case upgraded
        /// An answer was written and the output closed: what arrives is dropped.
        case closing
    }

    /// How long the client has to send a request head.
    private let headTimeout: TimeAmount
    /// Set when the connection ends before its first request head (see ``ConnectionLogHandler``).
    let unserved = ConnectionLogHandler.Unserved()
    /// Whether a request head has arrived.
    private var served = false
    private var state = State.awaitingHead
    /// Whether a byte of the awaited head has arrived.
    private var headStarted = false
    /// Whether the awaited head's request line is still open (no line feed yet).
    private var requestLineOpen = true
    private var timer: Scheduled<Void>?
    private var context: ChannelHandlerContext?

    /// How long a connection that was answered and closed for output is read before it closes.
    static let lingering = TimeAmount.seconds(2)

    init(headTimeout: TimeAmount) {
        self.headTimeout = headTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { startTimer(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        if timer == nil { startTimer(context: context) }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch state {
        case .closing:
            return
        case .awaitingHead:
            let bytes = unwrapInboundIn(data).readableBytesView
            if !headStarted {
                headStarted = true
                // A TLS handshake record (0x16) where a request line should start.
                if bytes.first == 0x16 { return refuse(.badRequest) }
                if timer == nil { startTimer(context: context) }
            }
            if requestLineOpen, bytes.contains(UInt8(ascii: "\n")) { requestLineOpen = false }
        case .serving, .upgraded:
            break
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        if !served { unserved.set() }
        context.fireChannelInactive()
    }

    // MARK: What the watcher after the decoder reports

    /// A request head arrived; `upgrading` when it asks to switch to a WebSocket.
    func headArrived(upgrading: Bool) {
        timer?.cancel()
        timer = nil
        served = true
        switch state {
        case .awaitingHead: state = upgrading ? .upgraded : .serving(requests: 1)
        case .serving(let requests): state = upgrading ? .upgraded : .serving(requests: requests + 1)
        case .upgraded, .closing: break
        }
    }

    /// An answer was written in full.
    func answerWritten() {
        guard case .serving(let requests) = state else { return }
        if requests > 1 {
            state = .serving(requests: requests - 1)
        } else {
            state = .awaitingHead
            (headStarted, requestLineOpen) = (false, true)
        }
    }

    /// The decoder refused the awaited head with `error`: answers with its status and closes.
    func decoderFailed(_ error: HTTPParserError) {
        switch error {
        case .headerOverflow: refuse(requestLineOpen ? .uriTooLong : .requestHeaderFieldsTooLarge)
        case .invalidMethod: refuse(.notImplemented)
        default: refuse(.badRequest)
        }
    }

    // MARK: Closing

    private func startTimer(context: ChannelHandlerContext) {
        timer?.cancel()
        let loop = context.eventLoop.assumeIsolated()
        timer = loop.scheduleTask(in: headTimeout) { [self] in
            timer = nil
            if case .awaitingHead = state { refuse(.requestTimeout) }
        }
    }

    /// Writes an answer of `status` with no body, closes the output, drops what still arrives,
    /// and closes the connection after ``lingering``.
    private func refuse(_ status: HTTPResponse.Status) {
        guard let context else { return }
        if case .closing = state { return }
        state = .closing
        if !served { unserved.set() }
        timer?.cancel()
        let head = "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: head)), promise: nil)
        context.close(mode: .output, promise: nil)
        let channel = context.channel
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: Self.lingering) { channel.close(promise: nil) }
    }
}

/// Sits after the HTTP decoder and tells the ``ConnectionGuard`` of its connection when a
/// request head arrives, when an answer has been written, and when the decoder refuses a head.
/// It leaves the pipeline when a request asks to upgrade to a WebSocket, before the upgrade
/// replaces the HTTP handlers.
final class RequestHeadWatcher: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let connectionGuard: ConnectionGuard

    init(connectionGuard: ConnectionGuard) {
        self.connectionGuard = connectionGuard
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            let upgrading = head.headers["upgrade"].contains { $0.lowercased() == "websocket" }
            connectionGuard.headArrived(upgrading: upgrading)
            context.fireChannelRead(data)
            if upgrading { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
            return
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { connectionGuard.answerWritten() }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        connectionGuard.decoderFailed(error)
    }
}
