public import Componentry

/// The state of one open dashboard, as observable values: the page and its sections react
/// to changes of these.
///
/// Sections read it through their ``Componentry/ComponentContext``; the page sets it from
/// what the browser asks and what the store answers.
@MainActor
public final class DashboardViewModel {
    /// The layout the page was built from.
    public let layout: DashboardLayout
    /// The local day shown, `YYYY-MM-DD`.
    public let date: Observable<String>
    /// The sections' order and the hidden ones: the user's choice, saved per user.
    public let order: Observable<ComponentOrder>
    /// The data of the shown day, once loaded.
    public let report = Observable<DayReport?>(nil)

    /// Creates the state of a page showing `date`, its sections in `order` (the layout's own
    /// order when `nil`).
    public init(layout: DashboardLayout, date: String, order: ComponentOrder? = nil) {
        self.layout = layout
        self.date = Observable(date)
        self.order = Observable(order ?? ComponentOrder(layout.sections.map(\.id)))
    }
}
