/// The parameters of a mediator call: values by name, read by an action as the types it
/// expects.
///
/// Callers pass a dictionary literal; actions read typed values, and a value that is not
/// of the type asked for is converted only when that is lossless — from a string through
/// `LosslessStringConvertible` or JSON (`Decodable`), from another `Encodable` type
/// through JSON — and otherwise refused:
///
/// ```swift
/// let parameters: MediatorParameters = ["bookID": 42, "title": "Walden"]
/// let bookID = try parameters.value("bookID", as: Int.self)     // 42
/// let mode = try parameters.value("mode", default: "summary")  // absent: the default
/// ```
///
/// So a string from a URL reaches an action as an `Int` only when it spells one, and
/// never as a `String` where the action asked for something else. Modules that share no
/// types can pass `Codable` values whose JSON forms match. A name given twice has the
/// value given last.
public struct MediatorParameters: Sendable {
    /// Name and value, in the order given; read from the end, so later values win.
    @usableFromInline var entries: [(String, any Sendable)]

    @usableFromInline
    init(entries: [(String, any Sendable)]) {
        self.entries = entries
    }

    /// The value named `name`, as given.
    @inlinable
    public subscript(name: String) -> (any Sendable)? {
        var index = entries.endIndex
        while index > entries.startIndex {  // names are compared in place: no entry is copied
            index -= 1
            if entries[index].0 == name { return entries[index].1 }
        }
        return nil
    }

    /// The names given, in order, each once.
    public var names: [String] {
        var seen: Set<String> = []
        return entries.map(\.0).filter { seen.insert($0).inserted }
    }

    /// The value named `name` as a `T`, converted losslessly if need be.
    ///
    /// - Throws: ``MediatorError/badParameter(name:expected:found:)`` when the value is
    ///   missing or cannot be a `T`.
    @inlinable
    public func value<T>(_ name: String, as type: T.Type = T.self) throws(MediatorError) -> T {
        guard let value = self[name] else { throw .badParameter(name: name, expected: "\(T.self)", found: nil) }
        if let typed = value as? T { return typed }
        return try Self.converted(value, named: name)
    }

    /// The value named `name` as a `T`, or `defaultValue` when there is none.
    ///
    /// - Throws: ``MediatorError/badParameter(name:expected:found:)`` when there is a
    ///   value and it cannot be a `T`.
    @inlinable
    public func value<T>(_ name: String, default defaultValue: T) throws(MediatorError) -> T {
        guard let value = self[name] else { return defaultValue }
        if let typed = value as? T { return typed }
        return try Self.converted(value, named: name)
    }

    /// The slow path of ``value(_:as:)``: a value of another type, converted or refused.
    @usableFromInline
    static func converted<T>(_ value: any Sendable, named name: String) throws(MediatorError) -> T {
        guard let converted = ValueConversion.convert(value, to: T.self) else {
            throw .badParameter(name: name, expected: "\(T.self)", found: "\(type(of: value))")
        }
        return converted
    }

    /// These parameters, then `overrides`, whose values win.
    func merging(_ overrides: MediatorParameters) -> MediatorParameters {
        MediatorParameters(entries: entries + overrides.entries)
    }
}
