/// One item of a section: what a section's cells show.
public struct Tile: Identifiable, Hashable, Sendable {
    /// How a tile is drawn.
    public enum Style: Hashable, Sendable {
        /// A headline number, with its label above and its detail below.
        case headline
        /// A row of a ranked list, with the value right-aligned and a bar behind it as long
        /// as this share of the list's largest value, 0 to 1.
        case row(Double)
        /// The heading of a ranked list inside a section (a breakdown's metric).
        case heading
        /// A funnel step, with a bar as long as its users' share of the first step's, 0 to 1.
        case step(Double)
        /// An event of the live feed: its time as the value, its name as the label, a key
        /// property as the detail, and its user.
        case event
        /// What a section says when it has nothing to show.
        case empty
    }

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
    /// How the tile is drawn.
    public var style: Style
    /// The user the tile names (the live feed's events'), whose user sheet it links to;
    /// `nil` when it names none.
    public var user: String?
    /// The screen whose paths sheet the tile links to (the Screens section's); `nil` for none.
    public var paths: String?

    /// Creates a tile.
    public init(
        id: String, label: String, value: String, detail: String? = nil, hasDetail: Bool = true, style: Style = .headline,
        user: String? = nil, paths: String? = nil
    ) {
        self.id = id
        self.label = label
        self.value = value
        self.detail = detail
        self.hasDetail = hasDetail
        self.style = style
        self.user = user
        self.paths = paths
    }
}
