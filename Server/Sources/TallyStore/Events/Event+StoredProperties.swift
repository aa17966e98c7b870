import Foundation
@_spi(Wire) import TallyEvent

extension Event {
    /// Properties as the `properties` column stores them (``JSONWriter/object(_:)``), read back
    /// with integers and doubles apart.
    ///
    /// - Throws: A `DecodingError` if the text is not a JSON object of scalars.
    static func storedProperties(_ json: [UInt8]) throws -> [String: PropertyValue] {
        guard let properties = PropertyValue.properties(json: json) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Stored properties are not a flat JSON object"))
        }
        return properties
    }
}
