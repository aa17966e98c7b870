extension UserSet {
    /// Bytes that are not a serialized ``UserSet``: cut short, or with chunks or elements out of
    /// order, or a bitmap whose bits disagree with its count.
    public struct FormatError: Error, Hashable, Sendable {
        /// The offset of the chunk header where decoding stopped.
        public var offset: Int
    }

    /// The set's bytes, as the rollup tables store them: for each chunk, ascending, its high
    /// 16 bits and its count minus one (two little-endian `UInt16`), then its elements as
    /// little-endian `UInt16` (at most ``arrayLimit`` of them) or a bitmap of 1,024
    /// little-endian `UInt64`. The empty set is no bytes.
    public var serialized: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(containers.reduce(0) { $0 + 4 + ($1.isBitmap ? Container.words * 8 : $1.count * 2) })
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        for (key, container) in zip(keys, containers) {
            append(key)
            append(UInt16(container.count - 1))
            if container.isBitmap {
                for word in container.bits { append(word) }
            } else {
                for value in container.values { append(value) }
            }
        }
        return bytes
    }

    /// Decodes ``serialized`` bytes.
    ///
    /// - Throws: ``FormatError`` for bytes no set serializes to; never traps.
    public init(serialized bytes: UnsafeRawBufferPointer) throws(FormatError) {
        var offset = 0
        func read<T: FixedWidthInteger>(_: T.Type, at position: Int) -> T {
            T(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: T.self))
        }
        while offset < bytes.count {
            let header = offset
            guard bytes.count - offset >= 4 else { throw FormatError(offset: header) }
            let key = read(UInt16.self, at: offset)
            let count = Int(read(UInt16.self, at: offset + 2)) + 1
            offset += 4
            guard keys.last.map({ $0 < key }) ?? true else { throw FormatError(offset: header) }
            let container: Container
            if count > Self.arrayLimit {
                guard bytes.count - offset >= Container.words * 8 else { throw FormatError(offset: header) }
                var bits = [UInt64](repeating: 0, count: Container.words)
                var bitCount = 0
                for index in bits.indices {
                    bits[index] = read(UInt64.self, at: offset + index * 8)
                    bitCount += bits[index].nonzeroBitCount
                }
                guard bitCount == count else { throw FormatError(offset: header) }
                offset += Container.words * 8
                container = Container(bits: bits, count: count)
            } else {
                guard bytes.count - offset >= count * 2 else { throw FormatError(offset: header) }
                var values = [UInt16](repeating: 0, count: count)
                for index in values.indices {
                    values[index] = read(UInt16.self, at: offset + index * 2)
                    guard index == 0 || values[index - 1] < values[index] else { throw FormatError(offset: header) }
                }
                offset += count * 2
                container = Container(sorted: values)
            }
            keys.append(key)
            containers.append(container)
        }
    }

    /// Decodes ``serialized`` bytes.
    ///
    /// - Throws: ``FormatError`` for bytes no set serializes to.
    public init(serialized bytes: [UInt8]) throws(FormatError) {
        self = try bytes.withUnsafeBytes { bytes in Result { () throws(FormatError) in try UserSet(serialized: bytes) } }.get()
    }
}
