import TallyStore

extension DashboardPage {
    /// Counts the paths of `paths` for `query` (its range, time zone, filter and debug
    /// builds), unless they were counted for that query already and not `force`. Returns
    /// whether it kept what it read: the answer to a query the page has left since (an
    /// earlier choice in the form) is dropped, so a newer query's answer is never replaced.
    func readPaths(_ paths: PathQuery, for query: PageQuery, force: Bool, from store: EventStore) async -> Bool {
        guard force || viewModel.paths?.query != query else { return false }
        let report: PathsReport
        do {
            report = .counted(
                try await reads.sheets.paths.read(SheetReads.Key(app: shownApp, query: query)) { [reads, shownApp] in
                    try await reads.run {
                        try await store.metrics.paths(
                            from: paths.start, kind: paths.kind, direction: paths.direction, depth: paths.depth,
                            in: query.scope(of: shownApp))
                    }
                })
        } catch let error as TallyStoreError {
            report = .failed(error.description)
        } catch {
            report = .failed("The paths could not be counted: \(error)")
        }
        guard viewModel.query.value == query else { return false }
        viewModel.paths = (query, report)
        return true
    }
}
