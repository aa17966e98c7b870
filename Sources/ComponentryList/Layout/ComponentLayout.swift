/// How one component sizes and spaces its items (L5): insets, spacing, how many items
/// share a row, and their shape.
///
/// A value with defaults for everything, so a component names only what it changes:
///
/// ```swift
/// ComponentLayout(insets: ListInsets(all: 16), interitemSpacing: 8, distribution: .columns(3), itemRatio: .aspect(1.5))
/// ```
///
/// A component may still size any single item itself with
/// ``ListComponent/size(for:proposed:)``.
public struct ComponentLayout: Hashable, Sendable {
    /// How wide items are, relative to the row.
    public enum Distribution: Hashable, Sendable {
        /// `n` items per row (for a horizontal component: `n` visible across the container).
        case columns(Int)
        /// Items of this absolute width; as many per row as fit, at least one.
        case width(Double)
        /// Items this fraction of the row, spacing included: `.fraction(0.5)` is two per
        /// row; `.fraction(0.4)` in a horizontal component shows two and a half.
        case fraction(Double)
    }

    /// How tall items are.
    public enum ItemRatio: Hashable, Sendable {
        /// Width divided by height: `.aspect(2)` is twice as wide as tall.
        case aspect(Double)
        /// An absolute height.
        case height(Double)
    }

    /// Where a horizontal component comes to rest after a scroll.
    public enum Snapping: Hashable, Sendable {
        /// Anywhere.
        case none
        /// At multiples of the container's width.
        case paging
        /// With an item's leading edge at the leading inset.
        case leadingEdge
    }

    /// Space around the items.
    public var insets: ListInsets
    /// Space between rows.
    public var lineSpacing: Double
    /// Space between items of a row.
    public var interitemSpacing: Double
    /// How wide items are.
    public var distribution: Distribution
    /// How tall items are.
    public var itemRatio: ItemRatio
    /// The height of the header, above the top inset; 0 when there is none.
    public var headerHeight: Double
    /// The height of the footer, below the bottom inset; 0 when there is none.
    public var footerHeight: Double
    /// Where a horizontal component comes to rest; vertical components ignore it.
    public var snapping: Snapping

    /// Creates a layout; by default one full-width item per row, 44 points tall.
    public init(
        insets: ListInsets = .zero,
        lineSpacing: Double = 0,
        interitemSpacing: Double = 0,
        distribution: Distribution = .columns(1),
        itemRatio: ItemRatio = .height(44),
        headerHeight: Double = 0,
        footerHeight: Double = 0,
        snapping: Snapping = .leadingEdge
    ) {
        self.insets = insets
        self.lineSpacing = lineSpacing
        self.interitemSpacing = interitemSpacing
        self.distribution = distribution
        self.itemRatio = itemRatio
        self.headerHeight = headerHeight
        self.footerHeight = footerHeight
        self.snapping = snapping
    }

    /// The width items are laid out in: the container minus the side insets.
    @inlinable
    public func rowWidth(in environment: ListEnvironment) -> Double {
        max(0, environment.containerWidth - insets.left - insets.right)
    }

    /// The size of an item that does not size itself, in `environment`; each side in
    /// `0...ListLayout.maximumLength`, whatever the style holds.
    public func itemSize(in environment: ListEnvironment) -> ListSize {
        clamped.unclampedItemSize(in: environment).clamped
    }

    /// The style with every length in `0...ListLayout.maximumLength` (NaN as 0), so
    /// that no sum of lengths overflows and none is NaN.
    var clamped: ComponentLayout {
        let length = ListLayout.clampedLength
        var style = self
        style.insets = ListInsets(top: length(insets.top), left: length(insets.left), bottom: length(insets.bottom), right: length(insets.right))
        style.lineSpacing = length(lineSpacing)
        style.interitemSpacing = length(interitemSpacing)
        style.headerHeight = length(headerHeight)
        style.footerHeight = length(footerHeight)
        switch distribution {
        case .columns: break
        case .width(let width): style.distribution = .width(length(width))
        case .fraction(let fraction): style.distribution = .fraction(length(fraction))
        }
        switch itemRatio {
        case .aspect(let ratio): style.itemRatio = .aspect(length(ratio))
        case .height(let height): style.itemRatio = .height(length(height))
        }
        return style
    }

    private func unclampedItemSize(in environment: ListEnvironment) -> ListSize {
        let row = rowWidth(in: environment)
        let width: Double
        switch distribution {
        case .columns(let count):
            let count = Double(max(count, 1))
            width = (row - (count - 1) * interitemSpacing) / count
        case .width(let absolute):
            width = absolute
        case .fraction(let fraction):
            width = (row + interitemSpacing) * fraction - interitemSpacing
        }
        let clamped = max(0, width)
        switch itemRatio {
        case .aspect(let ratio):
            return ListSize(width: clamped, height: ratio > 0 ? clamped / ratio : 0)
        case .height(let height):
            return ListSize(width: clamped, height: height)
        }
    }
}
