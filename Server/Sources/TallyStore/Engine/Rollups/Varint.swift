/// Unsigned LEB128 integers, the compact numbers of the `bucket_activity` blobs: 7 bits a
/// byte, low bits first, so the small user gaps and counts there take one byte each.
enum Varint {
    /// Appends `value` to `bytes`.
    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// Reads the number at `offset` in `bytes` and moves `offset` past it, or returns `nil`
    /// if the bytes end first or it does not fit 64 bits.
    @inline(__always)
    static func read(_ bytes: UnsafeRawBufferPointer, at offset: inout Int) -> UInt64? {
        // Most numbers of the rollups fit one byte.
        if offset < bytes.count, bytes[offset] < 0x80 {
            offset += 1
            return UInt64(bytes[offset - 1])
        }
        return readLong(bytes, at: &offset)
    }

    private static func readLong(_ bytes: UnsafeRawBufferPointer, at offset: inout Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count, shift < 64 {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }
}
