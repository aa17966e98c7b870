public import Componentry
import ComponentryList
import Foundation
import TallyEvent
import TallyStore

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
        table.on(.setFilter) { page, filter in page.setFilter(filter) }
        table.on(.saveSegment) { page, name in Task { await page.saveSegment(named: name) } }
        table.on(.deleteSegment) { page, name in Task { await page.deleteSegment(named: name) } }
        table.on(.setMemberRole) { page, change in Task { await page.setRole(change.role, ofMemberNamed: change.name) } }
        table.on(.removeMember) { page, name in Task { await page.removeMember(named: name) } }
        table.on(.saveAlert) { page, rule in Task { await page.saveAlert(rule) } }
        table.on(.deleteAlert) { page, name in Task { await page.deleteAlert(named: name) } }
        table.on(.addAnnotation) { page, note in Task { await page.addAnnotation(note) } }
        table.on(.deleteAnnotation) { page, id in Task { await page.deleteAnnotation(id) } }
        table.on(.navigate) { page, target in page.navigate(to: target.query, notice: target.ignoredFilter) }
        table.on(.readOlderEvents) { page, cursor in Task { await page.readOlderEvents(before: cursor) } }
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
            guard sheet != .members || role.canManageMembers else { throw .notAllowed("sheet members", role: role) }
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
        case "expand":
            guard event.section != nil, let value = event.value, ["on", "off"].contains(value) else { throw .badValue(event) }
            taker = origin.raise(.expandList, value == "on")
        case "reload":
            guard !viewModel.isRefreshing.value else { throw .busy }
            taker = origin.raise(.reload)
        case "filters":
            guard let text = event.value, text.count <= PageQuery.maximumFilterLength, let filter = try? SegmentFilter(parsing: text) else {
                throw .badValue(event)
            }
            taker = origin.raise(.setFilter, filter)
        case "remove-filter":
            let filter = viewModel.query.value.filter
            guard let index = event.value.flatMap({ Int($0) }), filter.conditions.indices.contains(index) else { throw .badValue(event) }
            taker = origin.raise(.setFilter, filter.removing(at: index))
        case "add-filter":
            guard let condition = event.value.flatMap(condition(form:)) else { throw .badValue(event) }
            taker = origin.raise(.setFilter, viewModel.query.value.filter.setting(condition))
        case "save-segment":
            guard role.canEdit else { throw .notAllowed(event.name, role: role) }
            guard let form = event.value, form.utf8.count <= Self.maximumSegmentFormLength,
                let name = Self.formItems(form)?.first(where: { $0.name == "name" })?.value
            else { throw .badValue(event) }
            taker = origin.raise(.saveSegment, name)
        case "delete-segment":
            guard role.canEdit else { throw .notAllowed(event.name, role: role) }
            guard let name = event.value, name.utf8.count <= Self.maximumSegmentFormLength else { throw .badValue(event) }
            taker = origin.raise(.deleteSegment, name)
        case "add-member":
            guard role.canManageMembers else { throw .notAllowed(event.name, role: role) }
            let items = event.value.flatMap { $0.utf8.count <= Self.maximumSegmentFormLength ? Self.formItems($0) : nil } ?? []
            guard let name = items.first(where: { $0.name == "name" })?.value?.trimmingCharacters(in: .whitespaces), !name.isEmpty,
                let role = items.first(where: { $0.name == "role" })?.value.flatMap(AppRole.init(rawValue:))
            else { throw .badValue(event) }
            taker = origin.raise(.setMemberRole, MemberChange(name: name, role: role))
        case "remove-member":
            guard role.canManageMembers else { throw .notAllowed(event.name, role: role) }
            guard let name = event.value, !name.isEmpty, name.count <= DashboardUser.maximumNameLength else { throw .badValue(event) }
            taker = origin.raise(.removeMember, name)
        case "add-alert":
            guard role.canEdit else { throw .notAllowed(event.name, role: role) }
            guard let form = event.value, form.utf8.count <= Self.maximumAlertFormLength, let items = Self.formItems(form) else {
                throw .badValue(event)
            }
            func field(_ name: String) -> String { items.first { $0.name == name }?.value ?? "" }
            let rule: AlertRule
            do {
                rule = try AlertRule(
                    name: field("name"), metric: AlertMetric(parsing: field("metric")), condition: AlertCondition(parsing: field("condition")),
                    webhook: field("webhook"), secret: AlertRule.generateSecret())
            } catch {
                send(PageMessage(error: error.description))
                return
            }
            taker = origin.raise(.saveAlert, rule)
        case "delete-alert":
            guard role.canEdit else { throw .notAllowed(event.name, role: role) }
            guard let name = event.value, !name.isEmpty, name.count <= AlertRule.maximumNameLength else { throw .badValue(event) }
            taker = origin.raise(.deleteAlert, name)
        case "add-annotation":
            guard role.canEdit else { throw .notAllowed(event.name, role: role) }
            let items = event.value.flatMap { $0.utf8.count <= Self.maximumAlertFormLength ? Self.formItems($0) : nil } ?? []
            guard let day = items.first(where: { $0.name == "day" })?.value.flatMap({ CalendarDay(shown: $0) }),
                let text = items.first(where: { $0.name == "text" })?.value
            else { throw .badValue(event) }
            taker = origin.raise(.addAnnotation, NewAnnotation(day: day, text: text))
        case "delete-annotation":
            guard role.canEdit else { throw .notAllowed(event.name, role: role) }
            guard let id = event.value.flatMap({ Int64($0) }) else { throw .badValue(event) }
            taker = origin.raise(.deleteAnnotation, id)
        case "filter-property":
            guard let name = event.value, name.isEmpty || filterProperties.contains(where: { $0.name == name }) else { throw .badValue(event) }
            taker = origin.raise(.showSheet, .filter(property: name.isEmpty ? nil : name))
        case "funnel":
            guard let funnel = event.value.flatMap(FunnelQuery.init(form:)) else { throw .badValue(event) }
            taker = origin.raise(.showSheet, .funnel(funnel))
        case "user-search":
            guard let form = event.value, form.utf8.count <= Self.maximumUserSearchFormLength,
                let prefix = Self.formItems(form)?.first(where: { $0.name == "prefix" })?.value, prefix.count <= PageQuery.maximumUserText
            else { throw .badValue(event) }
            taker = origin.raise(.showSheet, .users(prefix: prefix))
        case "paths":
            guard let form = event.value, form.utf8.count <= Self.maximumPathsFormLength, var paths = Self.formItems(form).flatMap(PathQuery.init)
            else { throw .badValue(event) }
            // Another kind of step: the start picked was of the other kind, so the new kind's first is.
            if case .paths(let shown)? = viewModel.query.value.sheet, shown.kind != paths.kind {
                paths.start = viewModel.report.value?.pathStarts(paths.kind).first ?? ""
            }
            taker = origin.raise(.showSheet, .paths(paths))
        case "older-events":
            guard let cursor = event.value.flatMap(UserTimeline.Cursor.init) else { throw .badValue(event) }
            taker = origin.raise(.readOlderEvents, cursor)
        case "navigate":
            let items = URLComponents(string: "?" + (event.value ?? "").drop { $0 == "?" })?.queryItems ?? []
            var parameters: [String: String] = [:]
            for item in items where parameters[item.name] == nil { parameters[item.name] = item.value ?? "" }
            guard let (query, ignored) = try? PageQuery.reading(parameters, today: today) else { throw .badValue(event) }
            taker = origin.raise(.navigate, PageNavigation(query: query, ignoredFilter: ignored))
        default:
            throw .unknownEvent(event.name)
        }
        guard taker != nil else { throw .unhandled(event.name) }
    }

    /// The longest value a `save-segment` or `delete-segment` event takes: a name of 64
    /// characters, percent-encoded, has room; the store checks the name itself.
    static let maximumSegmentFormLength = 1_024
    /// The longest value an `add-alert` or `add-annotation` event takes: a webhook URL of
    /// ``AlertRule/maximumURLLength`` bytes and a metric, percent-encoded, have room.
    static let maximumAlertFormLength = 16_384
    /// The longest value a `user-search` event takes: the search form, with a prefix of up to
    /// ``PageQuery/maximumUserText`` characters percent-encoded and the page's address.
    static let maximumUserSearchFormLength = 16_384
    /// The longest value a `paths` event takes: the paths form, with a start of up to
    /// ``PathQuery/maximumStartLength`` characters percent-encoded and the page's address.
    static let maximumPathsFormLength = 32_768

    /// Today in the page's time zone.
    var today: CalendarDay { CalendarDay(Date(), in: timeZone) }

    /// The fields of a form as the page's script sends it (`URLSearchParams`, which writes a
    /// space as `+`); `nil` if it does not read.
    nonisolated static func formItems(_ form: String) -> [URLQueryItem]? {
        URLComponents(string: "?" + form.replacingOccurrences(of: "+", with: "%20"))?.queryItems
    }

    /// The condition the filter sheet's form names, as the page's script sends it:
    /// `property=…&operator=is|is_not`, then `value=…` per value ticked and `other=…` typed;
    /// `nil` without a property the page may filter by or without a value.
    func condition(form: String) -> SegmentFilter.Condition? {
        let items = Self.formItems(form) ?? []
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        guard let property = value("property"), filterProperties.contains(where: { $0.name == property }) else { return nil }
        var values = items.filter { $0.name == "value" }.compactMap(\.value)
        if let other = value("other")?.trimmingCharacters(in: .whitespaces), !other.isEmpty { values.append(other) }
        var seen: Set<String> = []
        values = values.filter { seen.insert($0).inserted }
        guard !values.isEmpty, values.count <= SegmentFilter.maximumValues, values.allSatisfy({ $0.count <= 200 }) else { return nil }
        return SegmentFilter.Condition(property: property, isNegated: value("operator") == "is_not", values: values)
    }

    /// Applies `edit` to the page's query and sends the browser what changed: the address
    /// (a new entry of its history when `addsHistory`), the buttons and the filter bar, the
    /// sheet; a new range or filter is read from the store.
    func change(addsHistory: Bool = false, _ edit: (inout PageQuery) -> Void) {
        let old = viewModel.query.value
        let new = old.with(edit)
        guard new != old else { return }
        let back = addsHistory ? "/apps/\(app.id.rawValue)?\(old.with { $0.sheet = nil }.queryString)" : nil
        viewModel.query.value = new
        if new.sheet != old.sheet { syncDetail() }
        let buttons: [DOMPatch] = [
            .replace(id: "date-button", html: DashboardViews.dateButton(for: self)),
            .replace(id: "debug-button", html: DashboardViews.debugButton(for: self)),
            .replace(id: "filter-bar", html: DashboardViews.filterBar(for: self)),
        ]
        send(PageMessage(patches: buttons + refreshSheet(), url: url, back: back))
        if new.with({ $0.sheet = nil }) != old.with({ $0.sheet = nil }) {
            reload()
        } else if new.sheet != old.sheet {
            reloadSheetData()
        }
    }
}

/// Where the browser went back or forward to: the page's address there, and why its filter
/// was left out, if it was.
public struct PageNavigation: Hashable, Sendable {
    /// The query of the address.
    public var query: PageQuery
    /// Why the address's filter does not read, if it does not.
    public var ignoredFilter: String?
}

extension PageQuery.Sheet {
    /// The sheet a browser event's value names: `date`, `sections`, `metric:KEY`, `filter`,
    /// `filter:PROPERTY`, `funnel`, `user:ID`, `users`, `users:PREFIX`, `paths` or
    /// `paths:SCREEN`, `members` or `alerts`.
    init?(name: String) {
        switch name {
        case "date": self = .date
        case "sections": self = .sections
        case "filter": self = .filter(property: nil)
        case "funnel": self = .funnel(FunnelQuery())
        case "users": self = .users(prefix: "")
        case "members": self = .members
        case "alerts": self = .alerts
        case "paths": self = .paths(PathQuery())
        case _ where name.hasPrefix("paths:") && name.count > 6 && PathQuery.isValidStart(String(name.dropFirst(6))):
            self = .paths(PathQuery(start: String(name.dropFirst(6))))
        case _ where name.hasPrefix("user:") && name.count > 5 && name.count <= 5 + PageQuery.maximumUserText:
            self = .user(String(name.dropFirst(5)))
        case _ where name.hasPrefix("users:") && name.count <= 6 + PageQuery.maximumUserText:
            self = .users(prefix: String(name.dropFirst(6)))
        case _ where name.hasPrefix("metric:") && name.count > 7 && name.count <= 207: self = .metric(String(name.dropFirst(7)))
        case _ where name.hasPrefix("filter:") && name.count > 7 && name.count <= 107: self = .filter(property: String(name.dropFirst(7)))
        default: return nil
        }
    }
}
