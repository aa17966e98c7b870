/// A raw DEFLATE encoder (RFC 1951): the whole input goes into one final block coded with
/// the fixed Huffman tables, after LZ77 matching over a 32 KiB window with hash chains.
///
/// Fixed codes avoid building per-block trees and still shrink repetitive JSON well, which
/// is all upload bodies need.
enum Deflate {
    private static let minMatch = 3
    private static let maxMatch = 258
    private static let window = 32_768
    private static let hashBits = 15
    private static let maxChain = 64

    private static let lengthBases: [Int] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
        35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    private static let lengthExtraBits: [Int] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    private static let distanceBases: [Int] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
        257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]
    private static let distanceExtraBits: [Int] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]

    /// Compresses `input` into a complete DEFLATE stream.
    static func compress(_ input: [UInt8]) -> [UInt8] {
        var out = BitWriter()
        out.write(1, bits: 1)  // BFINAL: this is the last block
        out.write(1, bits: 2)  // BTYPE 01: fixed Huffman codes
        var head = [Int](repeating: -1, count: 1 << hashBits)
        var previous = [Int](repeating: -1, count: window)

        func hash(at position: Int) -> Int {
            let value = Int(input[position]) << 16 | Int(input[position + 1]) << 8 | Int(input[position + 2])
            return (value &* 2_654_435_761) >> 16 & (1 << hashBits - 1)
        }
        func insert(_ position: Int) {
            guard position + minMatch <= input.count else { return }
            let bucket = hash(at: position)
            previous[position % window] = head[bucket]
            head[bucket] = position
        }

        var position = 0
        while position < input.count {
            var bestLength = 0
            var bestDistance = 0
            if position + minMatch <= input.count {
                let limit = min(maxMatch, input.count - position)
                var candidate = head[hash(at: position)]
                var chain = maxChain
                while candidate >= 0, position - candidate <= window, chain > 0 {
                    var length = 0
                    while length < limit, input[candidate + length] == input[position + length] { length += 1 }
                    if length > bestLength {
                        bestLength = length
                        bestDistance = position - candidate
                        if length == limit { break }
                    }
                    candidate = previous[candidate % window]
                    chain -= 1
                }
            }
            if bestLength >= minMatch {
                writeMatch(length: bestLength, distance: bestDistance, to: &out)
                for covered in position..<position + bestLength { insert(covered) }
                position += bestLength
            } else {
                writeLiteral(Int(input[position]), to: &out)
                insert(position)
                position += 1
            }
        }
        writeLiteral(256, to: &out)  // end of block
        return out.finish()
    }

    /// Writes a literal/length symbol (0–287) with the fixed code of RFC 1951 §3.2.6.
    private static func writeLiteral(_ symbol: Int, to out: inout BitWriter) {
        switch symbol {
        case 0...143: out.write(code: UInt32(0x30 + symbol), length: 8)
        case 144...255: out.write(code: UInt32(0x190 + symbol - 144), length: 9)
        case 256...279: out.write(code: UInt32(symbol - 256), length: 7)
        default: out.write(code: UInt32(0xC0 + symbol - 280), length: 8)
        }
    }

    private static func writeMatch(length: Int, distance: Int, to out: inout BitWriter) {
        let lengthCode = lengthBases.lastIndex { $0 <= length }!
        writeLiteral(257 + lengthCode, to: &out)
        out.write(UInt32(length - lengthBases[lengthCode]), bits: lengthExtraBits[lengthCode])
        let distanceCode = distanceBases.lastIndex { $0 <= distance }!
        out.write(code: UInt32(distanceCode), length: 5)
        out.write(UInt32(distance - distanceBases[distanceCode]), bits: distanceExtraBits[distanceCode])
    }
}
