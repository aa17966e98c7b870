extension UserSet {
    #if DEBUG
        /// Traps unless the set's storage holds what its type promises: one container per
        /// chunk key, keys strictly ascending, no empty container, and each container an array
        /// (ascending, distinct, at most ``arrayLimit``) or a bitmap (1,024 words, more than
        /// ``arrayLimit`` bits) whose count is its elements'. Compiled in debug and test builds
        /// only, where the property tests and the fuzzer call it after each operation, as
        /// swift-collections' structures check theirs.
        func _checkInvariants() {
            precondition(keys.count == containers.count, "\(keys.count) keys for \(containers.count) containers")
            for index in keys.indices.dropFirst() { precondition(keys[index - 1] < keys[index], "chunk keys out of order") }
            for container in containers { container._checkInvariants() }
        }
    #else
        @inline(__always) func _checkInvariants() {}
    #endif
}

extension UserSet.Container {
    #if DEBUG
        /// Traps unless the container is a valid array or bitmap (see ``UserSet/_checkInvariants()``).
        func _checkInvariants() {
            precondition(count > 0, "an empty container")
            if isBitmap {
                precondition(bits.count == Self.words && values.isEmpty, "a bitmap of \(bits.count) words beside \(values.count) values")
                precondition(count > UserSet.arrayLimit, "a bitmap of \(count) elements, which an array holds")
                precondition(bits.reduce(0) { $0 + $1.nonzeroBitCount } == count, "a bitmap whose count is not its bits'")
            } else {
                precondition(values.count == count && count <= UserSet.arrayLimit, "an array of \(values.count) values counted \(count)")
                for index in values.indices.dropFirst() { precondition(values[index - 1] < values[index], "array values out of order") }
            }
        }
    #endif
}
