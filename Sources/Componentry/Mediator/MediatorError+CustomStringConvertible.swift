extension MediatorError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .targetNotFound(let target, let suggestion):
            "no target \"\(target)\"" + Self.hint(suggestion)
        case .actionNotFound(let target, let action, let suggestion):
            "target \"\(target)\" has no action \"\(action)\"" + Self.hint(suggestion)
        case .notExposed(let target, let action):
            "\(target)/\(action) cannot be called from a URL"
        case .badParameter(let name, let expected, let found?):
            "parameter \"\(name)\": expected \(expected), got \(found)"
        case .badParameter(let name, let expected, nil):
            "parameter \"\(name)\": expected \(expected), got nothing"
        case .unexpectedResult(let target, let action, let expected, let found):
            "\(target)/\(action) returned \(found), not \(expected)"
        case .refused(let target, let action, let reason):
            "\(target)/\(action) refused: \(reason)"
        case .needsMainActor(let target, let action):
            "\(target)/\(action) runs on the main actor: call it there, or with callAsync"
        case .needsAsyncCall(let target, let action):
            "\(target)/\(action) is asynchronous: call it with callAsync"
        case .badURL(let url):
            "\(url) is not scheme://target/action?key=value"
        case .actionFailed(let target, let action, let underlying):
            "\(target)/\(action) failed: \(underlying)"
        case .blankTargetName:
            "a target name is blank"
        case .duplicateTarget(let target):
            "a target named \"\(target)\" is already registered"
        }
    }

    private static func hint(_ suggestion: String?) -> String {
        suggestion.map { "; did you mean \"\($0)\"?" } ?? ""
    }
}
