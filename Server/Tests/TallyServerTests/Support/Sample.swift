import Testing

/// A test input with a short name, so that long inputs do not flood the test log.
struct Sample: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String

    init(_ name: String, _ text: String) {
        self.name = name
        self.text = text
    }

    /// A short input, named by itself.
    init(_ text: String) {
        self.init(text, text)
    }

    var testDescription: String { name }
}
