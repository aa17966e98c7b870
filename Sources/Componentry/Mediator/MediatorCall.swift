public import Foundation

/// One call through a ``Mediator``, as interceptors, fallbacks and recordings see it.
public struct MediatorCall: Sendable {
    /// Where a call came from.
    public enum Origin: Hashable, Sendable {
        /// Code in the process called the mediator.
        case inProcess
        /// A URL was opened (``Mediator/call(_:_:as:isolation:)``): only actions that allow URL calls
        /// run.
        case url(URL)
    }

    /// The target's name.
    public let target: String
    /// The action's name.
    public let action: String
    /// The parameters the action gets.
    public let parameters: MediatorParameters
    /// Where the call came from.
    public let origin: Origin

    /// A call of `action` on `target` with `parameters`, made from `origin`.
    @inlinable
    public init(target: String, action: String, parameters: MediatorParameters = [:], origin: Origin = .inProcess) {
        self.target = target
        self.action = action
        self.parameters = parameters
        self.origin = origin
    }
}
