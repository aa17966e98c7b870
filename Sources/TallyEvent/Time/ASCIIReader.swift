/// Reads dates, times and ids from the front of their UTF-8 text, for ``CalendarDay``, wire
/// timestamps and event ids.
///
/// It reads the text's bytes in place. Reading through `Substring.UTF8View` instead moved a
/// `String.Index` at every byte: a batch's timestamps and ids took 4.7% of the collector's CPU
/// on one core, half of validating its events (measured with `perf` under `IngestOnOneCore`;
/// validation took 4.8% after).
struct ASCIIReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// What `body` reads from the front of `text`; `nil` if it reads `nil` or leaves bytes
    /// unread.
    static func read<Value>(_ text: some StringProtocol, _ body: (inout ASCIIReader) -> Value?) -> Value? {
        func whole(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
            var reader = ASCIIReader(bytes)
            guard let value = body(&reader), reader.position == bytes.count else { return nil }
            return value
        }
        if let contiguous = text.utf8.withContiguousStorageIfAvailable(whole) { return contiguous }
        return Array(text.utf8).withUnsafeBufferPointer(whole)
    }

    /// The next byte, if any.
    var next: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// Skips the next byte.
    mutating func skip() {
        position += 1
    }

    /// Skips `character` if it is next.
    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard next == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    /// Reads exactly `digits` decimal digits.
    mutating func number(digits: Int) -> Int? {
        guard bytes.count - position >= digits else { return nil }
        var value = 0
        for _ in 0..<digits {
            let digit = bytes[position] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
            position += 1
        }
        return value
    }

    /// Reads two hex digits, in either case, as a byte.
    mutating func hexByte() -> UInt8? {
        guard bytes.count - position >= 2, let high = Self.hexValue(bytes[position]), let low = Self.hexValue(bytes[position + 1]) else {
            return nil
        }
        position += 2
        return high << 4 | low
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
