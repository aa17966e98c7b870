import Foundation
import Testing

extension Trait where Self == ConditionTrait {
    /// Runs a suite of system tests only when `TALLY_SYSTEM_TESTS=1`: they load both cores
    /// with child processes for minutes, so `.ci/run` runs them on their own after the other
    /// tests, whose timeouts they would otherwise squeeze.
    static var systemTests: Self {
        .enabled(
            if: ProcessInfo.processInfo.environment["TALLY_SYSTEM_TESTS"] == "1",
            "system tests run with TALLY_SYSTEM_TESTS=1 (.ci/run runs them after the other tests)")
    }
}
