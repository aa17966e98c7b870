extension Event: Encodable {
    /// The keys, in the snake_case of the ingest API and the NDJSON export.
    enum CodingKeys: String, CodingKey {
        case id, name, timestamp, platform, properties
        case deviceTimestamp = "device_timestamp"
        case userID = "user_id"
        case sessionID = "session_id"
        case appVersion = "app_version"
        case isDebug = "debug"
    }

    /// Encodes the event under the keys of the NDJSON export; `session_id` only when there is
    /// one and `debug` only when true.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(deviceTimestamp, forKey: .deviceTimestamp)
        try container.encode(userID, forKey: .userID)
        try container.encodeIfPresent(sessionID, forKey: .sessionID)
        try container.encode(appVersion, forKey: .appVersion)
        try container.encode(platform, forKey: .platform)
        try container.encode(properties, forKey: .properties)
        if isDebug { try container.encode(true, forKey: .isDebug) }
    }
}

extension PropertyValue: Encodable {
    /// Encodes the value as the JSON scalar it is; a non-finite double as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .int(let number): try container.encode(number)
        case .double(let number) where number.isFinite: try container.encode(number)
        case .bool(let flag): try container.encode(flag)
        case .double, .null: try container.encodeNil()
        }
    }
}
