/// Why a layout file was refused, with where: the line and the field.
public struct DashboardLayoutError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The line of the file (from 1), when known.
    public let line: Int?
    /// The field's path, such as `sections[2].metrics[0].average.property`.
    public let field: String
    /// What is wrong.
    public let message: String

    public var description: String {
        (line.map { "line \($0), " } ?? "") + (field.isEmpty ? "" : "\(field): ") + message
    }
}
