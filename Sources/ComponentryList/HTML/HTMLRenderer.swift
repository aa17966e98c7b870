internal import Foundation

/// Renders a list of components as HTML for the dashboard, and turns each update into
/// DOM patches that ``patchScript`` applies.
///
/// ```swift
/// let renderer = HTMLRenderer()
/// let page = renderer.render(module.rendered)             // first load
/// module.onUpdate = { update in send(HTMLRenderer.json(renderer.patch(update))) }
/// ```
///
/// - Layout is CSS: a component's items are a grid whose columns follow the
///   distribution, whose gaps are the spacings and whose padding is the insets; items
///   keep the item ratio. A horizontal component is one row that scrolls sideways and
///   snaps (scroll-snap) per its ``ComponentLayout/snapping``.
/// - That CSS is one `<style>` element per component, first in the component's element,
///   with rules keyed by element id; no element has a `style` attribute. So a page whose
///   `Content-Security-Policy` allows no inline style but `<style>` elements with a nonce
///   (`style-src 'self' 'nonce-…'`) applies the layout: set ``styleNonce`` to the nonce of
///   each response, and pass it to ``patchScript`` for the `<style>` elements that patches
///   bring.
/// - Element ids are stable, made from identities only: `list-c-<component>` for a
///   component, `…-items` for its items, `…-i-<item>` for an item; identities are
///   encoded so ids are always valid and never collide.
/// - All text is escaped.
public struct HTMLRenderer: Sendable {
    /// The id of the list's root element; prefixes every other id.
    public var rootID: String
    /// An attribute each component's element carries, set to the component's id (such as
    /// `data-section`), for scripts and tests that find components by identity; none when `nil`.
    public var componentAttribute: String?
    /// The inner HTML of a cell the app renders itself (from a template, say), or `nil` for
    /// the default: one `<span data-field="name">` per field. What it returns is inserted as
    /// is, so it must escape what it shows (``HTMLText/escape(_:)``).
    public var cellContent: (@Sendable (Cell) -> String?)?
    /// The nonce each component's `<style>` element carries (`<style nonce="…">`): the one
    /// the response's `Content-Security-Policy` names in `style-src 'nonce-…'`, new for each
    /// response; no `nonce` attribute when `nil`.
    public var styleNonce: String?

    /// Creates a renderer whose root element has the id `rootID`.
    public init(
        rootID: String = "list", componentAttribute: String? = nil, cellContent: (@Sendable (Cell) -> String?)? = nil,
        styleNonce: String? = nil
    ) {
        self.rootID = rootID
        self.componentAttribute = componentAttribute
        self.cellContent = cellContent
        self.styleNonce = styleNonce
    }

    // MARK: Rendering

    /// The whole list: a root `div` holding one `section` per component.
    public func render(_ list: RenderedList) -> String {
        "<div id=\"\(HTMLText.escape(rootID))\" class=\"list\">" + list.sections.map(render).joined() + "</div>"
    }

    /// One component, with its items: a `section` holding its `<style>` (see ``styleNonce``),
    /// its header, its items' grid and its footer.
    public func render(_ section: ListSection<RenderedComponent, RenderedItem>) -> String {
        let component = section.model
        let id = elementID(ofComponent: component.id)
        let items = itemsID(ofComponent: component.id)
        let attribute = componentAttribute.map { " \(HTMLText.escape($0))=\"\(HTMLText.escape(component.id))\"" } ?? ""
        let nonce = styleNonce.map { " nonce=\"\(HTMLText.escape($0))\"" } ?? ""
        var html = "<section id=\"\(id)\" class=\"list-component\"\(attribute)>"
        html += "<style\(nonce)>\(styleSheet(of: component))</style>"
        if let header = component.header { html += "<header class=\"list-header\">\(render(header))</header>" }
        html += "<div id=\"\(items)\" class=\"list-items\">"
        html += section.items.map { render($0, in: component.id) }.joined()
        html += "</div>"
        if let footer = component.footer { html += "<footer class=\"list-footer\">\(render(footer))</footer>" }
        return html + "</section>"
    }

    /// One item: its cell, with the item's element id.
    public func render(_ item: RenderedItem, in component: String) -> String {
        render(item.cell, id: elementID(ofItem: item.id, inComponent: component))
    }

    private func render(_ cell: Cell, id: String? = nil) -> String {
        let kind = HTMLText.idPart(cell.kind.identifier)
        var html = "<div" + (id.map { " id=\"\($0)\"" } ?? "") + " class=\"cell cell-\(kind)\">"
        if let content = cellContent?(cell) { return html + content + "</div>" }
        for field in cell.fields {
            html += "<span data-field=\"\(HTMLText.escape(field.name))\">\(HTMLText.escape(field.value))</span>"
        }
        return html + "</div>"
    }

    // MARK: Element ids

    /// The element id of the component `id`.
    public func elementID(ofComponent id: String) -> String {
        HTMLText.idPart(rootID) + "-c-" + HTMLText.idPart(id)
    }

    /// The element id of the container of the items of the component `id`.
    public func itemsID(ofComponent id: String) -> String {
        elementID(ofComponent: id) + "-items"
    }

    /// The element id of the item `item` in the component `component`.
    public func elementID(ofItem item: ItemIdentity, inComponent component: String) -> String {
        elementID(ofComponent: component) + "-i-" + HTMLText.idPart(item.key)
    }

    // MARK: CSS

    /// The CSS of the component: the grid of its items, then rules for every item. It is
    /// what the component's `<style>` element holds.
    public func styleSheet(of component: RenderedComponent) -> String {
        let items = HTMLText.idSelector(itemsID(ofComponent: component.id))
        return "\(items){\(gridDeclarations(component))}" + itemRules(component, items: items)
    }

    /// The grid of a component's items, as declarations.
    private func gridDeclarations(_ component: RenderedComponent) -> String {
        let layout = component.layout
        let insets = layout.insets
        let gap = HTMLText.number(layout.interitemSpacing)
        var declarations = "display:grid;column-gap:\(gap)px;row-gap:\(HTMLText.number(layout.lineSpacing))px;"
        declarations += "padding:\([insets.top, insets.right, insets.bottom, insets.left].map { HTMLText.number($0) + "px" }.joined(separator: " "));"
        let track: String
        switch layout.distribution {
        case .columns(let count):
            let count = max(count, 1)
            track =
                component.arrangement == .vertical
                ? "repeat(\(count),minmax(0,1fr))"
                : "calc((100% - \(HTMLText.number(Double(count - 1) * layout.interitemSpacing))px) / \(count))"
        case .width(let width):
            track = component.arrangement == .vertical ? "repeat(auto-fill,\(HTMLText.number(width))px)" : "\(HTMLText.number(width))px"
        case .fraction(let fraction):
            let width = "calc((100% + \(gap)px) * \(HTMLText.number(fraction)) - \(gap)px)"
            track = component.arrangement == .vertical ? "repeat(auto-fill,\(width))" : width
        }
        if case .height(let height) = layout.itemRatio { declarations += "grid-auto-rows:\(HTMLText.number(height))px;" }
        switch component.arrangement {
        case .vertical:
            declarations += "grid-template-columns:\(track);"
        case .horizontal:
            declarations += "grid-auto-flow:column;grid-auto-columns:\(track);overflow-x:auto;"
            if layout.snapping != .none {
                declarations += "scroll-snap-type:x mandatory;scroll-padding-left:\(HTMLText.number(insets.left))px;"
            }
        }
        return declarations
    }

    /// Rules for every item of a component, whose items' element the selector `items`
    /// names: its shape and, in a row, its snap points.
    private func itemRules(_ component: RenderedComponent, items: String) -> String {
        let layout = component.layout
        var rules = ""
        if case .aspect(let ratio) = layout.itemRatio { rules += "\(items)>*{aspect-ratio:\(HTMLText.number(ratio))}" }
        guard component.arrangement == .horizontal else { return rules }
        switch layout.snapping {
        case .none:
            break
        case .leadingEdge:
            rules += "\(items)>*{scroll-snap-align:start}"
        case .paging:
            // `1 / fraction` of a tiny fraction is past any `Int`: cap it.
            let perPage: Int =
                switch layout.distribution {
                case .columns(let count): max(count, 1)
                case .fraction(let fraction) where fraction > 0:
                    Int(min(max(1 / fraction, 1), Double(Self.maximumItemsPerPage)))
                case .fraction, .width: 1
                }
            rules += "\(items)>:nth-child(\(perPage)n+1){scroll-snap-align:start}"
        }
        return rules
    }

    /// The most items a page of a `.fraction` row with paging holds, whatever the
    /// fraction: a million, far more than any row shows.
    static let maximumItemsPerPage = 1_000_000

    // MARK: Patches

    /// The DOM steps that turn the page rendered from `update.old` into the page
    /// rendered from `update.new`.
    public func patch(_ update: ListUpdate) -> [DOMPatch] {
        patch(from: update.old, applying: update.changes)
    }

    /// The DOM steps that replay `changes` on the page rendered from `old`: one step
    /// per change, except a reconfigured component, which is re-rendered whole.
    public func patch(from old: RenderedList, applying changes: [ListChange<RenderedComponent, RenderedItem>]) -> [DOMPatch] {
        var list = old
        var patches: [DOMPatch] = []
        patches.reserveCapacity(changes.count)
        func itemID(_ path: ItemPath) -> String {
            elementID(ofItem: list[path].id, inComponent: list.sections[path.section].id)
        }
        for change in changes {
            switch change {
            case .deleteItem(let path):
                patches.append(.remove(id: itemID(path)))
            case .deleteSection(let index):
                patches.append(.remove(id: elementID(ofComponent: list.sections[index].id)))
            case .moveSection(let from, let to):
                let id = elementID(ofComponent: list.sections[from].id)
                patches.append(.move(id: id, parent: rootID, index: to, newID: id))
            case .insertSection(let section, let index):
                patches.append(.insert(parent: rootID, index: index, html: render(section)))
            case .moveItem(let from, let to):
                let target = list.sections[to.section].id
                patches.append(
                    .move(
                        id: itemID(from), parent: itemsID(ofComponent: target), index: to.item,
                        newID: elementID(ofItem: list[from].id, inComponent: target)
                    ))
            case .insertItem(let item, let path):
                let component = list.sections[path.section].id
                patches.append(.insert(parent: itemsID(ofComponent: component), index: path.item, html: render(item, in: component)))
            case .reconfigureItem(let item, let path):
                patches.append(.replace(id: itemID(path), html: render(item, in: list.sections[path.section].id)))
            case .reconfigureSection(_, let index):
                list.apply(change)
                patches.append(.replace(id: elementID(ofComponent: list.sections[index].id), html: render(list.sections[index])))
                continue
            }
            list.apply(change)
        }
        return patches
    }

    /// `patches` as the JSON array ``patchScript`` reads.
    public static func json(_ patches: [DOMPatch]) -> String {
        let data = (try? JSONEncoder().encode(patches)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

extension HTMLRenderer {
    /// The list `module` shows, as last rendered.
    @MainActor
    public func render(_ module: ListModule) -> String {
        render(module.rendered)
    }
}
