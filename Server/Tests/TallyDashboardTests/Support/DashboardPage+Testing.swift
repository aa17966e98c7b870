import Componentry
import ComponentryList
import Foundation
import TallyEvent

@testable import TallyDashboard
@testable import TallyStore

extension App {
    /// An app that exists only in tests of pages that read no store.
    static let test = App(id: AppID(rawValue: 1), name: "Bills", timeZone: "UTC", acceptedEventAge: App.defaultAcceptedEventAge, createdAt: Date())
}

extension DashboardPage {
    /// A page of `app` showing the day `date`.
    convenience init(date: String, order: ComponentOrder? = nil, app: App = .test, store: EventStore? = nil) {
        self.init(app: app, layout: .default, query: PageQuery(date: CalendarDay(shown: date)!), order: order, store: store)
    }

    /// Hands `event` to the page and returns the patches it sent.
    func patches(receiving event: BrowserEvent) throws(BrowserEventError) -> [DOMPatch] {
        var patches: [DOMPatch] = []
        outbox = { patches += $0.patches }
        defer { outbox = nil }
        try receive(event)
        return patches
    }
}
