/// Packs values into bytes least-significant bit first, the bit order of DEFLATE (RFC 1951 §3.1.1).
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count = 0

    /// Appends the low `bits` bits of `value`, least significant first.
    mutating func write(_ value: UInt32, bits: Int) {
        buffer |= UInt64(value) << count
        count += bits
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
    }

    /// Appends a Huffman code, which DEFLATE stores most significant bit first.
    mutating func write(code: UInt32, length: Int) {
        var reversed: UInt32 = 0
        for bit in 0..<length { reversed |= ((code >> bit) & 1) << (length - 1 - bit) }
        write(reversed, bits: length)
    }

    /// Pads the last partial byte with zeros and returns everything written.
    mutating func finish() -> [UInt8] {
        if count > 0 { write(0, bits: 8 - count) }
        return bytes
    }
}
