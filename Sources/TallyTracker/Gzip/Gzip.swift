import Foundation

/// A gzip encoder (RFC 1952) around ``Deflate``, for `Content-Encoding: gzip` upload bodies.
///
/// Foundation on Linux has no compression API, so this is written out in full; any
/// standard gzip decoder reads its output.
enum Gzip {
    /// `data` compressed into a single-member gzip file.
    static func compress(_ data: Data) -> Data {
        let input = [UInt8](data)
        var output: [UInt8] = [
            0x1F, 0x8B,  // magic
            8,  // compression method: deflate
            0,  // flags: none
            0, 0, 0, 0,  // modification time: none
            0,  // extra flags
            255,  // operating system: unknown
        ]
        output += Deflate.compress(input)
        output += littleEndianBytes(CRC32.checksum(input))
        output += littleEndianBytes(UInt32(truncatingIfNeeded: input.count))
        return Data(output)
    }

    private static func littleEndianBytes(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
