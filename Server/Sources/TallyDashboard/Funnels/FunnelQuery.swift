import Foundation
public import TallyStore

/// What the ad-hoc funnel sheet asks for: its steps, window and breakdown, as the page's
/// address writes them (`steps=login,bill_created&window=1d&breakdown=plan`).
///
/// A query being drafted may hold fewer than two steps: the sheet then shows the picker
/// alone.
public struct FunnelQuery: Hashable, Sendable {
    /// The steps, in order: at most ``Funnel/maximumSteps``.
    public var steps: [FunnelStep]
    /// How long a chain may take from its first event.
    public var window: FunnelWindow
    /// `app_version`, `platform` or a segment property to break the funnel down by.
    public var breakdown: String?

    /// A funnel of `steps` within `window`, broken down by `breakdown`.
    public init(steps: [FunnelStep] = [], window: FunnelWindow = .day, breakdown: String? = nil) {
        self.steps = steps
        self.window = window
        self.breakdown = breakdown
    }

    /// Whether the query names enough steps to count.
    public var isComplete: Bool { steps.count >= 2 }

    /// Reads the sheet's parameters: `steps` (``TallyStore/FunnelStep/steps(parsing:)``),
    /// `window` (``FunnelWindow``) and `breakdown`; each may be missing.
    ///
    /// - Throws: ``PageQueryError`` naming the parameter that cannot be read.
    init(_ parameters: [String: String]) throws(PageQueryError) {
        self.init()
        if let text = parameters["steps"], !text.isEmpty {
            guard text.count <= 2_000, let steps = try? FunnelStep.steps(parsing: text), steps.count <= Funnel.maximumSteps else {
                throw .badParameter("steps", "up to \(Funnel.maximumSteps) event names separated by commas")
            }
            self.steps = steps
        }
        if let text = parameters["window"] {
            guard let window = FunnelWindow(text) else { throw .badParameter("window", "a window such as 30m, 1h or 7d, at most 90d") }
            self.window = window
        }
        if let name = parameters["breakdown"], !name.isEmpty {
            guard name.count <= 100 else { throw .badParameter("breakdown", "a property name") }
            breakdown = name
        }
    }

    /// Reads the sheet's form as the page's script sends it: `step=…` once per step (blanks
    /// skipped), `window=…` and `breakdown=…`; `nil` if it holds more than
    /// ``Funnel/maximumSteps`` steps, a window that does not read, or overlong text.
    init?(form: String) {
        let items = DashboardPage.formItems(form) ?? []
        let names = items.filter { $0.name == "step" }.compactMap(\.value).filter { !$0.isEmpty }
        guard names.count <= Funnel.maximumSteps, names.allSatisfy({ $0.count <= 100 }) else { return nil }
        self.init(steps: names.map { FunnelStep($0) })
        if let text = items.first(where: { $0.name == "window" })?.value, !text.isEmpty {
            guard let window = FunnelWindow(text) else { return nil }
            self.window = window
        }
        if let name = items.first(where: { $0.name == "breakdown" })?.value, !name.isEmpty {
            guard name.count <= 100 else { return nil }
            breakdown = name
        }
    }

    /// The query's URL parameters, without defaults.
    var queryItems: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if !steps.isEmpty { items.append(URLQueryItem(name: "steps", value: steps.map(\.description).joined(separator: ","))) }
        if window != .day { items.append(URLQueryItem(name: "window", value: window.description)) }
        if let breakdown { items.append(URLQueryItem(name: "breakdown", value: breakdown)) }
        return items
    }
}
