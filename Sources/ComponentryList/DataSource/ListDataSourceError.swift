/// Why a ``ListDataSource`` refused a change.
public enum ListDataSourceError: Error, Hashable, Sendable {
    /// Two components would share this id; ids name components from one render to the
    /// next and must be unique.
    case duplicateID(String)
}
