extension UserSet {
    /// Adds every number of `other`.
    public mutating func formUnion(_ other: UserSet) {
        var keys: [UInt16] = [], containers: [Container] = []
        keys.reserveCapacity(self.keys.count + other.keys.count)
        containers.reserveCapacity(keys.capacity)
        var mine = 0, theirs = 0
        while mine < self.keys.count || theirs < other.keys.count {
            if theirs == other.keys.count || mine < self.keys.count && self.keys[mine] < other.keys[theirs] {
                keys.append(self.keys[mine])
                containers.append(self.containers[mine])
                mine += 1
            } else if mine == self.keys.count || other.keys[theirs] < self.keys[mine] {
                keys.append(other.keys[theirs])
                containers.append(other.containers[theirs])
                theirs += 1
            } else {
                keys.append(self.keys[mine])
                containers.append(self.containers[mine].union(other.containers[theirs]))
                mine += 1
                theirs += 1
            }
        }
        self.keys = keys
        self.containers = containers
    }

    /// The numbers in this set or in `other`.
    public func union(_ other: UserSet) -> UserSet {
        var union = self
        union.formUnion(other)
        return union
    }

    /// The numbers of this set that are not in `other`.
    public func subtracting(_ other: UserSet) -> UserSet {
        var result = UserSet()
        for (index, key) in keys.enumerated() {
            guard let match = other.index(ofChunk: key) else {
                result.keys.append(key)
                result.containers.append(containers[index])
                continue
            }
            let difference = containers[index].subtracting(other.containers[match])
            if difference.count > 0 {
                result.keys.append(key)
                result.containers.append(difference)
            }
        }
        return result
    }

    /// The number of numbers in both this set and `other`, without building the intersection.
    public func intersectionCount(_ other: UserSet) -> Int {
        var count = 0, mine = 0, theirs = 0
        while mine < keys.count, theirs < other.keys.count {
            if keys[mine] < other.keys[theirs] {
                mine += 1
            } else if other.keys[theirs] < keys[mine] {
                theirs += 1
            } else {
                count += containers[mine].intersectionCount(other.containers[theirs])
                mine += 1
                theirs += 1
            }
        }
        return count
    }
}

extension UserSet.Container {
    func union(_ other: Self) -> Self {
        switch (isBitmap, other.isBitmap) {
        case (true, true):
            var bits = bits, count = 0
            for index in bits.indices {
                bits[index] |= other.bits[index]
                count += bits[index].nonzeroBitCount
            }
            return Self(bits: bits, count: count)
        case (true, false):
            return adding(other.values)
        case (false, true):
            return other.adding(values)
        case (false, false):
            return Self(sorted: Self.merge(values, other.values))
        }
    }

    /// This bitmap container with `values` added.
    private func adding(_ values: [UInt16]) -> Self {
        var union = self
        for value in values { _ = union.insert(value) }
        return union
    }

    func subtracting(_ other: Self) -> Self {
        if isBitmap, other.isBitmap {
            var bits = bits, count = 0
            for index in bits.indices {
                bits[index] &= ~other.bits[index]
                count += bits[index].nonzeroBitCount
            }
            return Self(bits: bits, count: count)
        }
        if isBitmap {
            var difference = self
            for value in other.values { _ = difference.remove(value) }
            return difference
        }
        return Self(sorted: values.filter { !other.contains($0) })
    }

    func intersectionCount(_ other: Self) -> Int {
        switch (isBitmap, other.isBitmap) {
        case (true, true):
            var count = 0
            for index in bits.indices { count += (bits[index] & other.bits[index]).nonzeroBitCount }
            return count
        case (true, false):
            return other.values.reduce(0) { $0 + (contains($1) ? 1 : 0) }
        case (false, true):
            return values.reduce(0) { $0 + (other.contains($1) ? 1 : 0) }
        case (false, false):
            var count = 0, mine = 0, theirs = 0
            while mine < values.count, theirs < other.values.count {
                if values[mine] < other.values[theirs] {
                    mine += 1
                } else if other.values[theirs] < values[mine] {
                    theirs += 1
                } else {
                    count += 1
                    mine += 1
                    theirs += 1
                }
            }
            return count
        }
    }

    /// The sorted union of two sorted arrays of distinct values.
    private static func merge(_ a: [UInt16], _ b: [UInt16]) -> [UInt16] {
        var merged: [UInt16] = []
        merged.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if a[i] < b[j] {
                merged.append(a[i])
                i += 1
            } else if b[j] < a[i] {
                merged.append(b[j])
                j += 1
            } else {
                merged.append(a[i])
                i += 1
                j += 1
            }
        }
        merged.append(contentsOf: a[i...])
        merged.append(contentsOf: b[j...])
        return merged
    }
}
