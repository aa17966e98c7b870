public import Componentry
public import ComponentryList

extension DashboardPage: ResponderEventHandling {
    /// The page is the top of its chain.
    public var nextInChain: (any Responder)? { nil }

    public static func registerHandlers(in table: inout ResponderHandlerTable<DashboardPage>) {
        table.on(.moveSection) { page, move in page.pendingPatches += page.move(move.section, to: move.index) }
        table.on(.hideSection) { page, section in page.pendingPatches += page.setHidden(true, for: section) }
        table.on(.showSection) { page, section in page.pendingPatches += page.setHidden(false, for: section) }
    }

    /// Routes what the browser sent up the responder chain — from the element's section to
    /// the page — and returns the patches its handling produced.
    ///
    /// - Throws: ``BrowserEventError`` for an event the page does not know, a bad value, or
    ///   one nobody took; the page is unchanged then.
    public func receive(_ event: BrowserEvent) throws(BrowserEventError) -> [DOMPatch] {
        let origin: any Responder = event.section.flatMap { id in sections.first { $0.id == id } } ?? self
        pendingPatches = []
        defer { pendingPatches = [] }
        let taker: (any Responder)?
        switch event.name {
        case "move":
            guard let section = event.section, let index = event.value.flatMap({ Int($0) }) else {
                throw .badValue(event: event.name, value: event.value)
            }
            taker = origin.raise(.moveSection, SectionMove(section: section, index: index))
        case "hide", "show":
            guard let section = event.section else { throw .badValue(event: event.name, value: event.value) }
            taker = origin.raise(event.name == "hide" ? .hideSection : .showSection, section)
        default:
            throw .unknownEvent(event.name)
        }
        guard taker != nil else { throw .unhandled(event.name) }
        return pendingPatches
    }
}
