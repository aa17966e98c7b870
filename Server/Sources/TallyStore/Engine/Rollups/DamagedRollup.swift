/// A rollup blob that does not decode: cut short or out of order. Only a damaged database
/// file produces one, since the store writes every blob itself.
struct DamagedRollup: Error, CustomStringConvertible {
    /// The table whose blob failed to decode.
    var table: String

    var description: String { "a blob of `\(table)` does not decode" }
}
