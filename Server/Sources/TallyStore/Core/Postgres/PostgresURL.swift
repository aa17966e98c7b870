import Foundation
package import PostgresNIO

/// The connection a `postgres://user:password@host:port/database` URL names.
///
/// The user and password are percent-decoded. A `sslmode` query item of `disable` turns TLS
/// off, `require` demands it; otherwise TLS is used when the server offers it.
package enum PostgresURL {
    /// Whether `text` is a PostgreSQL URL rather than a file path.
    package static func matches(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// `url` with its password replaced by `***`, for messages and logs.
    package static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? "postgres://…"
    }

    /// The client configuration `url` names.
    ///
    /// - Throws: ``EventStore/OpenError`` without a user or host, or with a port out of range.
    package static func configuration(_ url: String) throws(EventStore.OpenError) -> PostgresClient.Configuration {
        guard matches(url), let components = URLComponents(string: url), let host = components.host, !host.isEmpty,
            let user = components.user, !user.isEmpty
        else { throw EventStore.OpenError(path: redacted(url), reason: "expected postgres://user[:password]@host[:port]/database") }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw EventStore.OpenError(path: redacted(url), reason: "port \(port) is out of range") }
        let path = components.path.drop(while: { $0 == "/" })
        let tls: PostgresClient.Configuration.TLS =
            switch components.queryItems?.first(where: { $0.name == "sslmode" })?.value {
            case "disable": .disable
            case "require", "verify-ca", "verify-full": .require(.makeClientConfiguration())
            default: .prefer(.makeClientConfiguration())
            }
        return PostgresClient.Configuration(
            host: host, port: port, username: components.percentEncodedUser?.removingPercentEncoding ?? user,
            password: components.percentEncodedPassword?.removingPercentEncoding,
            database: path.isEmpty ? nil : String(path).removingPercentEncoding, tls: tls)
    }
}
