/// Delivers one upload request to the server and hands back its response.
///
/// The tracker builds every request (URL, headers, JSON or gzip body) and interprets every
/// response; a transport only moves bytes. ``URLSessionTransport`` is the default. Supply
/// your own to route uploads through an existing HTTP stack, or a scripted fake in tests.
///
/// Throw for anything that prevents getting a response (no network, timeout, TLS
/// failure): the tracker keeps the events and retries with backoff. Return the response
/// for every HTTP status, including errors.
public protocol Transport: Sendable {
    /// Sends `request` and returns the server's response.
    func send(_ request: UploadRequest) async throws -> UploadResponse
}
