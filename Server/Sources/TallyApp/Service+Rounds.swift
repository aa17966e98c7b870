import ServiceLifecycle

extension Service {
    /// Runs `round` at once and again `interval` after each round ends, until graceful
    /// shutdown, which cancels the round in progress (a store's round stops between two of
    /// its writes) or the wait.
    func runRounds(every interval: Duration, _ round: @escaping @Sendable () async -> Void) async {
        _ = try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await round()
                try await Task.sleep(for: interval)
            }
        }
    }
}
