/// Why a ``ComponentFactory`` refused a registration.
public enum ComponentFactoryError: Error, Hashable, Sendable {
    /// The identifier of the component type named `type` is empty or only whitespace.
    case blankIdentifier(type: String)
    /// `identifier` is already taken by the type named `registered`, so `refused` was not
    /// registered.
    case duplicateIdentifier(String, registered: String, refused: String)
}
