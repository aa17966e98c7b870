/// Which page a module requests: its index (0 for a refresh) and its size.
public struct ListPage: Hashable, Sendable {
    /// 0 for the first page, then 1, 2, … for each load more.
    public var index: Int
    /// How many items a full page holds.
    public var size: Int

    /// Creates a page.
    public init(index: Int, size: Int) {
        self.index = index
        self.size = size
    }
}
