/// Reading dates and times from the front of their text, for ``CalendarDay`` and wire timestamps.
extension Substring.UTF8View {
    /// Removes `character` from the front if it is there.
    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard first == UInt8(ascii: character) else { return false }
        removeFirst()
        return true
    }

    /// Removes and reads exactly `digits` decimal digits from the front.
    mutating func number(digits: Int) -> Int? {
        var value = 0
        for _ in 0..<digits {
            guard let byte = first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            removeFirst()
        }
        return value
    }
}
