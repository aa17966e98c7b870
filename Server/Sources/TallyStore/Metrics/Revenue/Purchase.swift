public import TallyEvent

/// What a purchase event (an app's ``App/purchaseEvent``) pays: an exact amount in one
/// currency, read from its `revenue` and `currency` properties.
///
/// Amounts are fixed-point integers of millionths (``scale``), never `Double`:
///
/// - `revenue` may be a JSON integer, a JSON number with a fraction, or a string holding a
///   decimal (`"9.99"`, `"-5"`); a string is read digit by digit. A JSON number with a
///   fraction reaches the store as a `Double`, whose shortest decimal text is the number's
///   text exactly when it has at most 15 significant digits, so such a number is read from
///   that text; a number whose shortest text needs more digits (`0.30000000000000004`) is
///   refused rather than rounded.
/// - More than 6 decimal places that are not zeros, a magnitude above ``maximumUnits``, or
///   any other text are refused.
/// - A negative amount is a refund: it lowers the revenue of its currency and makes nobody a
///   paying user. Zero is kept and counted likewise.
/// - `currency` is an ISO 4217-shaped code: three ASCII letters, stored uppercased.
///
/// A purchase event that breaks a rule is stored as an event like any other, and counted in
/// the data health under its ``Problem``; it adds nothing to revenue.
public struct Purchase: Hashable, Sendable {
    /// The currency code, three uppercase ASCII letters.
    public var currency: String
    /// The amount in millionths of the currency's unit.
    public var micros: Int64

    /// Millionths per unit: amounts keep 6 decimal places.
    public static let scale: Int64 = 1_000_000
    /// The largest magnitude of one purchase, in units: 10^12.
    public static let maximumUnits: Int64 = 1_000_000_000_000

    /// Why a purchase event adds no revenue: the reason the data health counts it under.
    public enum Problem: String, Error, CaseIterable {
        /// No `revenue` property, or `null`.
        case missingRevenue = "purchase_missing_revenue"
        /// A `revenue` that is not an exact decimal within the limits.
        case invalidRevenue = "purchase_invalid_revenue"
        /// No `currency` property, or not three ASCII letters.
        case invalidCurrency = "purchase_invalid_currency"
    }

    /// The purchase `properties` describe, or why they describe none.
    public static func read(_ properties: [String: PropertyValue]) -> Result<Purchase, Problem> {
        let micros: Int64
        switch properties["revenue"] {
        case nil, .null?: return .failure(.missingRevenue)
        case .int(let units)?:
            guard units.magnitude <= UInt(maximumUnits) else { return .failure(.invalidRevenue) }
            micros = Int64(units) * scale
        case .double(let number)?:
            guard number.isFinite, let exact = Self.micros(decimal: number.description, maximumDigits: 15) else {
                return .failure(.invalidRevenue)
            }
            micros = exact
        case .string(let text)?:
            guard let exact = Self.micros(decimal: text, maximumDigits: nil) else { return .failure(.invalidRevenue) }
            micros = exact
        case .bool?: return .failure(.invalidRevenue)
        }
        guard case .string(let code)? = properties["currency"], let currency = Self.currency(code) else {
            return .failure(.invalidCurrency)
        }
        return .success(Purchase(currency: currency, micros: micros))
    }

    /// `code` uppercased if it is three ASCII letters.
    static func currency(_ code: String) -> String? {
        let bytes = Array(code.utf8)
        guard bytes.count == 3, bytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else { return nil }
        return String(decoding: bytes.map { $0 & ~0x20 }, as: UTF8.self)
    }

    /// The millionths a decimal text names: an optional sign, digits, an optional fraction and
    /// an optional exponent (as `Double.description` writes, `1e-05`); `nil` for anything
    /// else, more than 6 decimal places that are not zeros, more than `maximumDigits`
    /// significant digits, or a magnitude above ``maximumUnits``.
    static func micros(decimal text: String, maximumDigits: Int?) -> Int64? {
        var bytes = Substring(text).utf8[...]
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var digits: [UInt8] = []
        var pointPosition: Int?
        var exponent = 0
        var sawDigit = false
        while let byte = bytes.first {
            if (0x30...0x39).contains(byte) {
                digits.append(byte - 0x30)
                sawDigit = true
            } else if byte == UInt8(ascii: "."), pointPosition == nil {
                pointPosition = digits.count
            } else {
                break
            }
            bytes = bytes.dropFirst()
        }
        guard sawDigit else { return nil }
        if let marker = bytes.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            var exponentNegative = false
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                exponentNegative = sign == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            guard !bytes.isEmpty, bytes.count <= 4, bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            // At most four digits: the fold cannot overflow.
            exponent = bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) } * (exponentNegative ? -1 : 1)
            bytes = bytes[bytes.endIndex...]
        }
        guard bytes.isEmpty else { return nil }
        // The value is digits × 10^(exponent − fraction digits); drop leading zeros.
        var scaleShift = exponent - (digits.count - (pointPosition ?? digits.count)) + 6
        digits.removeFirst(digits.firstIndex { $0 != 0 } ?? digits.count)
        if let maximumDigits {
            var significant = digits
            while significant.last == 0 { significant.removeLast() }
            guard significant.count <= maximumDigits else { return nil }
        }
        // Trailing digits below a millionth must be zeros.
        while scaleShift < 0 {
            guard let last = digits.last else { break }
            guard last == 0 else { return nil }
            digits.removeLast()
            scaleShift += 1
        }
        if digits.isEmpty { return 0 }
        let limit = maximumUnits * scale
        var value: Int64 = 0
        for digit in digits + repeatElement(0, count: max(scaleShift, 0)) {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow, shifted + Int64(digit) <= limit else { return nil }
            value = shifted + Int64(digit)
        }
        return negative ? -value : value
    }
}
