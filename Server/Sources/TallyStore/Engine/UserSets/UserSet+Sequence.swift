extension UserSet: Sequence {
    /// Iterates the numbers in ascending order.
    public struct Iterator: IteratorProtocol {
        private let set: UserSet
        private var container = 0
        private var values: [UInt16] = []
        private var position = 0

        init(_ set: UserSet) {
            self.set = set
        }

        public mutating func next() -> UInt32? {
            while position == values.count {
                guard container < set.containers.count else { return nil }
                var chunk: [UInt16] = []
                chunk.reserveCapacity(set.containers[container].count)
                set.containers[container].forEach { chunk.append($0) }
                values = chunk
                position = 0
                container += 1
            }
            defer { position += 1 }
            return UInt32(set.keys[container - 1]) << 16 | UInt32(values[position])
        }
    }

    public func makeIterator() -> Iterator { Iterator(self) }

    public var underestimatedCount: Int { count }

    /// Calls `body` with each number, ascending, faster than iterating.
    public func forEach(_ body: (UInt32) throws -> Void) rethrows {
        for (key, container) in zip(keys, containers) {
            let high = UInt32(key) << 16
            try container.forEach { try body(high | UInt32($0)) }
        }
    }
}

extension UserSet: ExpressibleByArrayLiteral {
    public init(arrayLiteral numbers: UInt32...) {
        self.init(numbers)
    }
}

extension UserSet: CustomStringConvertible {
    public var description: String {
        "UserSet(\(count) users)"
    }
}
