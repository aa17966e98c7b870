import Foundation
import GRDB
import TallyEvent

extension Event {
    /// The columns ``init(row:)`` reads, in order.
    static let columns = "id, name, timestamp, device_timestamp, user_id, session_id, app_version, platform, properties"

    /// Decodes a row selected with ``columns``.
    ///
    /// - Throws: A `DecodingError` if the stored id is not a UUID or the properties are not a flat JSON object.
    init(row: Row) throws {
        guard let id = (row[0] as Data?).flatMap(UUID.init(storedID:)) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Stored event id is not a UUID"))
        }
        self.init(
            id: id, name: row[1],
            timestamp: Date(unixMilliseconds: row[2]), deviceTimestamp: Date(unixMilliseconds: row[3]),
            userID: row[4], sessionID: row[5], appVersion: row[6], platform: row[7],
            properties: try Self.storedProperties(Array((row[8] as String).utf8)))
    }
}
