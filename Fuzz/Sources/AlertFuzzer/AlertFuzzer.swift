import Foundation

@testable import TallyServer
@testable import TallyStore

/// libFuzzer's target over what alert rules and the webhook outbox hold: a rule's fields as
/// the dashboard, its file or a stored row give them, and an outbox row as the deliverer reads
/// it (``WebhookDelivery``).
///
/// An input's first byte picks what the rest is:
/// - 0: a webhook URL's text;
/// - 1: a rule's name, metric, condition, webhook and secret, apart by NUL bytes;
/// - 2: an outbox row: its attempts, creation time and the attempt's time (8 bytes each,
///   little-endian), its state (1 byte), then its URL's text.
///
/// Beyond not trapping, a URL that ``AlertRule/webhookURL(_:)`` accepts must pass it again as
/// stored (its `absoluteString`) and the transport's check before an attempt
/// (``HTTPWebhookTransport/target(of:)``), with a port from 1 to 65535; one it refuses must be
/// refused by the deliverer before any attempt, and the delivery given up. A broken rule
/// traps, and libFuzzer saves the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let input = UnsafeBufferPointer(start: data, count: size)
    let rest = Array(input.dropFirst())
    switch input[0] % 3 {
    case 0: AlertFuzzer.checkURL(String(decoding: rest, as: UTF8.self))
    case 1: AlertFuzzer.checkRule(rest)
    default: AlertFuzzer.checkRow(rest)
    }
    return 0
}

enum AlertFuzzer {
    static let transport = HTTPWebhookTransport(allowsPrivateAddresses: true)
    static let start = Date(timeIntervalSince1970: 1_795_176_000)  // 2026-11-18T12:00:00Z

    /// Traps unless a URL accepted where it is written is accepted again before each attempt.
    static func checkURL(_ text: String) {
        guard let url = try? AlertRule.webhookURL(text) else {
            precondition((try? WebhookFailure.checkedURL(text)) == nil, "the deliverer accepts a URL the rules refuse")
            return
        }
        precondition(url.absoluteString.utf8.count <= AlertRule.maximumURLLength, "an accepted URL is too long")
        let stored: URL
        do {
            stored = try WebhookFailure.checkedURL(url.absoluteString)
        } catch {
            preconditionFailure("\(text.prefix(100)) is accepted, but not as stored: \(error)")
        }
        do {
            let target = try transport.target(of: stored)
            precondition((1...65_535).contains(target.port) && !target.host.isEmpty, "the target \(target) cannot be connected to")
        } catch {
            preconditionFailure("\(text.prefix(100)) is accepted, but the transport refuses it: \(error)")
        }
    }

    /// Traps if a rule's fields trap, or if a rule made of them holds a URL that does not pass.
    static func checkRule(_ bytes: [UInt8]) {
        let fields = bytes.split(separator: 0, maxSplits: 4, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        guard fields.count == 5 else { return }
        let metric = try? AlertMetric(parsing: fields[1])
        let condition = try? AlertCondition(parsing: fields[2])
        guard let metric, let condition,
            let rule = try? AlertRule(name: fields[0], metric: metric, condition: condition, webhook: fields[3], secret: fields[4])
        else { return }
        checkURL(rule.webhook.absoluteString)
    }

    /// Traps if an outbox row, whatever it holds, is not either attempted with a URL that
    /// passes or given up; or if its outcome cannot be recorded.
    static func checkRow(_ bytes: [UInt8]) {
        guard bytes.count >= 25 else { return }
        func integer(at offset: Int) -> Int64 {
            bytes[offset..<offset + 8].enumerated().reduce(0) { $0 | Int64($1.element) << (8 * $1.offset) }
        }
        let state = WebhookDelivery.State(rawValue: Int(bytes[24])) ?? .pending
        let delivery = WebhookDelivery(
            id: 1, app: AppID(rawValue: 1), rule: "r", deliveryID: "d", url: String(decoding: bytes.dropFirst(25), as: UTF8.self), body: [],
            signature: "", createdAt: Date(unixMilliseconds: integer(at: 8)), attempts: Int(integer(at: 0)), state: state, lastError: nil)
        let now = Date(unixMilliseconds: integer(at: 16) % (1 << 50))
        let failure: WebhookFailure
        do {
            _ = try transport.target(of: WebhookFailure.checkedURL(delivery.url))
            failure = .answered(500)
        } catch {
            precondition(error.isFinal, "a URL refused is retried: \(error)")
            failure = error
        }
        let (outcome, next) = WebhookDeliverer.outcome(of: delivery, failure: failure, at: now)
        precondition(!failure.isFinal || outcome == .gaveUp, "a delivery that cannot be attempted is \(outcome)")
        precondition(outcome == .gaveUp || outcome == .pending, "a failed delivery is \(outcome)")
        precondition(next >= now && next.unixMilliseconds >= now.unixMilliseconds, "the next attempt is before the last")
        precondition(WebhookDeliverer.outcome(of: delivery, failure: nil, at: now).state == .delivered, "a 2xx does not deliver")
    }
}
