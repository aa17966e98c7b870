/// Text made safe for HTML, and identities made safe for element ids.
public enum HTMLText {
    /// `text` with `& < > " '` escaped: safe in element content and quoted attributes.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// `text` as letters, digits and `_XX` escapes of every other UTF-8 byte: injective,
    /// and never contains `-`, which element ids use as their separator.
    static func idPart(_ text: String) -> String {
        var part = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                part.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                part += "_" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return part
    }

    /// The CSS selector of the element `id`, an id made of letters, digits, `_` and `-` (as
    /// element ids are): `#id`, with a digit that cannot begin a CSS identifier escaped.
    static func idSelector(_ id: String) -> String {
        var selector = "#"
        for (offset, character) in id.enumerated() {
            let beginsIdentifier = offset == 0 || (offset == 1 && id.hasPrefix("-"))
            if beginsIdentifier, let digit = character.wholeNumberValue, character.isASCII {
                selector += "\\3\(digit) "
            } else {
                selector.append(character)
            }
        }
        return selector
    }

    /// A CSS number: no trailing `.0`; 0 for NaN and infinities, which CSS has no
    /// number for.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
