public import Componentry
import ComponentryList
import Foundation
import TallyEvent

extension DashboardPage: ResponderEventHandling {
    /// The page is the top of its chain.
    public var nextInChain: (any Responder)? { nil }

    public static func registerHandlers(in table: inout ResponderHandlerTable<DashboardPage>) {
        table.on(.moveSection) { page, move in page.send(PageMessage(patches: page.move(move.section, to: move.index))) }
        table.on(.hideSection) { page, section in page.send(PageMessage(patches: page.setHidden(true, for: section))) }
        table.on(.showSection) { page, section in page.send(PageMessage(patches: page.setHidden(false, for: section))) }
        table.on(.search) { page, text in page.viewModel.search.value = text }
        table.on(.showSheet) { page, sheet in page.change { $0.sheet = sheet } }
        table.on(.chooseRange) { page, range in
            page.change {
                $0.from = range.lowerBound
                $0.date = range.upperBound
            }
        }
        table.on(.compare) { page, compare in page.change { $0.compare = compare } }
        table.on(.reload) { page, _ in page.reload() }
    }

    /// Routes what the browser sent up the responder chain — from the element's section to
    /// the page — and sends the browser what its handling changed through ``outbox``.
    ///
    /// - Throws: ``BrowserEventError`` for an event the page does not know, a bad value, a
    ///   reload while one runs, or an event nobody took; the page is unchanged then.
    public func receive(_ event: BrowserEvent) throws(BrowserEventError) {
        let origin: any Responder = event.section.flatMap { id in sections.first { $0.id == id } } ?? self
        if let section = event.section, viewModel.layout.section(section) == nil { throw .unknownSection(section) }
        let taker: (any Responder)?
        switch event.name {
        case "move":
            guard let section = event.section, let index = event.value.flatMap({ Int($0) }) else { throw .badValue(event) }
            taker = origin.raise(.moveSection, SectionMove(section: section, index: index))
        case "hide", "show":
            guard let section = event.section else { throw .badValue(event) }
            let hides = event.name == "hide" && event.value != "off"
            taker = origin.raise(hides ? .hideSection : .showSection, section)
        case "search":
            let text = String((event.value ?? "").lowercased().trimmingCharacters(in: .whitespacesAndNewlines).prefix(100))
            taker = origin.raise(.search, text)
        case "sheet":
            guard let sheet = event.value.flatMap(PageQuery.Sheet.init(name:)) else { throw .badValue(event) }
            taker = origin.raise(.showSheet, sheet)
        case "close-sheet":
            taker = origin.raise(.showSheet, nil)
        case "range":
            guard let preset = event.value.flatMap(PageQuery.Preset.init(rawValue:)) else { throw .badValue(event) }
            taker = origin.raise(.chooseRange, preset.range(today: today))
        case "custom":
            let form = URLComponents(string: "?" + (event.value ?? ""))?.queryItems ?? []
            func day(_ name: String) -> CalendarDay? { form.first { $0.name == name }?.value.flatMap { CalendarDay(shown: $0) } }
            guard let from = day("from"), let to = day("date"), from <= to, from.distance(to: to) < PageQuery.maximumDays else {
                throw .badValue(event)
            }
            taker = origin.raise(.chooseRange, from...to)
        case "compare":
            guard let value = event.value, ["on", "off"].contains(value) else { throw .badValue(event) }
            taker = origin.raise(.compare, value == "on")
        case "reload":
            guard !viewModel.isRefreshing.value else { throw .busy }
            taker = origin.raise(.reload)
        default:
            throw .unknownEvent(event.name)
        }
        guard taker != nil else { throw .unhandled(event.name) }
    }

    /// Today in the page's time zone.
    var today: CalendarDay {
        CalendarDay(Date(), in: TimeZone(identifier: viewModel.query.value.timeZone ?? app.timeZone) ?? .gmt)
    }

    /// Applies `edit` to the page's query and sends the browser what changed: the address,
    /// the date button, the sheet; a new range is read from the store.
    func change(_ edit: (inout PageQuery) -> Void) {
        let old = viewModel.query.value
        let new = old.with(edit)
        guard new != old else { return }
        viewModel.query.value = new
        if new.sheet != old.sheet { syncDetail() }
        let buttons: [DOMPatch] = [
            .replace(id: "date-button", html: DashboardViews.dateButton(for: self)),
            .replace(id: "debug-button", html: DashboardViews.debugButton(for: self)),
        ]
        send(PageMessage(patches: buttons + refreshSheet(), url: url))
        if new.with({ $0.sheet = nil }) != old.with({ $0.sheet = nil }) { reload() }
    }
}

extension PageQuery.Sheet {
    /// The sheet a browser event's value names: `date`, `sections` or `metric:KEY`.
    init?(name: String) {
        switch name {
        case "date": self = .date
        case "sections": self = .sections
        case _ where name.hasPrefix("metric:") && name.count > 7 && name.count <= 207: self = .metric(String(name.dropFirst(7)))
        default: return nil
        }
    }
}
