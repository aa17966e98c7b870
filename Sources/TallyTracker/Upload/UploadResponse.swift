public import Foundation

/// The server's answer to an ``UploadRequest``, as returned by a ``Transport``.
public struct UploadResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// Header fields; looked up case-insensitively through ``header(_:)``.
    public var headers: [String: String]
    /// The response body.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the header field `name`, compared case-insensitively as HTTP requires.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
