// libFuzzer's entry point over the ingest decoder: gzip, the JSON parser, the batch's
// envelope and every event's validation, as `POST /v1/events` runs them before the store.
// An input starting with gzip's magic bytes is sent as `Content-Encoding: gzip`. The server's
// clock stands still at the corpus's day, so its seeds stay within the accepted age.
//
// Every input must be answered with a status the API documents; a trap, a hang (libFuzzer's
// -timeout) or another status is a finding.
import Foundation
@_spi(Fuzzing) import TallyServer

let receivedAt = Date(timeIntervalSince1970: 1_795_521_600)  // 2026-11-24T12:00:00Z

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    let gzip = body.starts(with: [0x1f, 0x8b])
    let (status, valid) = TallyServer.decodeIngestBody(body, contentEncoding: gzip ? "gzip" : nil, receivedAt: receivedAt)
    precondition([200, 400, 413, 415].contains(status), "the decoder answered \(status)")
    precondition(status == 200 || valid == 0, "a refused body with valid events")
    return 0
}
