extension Task where Success == Never, Failure == Never {
    /// Suspends for `seconds` (none if not positive), as `Task.sleep(for:)` does from iOS 16 on.
    static func sleep(seconds: Double) async throws {
        try await sleep(nanoseconds: seconds > 0 ? UInt64(min(seconds, 1e9) * 1e9) : 0)
    }
}
