/// The ordered components of a module (L3): add, insert, replace, remove and move them,
/// read their cells, route selection to them, and render them for a renderer.
///
/// Components with no items are hidden while their ``ListComponent/hidesWhenEmpty`` is
/// `true`; paths (``ItemPath``) count visible components only.
///
/// Cell kinds are registered lazily, the way a collection view registers reuse
/// identifiers: the first time a cell of a kind is read, the kind is appended to
/// ``cellKinds`` and ``onRegister`` runs, so a renderer prepares each kind exactly once
/// and only the kinds in use.
@MainActor
public final class ListDataSource {
    /// All components, visible or not, in order.
    public private(set) var components: [any ListComponent]
    /// The cell kinds read so far, in the order first read.
    public private(set) var cellKinds: [CellKind] = []
    /// Runs once for each new cell kind, when a cell of that kind is first read.
    public var onRegister: ((CellKind) -> Void)?
    private var registered: Set<CellKind> = []

    /// Creates an empty data source.
    public init() {
        components = []
    }

    /// Creates a data source holding `components`; throws if two share an id.
    public init(_ components: [any ListComponent]) throws(ListDataSourceError) {
        try Self.requireUniqueIDs(components)
        self.components = components
    }

    // MARK: Editing

    /// Appends `component`; throws if its id is in use.
    public func add(_ component: any ListComponent) throws(ListDataSourceError) {
        try insert(component, at: components.count)
    }

    /// Inserts `component` at `index` among all components, clamped to the first and
    /// last place; throws if its id is in use.
    public func insert(_ component: any ListComponent, at index: Int) throws(ListDataSourceError) {
        guard self.index(of: component.id) == nil else { throw .duplicateID(component.id) }
        components.insert(component, at: min(max(index, 0), components.count))
    }

    /// Puts `component` in the place of the component with the same id, or appends it.
    public func replace(with component: any ListComponent) {
        if let index = index(of: component.id) {
            components[index] = component
        } else {
            components.append(component)
        }
    }

    /// Replaces every component with `components`; throws, and changes nothing, if two
    /// share an id.
    public func replaceAll(with components: [any ListComponent]) throws(ListDataSourceError) {
        try Self.requireUniqueIDs(components)
        self.components = components
    }

    /// Removes the component called `id`, if any.
    public func remove(_ id: String) {
        if let index = index(of: id) { components.remove(at: index) }
    }

    /// Moves the component at `from` to `to` (an index after the removal, clamped to the
    /// first and last place), among all components; does nothing when there is no
    /// component at `from`.
    public func move(from: Int, to: Int) {
        guard components.indices.contains(from) else { return }
        let component = components.remove(at: from)
        components.insert(component, at: min(max(to, 0), components.count))
    }

    /// The component called `id`.
    public func component(_ id: String) -> (any ListComponent)? {
        index(of: id).map { components[$0] }
    }

    /// The index of the component called `id` among all components.
    public func index(of id: String) -> Int? {
        components.firstIndex { $0.id == id }
    }

    // MARK: Reading

    /// The components shown: all but those hidden while empty.
    public var visibleComponents: [any ListComponent] {
        components.filter { !($0.hidesWhenEmpty && $0.items.isEmpty) }
    }

    /// The cell of the item at `path` among the visible components, registering its kind
    /// if it is new; `nil` when there is no such item (a stale path).
    public func cell(at path: ItemPath) -> Cell? {
        Self.component(at: path, in: visibleComponents)?.cell(at: path.item).map(register)
    }

    /// Tells the visible component at `path.section` that its item was selected. A path
    /// with no item (a click from a page that is behind) is ignored and returns `false`.
    @discardableResult
    public func select(at path: ItemPath) -> Bool {
        Self.select(at: path, in: visibleComponents)
    }

    /// The visible components as rendered, registering new cell kinds.
    public func render() -> RenderedList {
        render(visibleComponents)
    }

    /// What the layout needs of the visible components.
    public func layoutSections() -> [LayoutSection] {
        let components = visibleComponents
        return layoutSections(components, rendered: render(components))
    }

    // MARK: For the module, which may show placeholders or an empty state instead

    func render(_ components: [any ListComponent]) -> RenderedList {
        RenderedList(
            sections: components.map { component in
                let rendered = component.render()
                for cell in [rendered.model.header, rendered.model.footer].compactMap(\.self) { register(cell) }
                for item in rendered.items { register(item.cell) }
                return rendered
            })
    }

    func layoutSections(_ components: [any ListComponent], rendered: RenderedList) -> [LayoutSection] {
        zip(components, rendered.sections).map { $0.layoutSection($1) }
    }

    /// Selects the item at `path` among `components`, if there is one.
    static func select(at path: ItemPath, in components: [any ListComponent]) -> Bool {
        component(at: path, in: components)?.select(at: path.item) ?? false
    }

    private static func component(at path: ItemPath, in components: [any ListComponent]) -> (any ListComponent)? {
        components.indices.contains(path.section) ? components[path.section] : nil
    }

    /// Throws for the first id used twice in `components`.
    static func requireUniqueIDs(_ components: [any ListComponent]) throws(ListDataSourceError) {
        var seen = Set<String>(minimumCapacity: components.count)
        for component in components where !seen.insert(component.id).inserted {
            throw .duplicateID(component.id)
        }
    }

    @discardableResult
    private func register(_ cell: Cell) -> Cell {
        if registered.insert(cell.kind).inserted {
            cellKinds.append(cell.kind)
            onRegister?(cell.kind)
        }
        return cell
    }
}
