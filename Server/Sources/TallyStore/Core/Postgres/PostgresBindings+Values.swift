import PostgresNIO

extension PostgresBindings {
    /// `values` as the binds `$1`, `$2`, … of a query whose SQL is built at run time (a
    /// table's name), where string interpolation cannot bind them.
    init<each Value: PostgresThrowingDynamicTypeEncodable>(binding values: repeat each Value) throws {
        self.init()
        repeat try append(each values)
    }
}
