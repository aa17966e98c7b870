import Foundation
import TallyStore

extension DashboardPage {
    /// Saves the page's filter as the app's segment `name` (replacing one of that name), then
    /// lists the app's segments again. A refusal — no filter, a bad name, the app's limit —
    /// is sent to the browser as an error, and changes nothing; so is the save of a user
    /// whose ``role`` may not edit the app.
    public func saveSegment(named name: String) async {
        guard let store else { return }
        guard role.canEdit else {
            send(PageMessage(error: BrowserEventError.notAllowed("save-segment", role: role).description))
            return
        }
        let filter = viewModel.query.value.filter
        guard !filter.isEmpty else {
            send(PageMessage(error: "Add a filter first: a segment keeps the filter's conditions."))
            return
        }
        do {
            try await store.segments.save(app: app.id, name: name, filter: filter)
        } catch {
            send(PageMessage(error: Self.refusal(error, doing: "saved")))
            return
        }
        await readSavedSegments()
    }

    /// Deletes the app's segment `name`, then lists the app's segments again; refused, as
    /// ``saveSegment(named:)`` is, when the user's ``role`` may not edit the app.
    public func deleteSegment(named name: String) async {
        guard let store else { return }
        guard role.canEdit else {
            send(PageMessage(error: BrowserEventError.notAllowed("delete-segment", role: role).description))
            return
        }
        do {
            try await store.segments.delete(app: app.id, name: name)
        } catch {
            send(PageMessage(error: Self.refusal(error, doing: "deleted")))
            return
        }
        await readSavedSegments()
    }

    /// Reads the app's saved segments into the view model, which redraws the filter bar
    /// (and the filter sheet) when they changed. A failed read keeps the list shown.
    func readSavedSegments() async {
        guard let store, let segments = try? await store.segments.saved(app: app.id) else { return }
        viewModel.savedSegments.value = segments
    }

    /// What the browser is told when the store refused to change a segment.
    private static func refusal(_ error: any Error, doing action: String) -> String {
        (error as? TallyStoreError)?.description ?? "The segment could not be \(action): \(error)"
    }
}
