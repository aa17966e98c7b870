import Foundation

extension Event {
    /// The event as one compact JSON object in the server's wire format, without a line break.
    ///
    /// This is the form stored in the on-disk queue and spliced verbatim into upload bodies,
    /// so it is encoded exactly once. Property keys are sorted so equal events encode equally.
    func jsonLine(timestampStyle: Date.ISO8601FormatStyle) -> Data {
        var json = "{\"id\":"
        json.appendJSON(id.uuidString.lowercased())
        json += ",\"name\":"
        json.appendJSON(name)
        json += ",\"timestamp\":"
        json.appendJSON(timestamp.formatted(timestampStyle))
        json += ",\"user_id\":"
        json.appendJSON(userID)
        json += ",\"session_id\":"
        json.appendJSON(sessionID.uuidString.lowercased())
        json += ",\"app_version\":"
        json.appendJSON(appVersion)
        json += ",\"platform\":"
        json.appendJSON(platform)
        json += ",\"properties\":{"
        for (index, key) in properties.keys.sorted().enumerated() {
            if index > 0 { json += "," }
            json.appendJSON(key)
            json += ":"
            json.appendJSON(properties[key] ?? .null)
        }
        json += "}}"
        return Data(json.utf8)
    }
}

extension String {
    fileprivate mutating func appendJSON(_ value: PropertyValue) {
        switch value {
        case .string(let string): appendJSON(string)
        case .int(let int): append(String(int))
        case .double(let double): append(double.isFinite ? "\(double)" : "null")
        case .bool(let bool): append(bool ? "true" : "false")
        case .null: append("null")
        }
    }

    /// Appends `string` as a JSON string literal, escaping quotes, backslashes and control characters.
    fileprivate mutating func appendJSON(_ string: String) {
        append("\"")
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": append("\\\"")
            case "\\": append("\\\\")
            case "\n": append("\\n")
            case "\r": append("\\r")
            case "\t": append("\\t")
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: unicodeScalars.append(scalar)
            }
        }
        append("\"")
    }
}
