/// The result of ``AppStore/create(name:timeZone:acceptedEventAge:)``: the app and its three secrets.
///
/// This is the only time the secrets are available in clear: the store keeps only their
/// SHA-256 hashes, so show them to the user now and never log them.
public struct NewApp: Sendable {
    /// The created app.
    public var app: App
    /// The key the app's SDK presents to send events (`ik_` followed by 256 random bits, base64url).
    public var ingestKey: String
    /// The token dashboards and the CLI present to read metrics and export events
    /// (`rt_` followed by 256 random bits, base64url).
    public var readToken: String
    /// The read token's write-capable twin, which reads and writes the app's annotations
    /// (`GET` and `POST /v1/annotations`); `wt_` followed by 256 random bits, base64url.
    public var writeToken: String
}
