/// One number of a section as a list item: what a section's cells show.
public struct Tile: Identifiable, Hashable, Sendable {
    /// The metric key, unique in the page: the cell's `data-metric`.
    public var id: String
    /// The label.
    public var label: String
    /// The number, as text.
    public var value: String
    /// A second line, if any.
    public var detail: String?
    /// Whether the tile opens the metric sheet (a daily chart, breakdown and CSV).
    public var hasDetail: Bool
    /// Whether the value is a word (a breakdown's leading value) rather than a number.
    public var isWord: Bool
    /// A funnel step's bar: its users as a share of the first step's, 0 to 1; `nil` for a
    /// tile that is not a step.
    public var share: Double?
    /// The user the tile's detail names (the live feed's events'), whose user sheet the
    /// detail links to; `nil` when it names none.
    public var user: String?
    /// The screen whose paths sheet the tile links to (the Screens section's); `nil` for none.
    public var paths: String?

    /// Creates a tile.
    public init(
        id: String, label: String, value: String, detail: String? = nil, hasDetail: Bool = true, isWord: Bool = false, share: Double? = nil,
        user: String? = nil, paths: String? = nil
    ) {
        self.id = id
        self.label = label
        self.value = value
        self.detail = detail
        self.hasDetail = hasDetail
        self.isWord = isWord
        self.share = share
        self.user = user
        self.paths = paths
    }
}
