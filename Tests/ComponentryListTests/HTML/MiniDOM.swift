import ComponentryList

/// Just enough of a DOM to replay patches the way `HTMLRenderer.patchScript` does:
/// elements with ordered attributes, element children and text, parsed from the
/// renderer's own (well-formed, escaped) output.
final class Element {
    var tag: String
    var attributes: [(name: String, value: String)]
    var children: [Node] = []
    weak var parent: Element?

    enum Node {
        case element(Element)
        case text(String)
    }

    init(tag: String, attributes: [(name: String, value: String)]) {
        self.tag = tag
        self.attributes = attributes
    }

    var id: String? {
        get { attributes.first { $0.name == "id" }?.value }
        set { attributes = attributes.map { $0.name == "id" ? ("id", newValue ?? "") : $0 } }
    }

    /// Element children only, like `Element.children` in the DOM.
    var elementChildren: [Element] {
        children.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    var html: String {
        let attributes = attributes.map { " \($0.name)=\"\($0.value)\"" }.joined()
        let inner = children.map { node in
            switch node {
            case .element(let element): element.html
            case .text(let text): text
            }
        }.joined()
        return "<\(tag)\(attributes)>\(inner)</\(tag)>"
    }

    func byID(_ id: String) -> Element? {
        if self.id == id { return self }
        for child in elementChildren {
            if let found = child.byID(id) { return found }
        }
        return nil
    }

    func remove() {
        parent?.children.removeAll { if case .element(let element) = $0 { element === self } else { false } }
        parent = nil
    }

    /// `insertBefore(node, children[index] || null)`.
    func insert(_ element: Element, at index: Int) {
        let elements = elementChildren
        let position =
            index < elements.count
            ? children.firstIndex { if case .element(let e) = $0 { e === elements[index] } else { false } }!
            : children.count
        children.insert(.element(element), at: position)
        element.parent = self
    }

    /// Parses one element.
    static func parse(_ html: String) -> Element {
        var scanner = Substring(html)
        return parseElement(&scanner)
    }

    private static func parseElement(_ input: inout Substring) -> Element {
        precondition(input.first == "<")
        let end = input.firstIndex(of: ">")!
        let open = input[input.index(after: input.startIndex)..<end]
        input = input[input.index(after: end)...]
        let tag = String(open.prefix { $0 != " " })
        var attributes: [(name: String, value: String)] = []
        var rest = open.dropFirst(tag.count)
        while let equals = rest.firstIndex(of: "=") {
            let name = rest[..<equals].trimmingPrefix(" ")
            let valueStart = rest.index(equals, offsetBy: 2)
            let valueEnd = rest[valueStart...].firstIndex(of: "\"")!
            attributes.append((String(name), String(rest[valueStart..<valueEnd])))
            rest = rest[rest.index(after: valueEnd)...]
        }
        let element = Element(tag: tag, attributes: attributes)
        while !input.hasPrefix("</") {
            if input.first == "<" {
                let child = parseElement(&input)
                child.parent = element
                element.children.append(.element(child))
            } else {
                let text = input.prefix { $0 != "<" }
                element.children.append(.text(String(text)))
                input = input.dropFirst(text.count)
            }
        }
        input = input[input.index(after: input.firstIndex(of: ">")!)...]
        return element
    }

    /// Applies `patches` in order, step for step as the script does.
    func apply(_ patches: [DOMPatch]) {
        for patch in patches {
            switch patch {
            case .insert(let parent, let index, let html):
                byID(parent)!.insert(Element.parse(html), at: index)
            case .remove(let id):
                byID(id)!.remove()
            case .move(let id, let parent, let index, let newID):
                let node = byID(id)!
                node.remove()
                node.id = newID
                byID(parent)!.insert(node, at: index)
            case .replace(let id, let html):
                let old = byID(id)!
                let parent = old.parent!
                let index = parent.elementChildren.firstIndex { $0 === old }!
                old.remove()
                parent.insert(Element.parse(html), at: index)
            }
        }
    }
}
