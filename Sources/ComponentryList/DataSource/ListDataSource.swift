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

    /// Creates a data source holding `components`, whose ids must be unique.
    public init(_ components: [any ListComponent] = []) {
        self.components = []
        replaceAll(with: components)
    }

    // MARK: Editing

    /// Appends `component`. Its id must not be in use.
    public func add(_ component: any ListComponent) {
        insert(component, at: components.count)
    }

    /// Inserts `component` at `index` among all components. Its id must not be in use.
    public func insert(_ component: any ListComponent, at index: Int) {
        precondition(self.index(of: component.id) == nil, "duplicate component id \(component.id)")
        components.insert(component, at: index)
    }

    /// Puts `component` in the place of the component with the same id, or appends it.
    public func replace(with component: any ListComponent) {
        if let index = index(of: component.id) {
            components[index] = component
        } else {
            add(component)
        }
    }

    /// Replaces every component with `components`, whose ids must be unique.
    public func replaceAll(with components: [any ListComponent]) {
        self.components = []
        components.forEach(add)
    }

    /// Removes the component called `id`, if any.
    public func remove(_ id: String) {
        if let index = index(of: id) { components.remove(at: index) }
    }

    /// Moves the component at `from` to `to` (an index after the removal), among all
    /// components.
    public func move(from: Int, to: Int) {
        components.insert(components.remove(at: from), at: to)
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
    /// if it is new.
    public func cell(at path: ItemPath) -> Cell {
        register(visibleComponents[path.section].cell(at: path.item))
    }

    /// Tells the visible component at `path.section` that its item was selected.
    public func select(at path: ItemPath) {
        visibleComponents[path.section].select(at: path.item)
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
        RenderedList(sections: components.map { component in
            let rendered = component.render()
            for cell in [rendered.model.header, rendered.model.footer].compactMap(\.self) { register(cell) }
            for item in rendered.items { register(item.cell) }
            return rendered
        })
    }

    func layoutSections(_ components: [any ListComponent], rendered: RenderedList) -> [LayoutSection] {
        zip(components, rendered.sections).map { $0.layoutSection($1) }
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
