/// What a user's deletion does to one stored rollup row.
enum RowChange<Value> {
    /// The row does not hold the user: it stays as it is.
    case unchanged
    /// The row without the user.
    case replaced(Value)
    /// The row held only the user: it goes, as it would not exist had the user never been.
    case deleted
}
