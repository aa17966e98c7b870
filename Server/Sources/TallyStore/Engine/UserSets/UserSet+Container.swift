extension UserSet {
    /// The low 16 bits of the numbers of one chunk: a sorted array up to ``UserSet/arrayLimit``
    /// elements, a bitmap of 1,024 words beyond. The representation follows from the count
    /// alone, so derived equality is set equality.
    struct Container: Hashable, Sendable {
        static let words = 1_024

        /// The elements, ascending, while ``bits`` is empty.
        private(set) var values: [UInt16] = []
        /// Bit `v` set for each element `v` once the container holds more than ``UserSet/arrayLimit``.
        private(set) var bits: [UInt64] = []
        /// The number of elements.
        private(set) var count = 0

        init() {}

        /// A container of `values`, ascending and distinct.
        init(sorted values: [UInt16]) {
            if values.count > UserSet.arrayLimit {
                bits = Self.bitmap(of: values)
            } else {
                self.values = values
            }
            count = values.count
        }

        /// A container of the set bits of `bits`, 1,024 words, holding `count` elements.
        init(bits: [UInt64], count: Int) {
            if count > UserSet.arrayLimit {
                self.bits = bits
            } else {
                values = Self.elements(of: bits, count: count)
            }
            self.count = count
        }

        var isBitmap: Bool { !bits.isEmpty }

        func contains(_ value: UInt16) -> Bool {
            if isBitmap { return bits[Int(value >> 6)] & (1 << (value & 63)) != 0 }
            let position = values.insertionPoint(of: value)
            return position < values.count && values[position] == value
        }

        mutating func insert(_ value: UInt16) -> Bool {
            if isBitmap {
                let word = Int(value >> 6)
                let bit: UInt64 = 1 << (value & 63)
                guard bits[word] & bit == 0 else { return false }
                bits[word] |= bit
                count += 1
                return true
            }
            let position = values.insertionPoint(of: value)
            guard position == values.count || values[position] != value else { return false }
            if count == UserSet.arrayLimit {
                bits = Self.bitmap(of: values)
                values = []
                bits[Int(value >> 6)] |= 1 << (value & 63)
            } else {
                values.insert(value, at: position)
            }
            count += 1
            return true
        }

        mutating func remove(_ value: UInt16) -> Bool {
            if isBitmap {
                let word = Int(value >> 6)
                let bit: UInt64 = 1 << (value & 63)
                guard bits[word] & bit != 0 else { return false }
                bits[word] &= ~bit
                count -= 1
                if count == UserSet.arrayLimit {
                    values = Self.elements(of: bits, count: count)
                    bits = []
                }
                return true
            }
            let position = values.insertionPoint(of: value)
            guard position < values.count, values[position] == value else { return false }
            values.remove(at: position)
            count -= 1
            return true
        }

        /// Adds the elements of `other`, in place.
        mutating func formUnion(_ other: Self) {
            switch (isBitmap, other.isBitmap) {
            case (true, true):
                var count = 0
                bits.withUnsafeMutableBufferPointer { bits in
                    other.bits.withUnsafeBufferPointer { otherBits in
                        for index in bits.indices {
                            bits[index] |= otherBits[index]
                            count += bits[index].nonzeroBitCount
                        }
                    }
                }
                self.count = count
            case (true, false):
                for value in other.values { _ = insert(value) }
            case (false, true):
                var union = other
                for value in values { _ = union.insert(value) }
                self = union
            case (false, false):
                self = Self(sorted: Self.merge(values, other.values))
            }
        }

        /// Sets the bits of this container's elements in `bitmap`, 1,024 words.
        func addBits(to bitmap: inout [UInt64]) {
            if isBitmap {
                for index in bitmap.indices { bitmap[index] |= bits[index] }
            } else {
                for value in values { bitmap[Int(value >> 6)] |= 1 << (value & 63) }
            }
        }

        /// Calls `body` with each element, ascending.
        func forEach(_ body: (UInt16) throws -> Void) rethrows {
            if isBitmap {
                for (index, word) in bits.enumerated() {
                    var word = word
                    while word != 0 {
                        try body(UInt16(truncatingIfNeeded: index << 6 | word.trailingZeroBitCount))
                        word &= word - 1
                    }
                }
            } else {
                for value in values { try body(value) }
            }
        }

        static func bitmap(of values: [UInt16]) -> [UInt64] {
            var bits = [UInt64](repeating: 0, count: words)
            for value in values { bits[Int(value >> 6)] |= 1 << (value & 63) }
            return bits
        }

        static func elements(of bits: [UInt64], count: Int) -> [UInt16] {
            var values: [UInt16] = []
            values.reserveCapacity(count)
            for (index, word) in bits.enumerated() {
                var word = word
                while word != 0 {
                    values.append(UInt16(truncatingIfNeeded: index << 6 | word.trailingZeroBitCount))
                    word &= word - 1
                }
            }
            return values
        }
    }
}
