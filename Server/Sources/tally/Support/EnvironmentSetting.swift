import ArgumentParser
import Foundation

/// A setting of a command that, when its option is not on the command line, comes from an
/// environment variable, as container deployments expect, and else from its default.
struct EnvironmentSetting<Value: ExpressibleByArgument & Sendable>: Sendable {
    /// The environment variable, such as `TALLY_PORT`.
    let variable: String
    /// The value when neither the option nor the variable gives one.
    let defaultValue: Value

    /// The value: `option` when given, else the variable's in `environment`, else the default.
    ///
    /// - Throws: `ValidationError` naming the variable when its value does not parse.
    func value(_ option: Value?, in environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Value {
        try option ?? parse(environment) ?? defaultValue
    }

    /// The variable's value in `environment`, or `nil` when it is not set.
    ///
    /// - Throws: `ValidationError` naming the variable when its value does not parse.
    func parse(_ environment: [String: String]) throws -> Value? {
        guard var text = environment[variable] else { return nil }
        // A flag's variable is also set by `1` or `yes`, and cleared by `0` or `no`.
        if Value.self == Bool.self { text = ["1": "true", "yes": "true", "0": "false", "no": "false"][text.lowercased()] ?? text.lowercased() }
        guard let value = Value(argument: text) else {
            throw ValidationError("\(variable)=\(text.prefix(100)) is not a valid value for \(variable)")
        }
        return value
    }
}

extension EnvironmentSetting {
    /// The help text of the option: `help`, then the variable and the default (an empty text
    /// default means none).
    func help(_ help: String) -> ArgumentHelp {
        let shownDefault = "\(defaultValue)"
        return ArgumentHelp("\(help) (environment: \(variable)\(shownDefault.isEmpty ? "" : "; default: \(shownDefault)"))")
    }
}
