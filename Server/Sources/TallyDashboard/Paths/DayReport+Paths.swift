import TallyStore

extension DayReport {
    /// What the paths sheet offers to start from: the range's screens, or its event names,
    /// most counted first (ties by name), as the Screens and Top events sections rank them;
    /// a name the sheet's address could not hold is left out.
    func pathStarts(_ kind: Paths.Kind) -> [String] {
        (kind == .screen ? screenViews : eventCounts).sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map(\.key).filter {
            !$0.isEmpty && PathQuery.isValidStart($0)
        }
    }
}
