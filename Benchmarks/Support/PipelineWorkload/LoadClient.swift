import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.1 load generator: one keep-alive connection per thread, blocking socket
/// calls, two system calls per request. It stands in for the many devices of a real
/// collector at a small fraction of URLSession's cost (about 350 µs of CPU per request on
/// Linux), so the benchmark measures the server rather than its client.
package enum LoadClient {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// POSTs each of `bodies` once to `path` on `127.0.0.1:port` over `connections`
    /// connections, and returns when every response has arrived.
    ///
    /// - Throws: ``Failure`` if a connection fails or a response is not `200`.
    static func post(
        _ bodies: [Data], path: String, port: Int, headers: [String: String], connections: Int
    ) async throws {
        let next = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<connections {
                group.addTask {
                    try await onThread {
                        let socket = try connect(port: port)
                        defer { close(socket) }
                        let head =
                            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                            + headers.map { "\($0.key): \($0.value)\r\n" }.joined()
                        while let index = next.take(below: bodies.count) {
                            try send(Data("\(head)Content-Length: \(bodies[index].count)\r\n\r\n".utf8) + bodies[index], on: socket)
                            let status = try readResponse(from: socket).status
                            guard status == 200 else { throw Failure(description: "status \(status)") }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Sends requests on one keep-alive connection to `127.0.0.1:port`, each `timed` until
    /// `done`, and returns each one's status and time in milliseconds.
    ///
    /// - Parameter next: The request to send next: method, path, headers and body, or `nil` to stop.
    package static func timed(
        port: Int, pause: Duration = .zero, _ next: @escaping @Sendable () -> (method: String, path: String, headers: [String: String], body: Data)?
    ) async throws -> [(status: Int, milliseconds: Double)] {
        try await onThread {
            let socket = try connect(port: port)
            defer { close(socket) }
            var timings: [(status: Int, milliseconds: Double)] = []
            let clock = ContinuousClock()
            while let request = next() {
                let bytes = Self.request(request.method, request.path, headers: request.headers, body: request.body)
                let start = clock.now
                try send(bytes, on: socket)
                let status = try readResponse(from: socket).status
                timings.append((status, start.duration(to: clock.now).seconds * 1_000))
                if pause > .zero { Thread.sleep(forTimeInterval: pause.seconds) }
            }
            return timings
        }
    }

    /// The body of `GET path` on `127.0.0.1:port`.
    ///
    /// - Throws: ``Failure`` if the connection fails or the response is not `200`.
    package static func body(port: Int, path: String, headers: [String: String]) async throws -> Data {
        try await onThread {
            let socket = try connect(port: port)
            defer { close(socket) }
            try send(request("GET", path, headers: headers, body: Data()), on: socket)
            let response = try readResponse(from: socket)
            guard response.status == 200 else { throw Failure(description: "status \(response.status)") }
            return response.body
        }
    }

    /// The bytes of a request with a JSON `body`.
    private static func request(_ method: String, _ path: String, headers: [String: String], body: Data) -> Data {
        let head =
            "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + headers.map { "\($0.key): \($0.value)\r\n" }.joined() + "Content-Length: \(body.count)\r\n\r\n"
        return Data(head.utf8) + body
    }

    /// Runs `body` on a thread of its own, so blocking calls never hold a cooperative thread.
    private static func onThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    private static func connect(port: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var noDelay: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "connect: errno \(errno)") }
        return socket
    }

    private static func send(_ data: Data, on socket: Int32) throws {
        try data.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = Glibc.send(socket, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                guard count > 0 else { throw Failure(description: "send: errno \(errno)") }
                sent += count
            }
        }
    }

    /// Reads one response whose body has a `Content-Length`, and returns its status code and body.
    private static func readResponse(from socket: Int32) throws -> (status: Int, body: Data) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var headerEnd: Int?
        var bodyLength = 0
        while headerEnd == nil || received.count < headerEnd! + bodyLength {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { throw Failure(description: "recv: connection closed") }
            received += buffer[..<count]
            if headerEnd == nil, let end = received.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound {
                headerEnd = end
                let head = String(decoding: received[..<end], as: UTF8.self).lowercased()
                guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
                    let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
                else { throw Failure(description: "response without Content-Length") }
                bodyLength = length
            }
        }
        let statusLine = String(decoding: received.prefix(while: { $0 != UInt8(ascii: "\r") }), as: UTF8.self)
        return (Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0, Data(received[headerEnd!...]))
    }
}
