import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One host opening connections that send nothing or half a request head, as an attacker
/// taking a server offline would, and a probe of `GET /healthz` from another address: blocking
/// POSIX sockets, for load no HTTP client makes, each on a thread of its own.
///
/// ```swift
/// let probe = ConnectionFlood.Probe()
/// let probing = Task { await ConnectionFlood.onThread { probe.run(port: port) } }
/// let flood = await ConnectionFlood.onThread { ConnectionFlood.run(port: port, connections: 20_000) }
/// probe.stop()
/// let latencies = await probing.value  // milliseconds, nil for no answer within 5 s
/// ```
public enum ConnectionFlood {
    /// How many connections the flood opens between two looks for those the server closed.
    static let reapEvery = 500

    /// What a flood left.
    public struct Outcome: Sendable {
        /// Connections the kernel accepted.
        public var opened = 0
        /// Connections that could not be made.
        public var failed = 0
        /// The descriptors of the connections the server had not closed at the end.
        public var held: [Int32] = []
    }

    /// Runs `work` on a thread of its own (it blocks), not on the concurrency pool's.
    public static func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    /// Opens `connections` connections from 127.0.0.1 to `port`, every other one sending half
    /// a request head, and keeps open those the server keeps.
    public static func run(port: UInt16, connections: Int) -> Outcome {
        var flood = Outcome()
        for index in 0..<connections {
            guard let socket = connect(from: "127.0.0.1", port: port) else {
                flood.failed += 1
                continue
            }
            flood.opened += 1
            if index % 2 == 1 { send("GET /healthz HTTP/1.1\r\nHost: a\r\n", on: socket) }
            flood.held.append(socket)
            if flood.held.count >= reapEvery { flood.held = reap(flood.held) }
        }
        flood.held = reap(flood.held)
        return flood
    }

    /// How many of `sockets` the server has not closed: nothing to read, not even the end.
    public static func countOpen(_ sockets: [Int32]) -> Int {
        var descriptors = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        _ = poll(&descriptors, nfds_t(descriptors.count), 0)
        return descriptors.count { $0.revents == 0 }
    }

    /// Closes `sockets`.
    public static func close(_ sockets: [Int32]) {
        for socket in sockets { _ = closeDescriptor(socket) }
    }

    /// `GET /healthz` from 127.0.0.2 every 10 ms until stopped.
    public final class Probe: Sendable {
        private let stopped = Mutex(false)

        /// A probe, not yet running.
        public init() {}

        /// Probes 127.0.0.1:`port` until ``stop()``, blocking the calling thread, and returns
        /// each answer's time in milliseconds, `nil` for none within 5 s.
        public func run(port: UInt16) -> [Double?] {
            var latencies: [Double?] = []
            while !stopped.withLock({ $0 }) {
                let start = ContinuousClock.now
                let answered = ConnectionFlood.healthz(port: port)
                let elapsed = ContinuousClock.now - start
                latencies.append(answered ? Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15 : nil)
                usleep(10_000)
            }
            return latencies
        }

        /// Ends ``run(port:)``.
        public func stop() {
            stopped.withLock { $0 = true }
        }
    }

    /// The value at `share` (0…1) of `sorted`, to 0.1.
    public static func percentile(_ sorted: [Double], _ share: Double) -> Double {
        sorted.isEmpty ? 0 : (sorted[min(sorted.count - 1, Int(Double(sorted.count) * share))] * 10).rounded() / 10
    }

    /// Whether `GET /healthz` from 127.0.0.2 to 127.0.0.1:`port` is answered 200 within 5 s.
    static func healthz(port: UInt16) -> Bool {
        guard let socket = connect(from: "127.0.0.2", port: port) else { return false }
        defer { _ = closeDescriptor(socket) }
        guard send("GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", on: socket) else { return false }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = recv(socket, &buffer, buffer.count, 0)
        return count > 0 && String(decoding: buffer.prefix(count), as: UTF8.self).hasPrefix("HTTP/1.1 200")
    }

    /// A TCP connection from the loopback address `source` to 127.0.0.1:`port`, or `nil`;
    /// reads and writes time out after 5 s.
    static func connect(from source: String, port: UInt16) -> Int32? {
        #if canImport(Glibc)
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { return nil }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var local = address(source, port: 0)
        var remote = address("127.0.0.1", port: port)
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connectSocket(socket, $0, length) }
        }
        guard bound == 0, connected == 0 else {
            _ = closeDescriptor(socket)
            return nil
        }
        return socket
    }

    private static func address(_ text: String, port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, text, &address.sin_addr)
        return address
    }

    /// Sends `text` on `socket`; whether it all went.
    @discardableResult
    private static func send(_ text: String, on socket: Int32) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { sendBytes(socket, $0.baseAddress, $0.count, noSignal) } == bytes.count
    }

    /// Closes the connections the server closed (or answered and closed) and returns the others.
    private static func reap(_ sockets: [Int32]) -> [Int32] {
        var descriptors = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        _ = poll(&descriptors, nfds_t(descriptors.count), 0)
        return descriptors.compactMap { descriptor in
            guard descriptor.revents != 0 else { return descriptor.fd }
            _ = closeDescriptor(descriptor.fd)
            return nil
        }
    }
}

// The C functions whose names this type's methods take.
private let connectSocket = connect
private let sendBytes = send
private let closeDescriptor = close

#if canImport(Glibc)
    private let noSignal = Int32(MSG_NOSIGNAL)
#else
    private let noSignal: Int32 = 0
#endif
