/// An action with its target type erased, so that calling is not generic.
struct MediatorAction: Sendable {
    /// A target's handler for actions it does not declare.
    typealias NotFound = @Sendable (any MediatorTarget, MediatorCall) throws -> any Sendable

    /// Where the action runs.
    enum Body: Sendable {
        case sync(@Sendable (any MediatorTarget, MediatorParameters) throws -> any Sendable)
        case mainActor(@MainActor @Sendable (any MediatorTarget, MediatorParameters) throws -> any Sendable)
        case async(@Sendable (any MediatorTarget, MediatorParameters) async throws -> any Sendable)
    }

    /// Whether a URL may call the action.
    let allowsURLCalls: Bool
    let body: Body
}
