extension EventStore {
    /// The database file at ``path`` could not be opened, created or migrated.
    public struct OpenError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The path given to ``EventStore/init(path:)``.
        public let path: String
        /// What SQLite or the migration said.
        public let reason: String

        public var description: String { "cannot open the database \(path): \(reason)" }
    }
}
