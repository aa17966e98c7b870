extension ComponentFactoryError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .blankIdentifier(let type):
            "\(type) has a blank identifier"
        case .duplicateIdentifier(let identifier, let registered, let refused):
            "identifier \"\(identifier)\" of \(refused) is already registered by \(registered)"
        }
    }
}
