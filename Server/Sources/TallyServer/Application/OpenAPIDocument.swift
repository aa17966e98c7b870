import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The OpenAPI 3.1 document of the collector's routes, `Resources/openapi.json`, served at
/// `GET /openapi.json`.
///
/// Written by hand and checked from both sides: a test fails when the router has a route the
/// document lacks or the other way round, and CI validates the document and runs schemathesis
/// against a live server, which fails on an answer the document does not describe. The
/// handlers stay hand-written rather than generated from it: the ingest routes read a body
/// event by event, so that a bad event is rejected alone, where decoding the whole body into
/// generated types would refuse the batch around it.
enum OpenAPIDocument {
    /// The document's bytes, read once.
    static let bytes: Data? = Bundle.module.url(forResource: "openapi", withExtension: "json").flatMap { try? Data(contentsOf: $0) }

    /// The answer to `GET /openapi.json`.
    static func response() throws -> Response {
        guard let bytes else {
            throw APIError(status: .internalServerError, message: "this build lacks its OpenAPI document")
        }
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
