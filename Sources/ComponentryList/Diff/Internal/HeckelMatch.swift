/// Heckel's linear-time matching of two sequences of symbols (P. Heckel, "A technique
/// for isolating differences between files", CACM 1978).
///
/// Symbols are dense `Int`s in `0..<symbolCount`: the generic layer hashes each identity
/// once into one, so this core never hashes and runs unspecialized at full speed.
/// Symbols that occur exactly once on each side are matched first; matches then grow
/// forwards and backwards over equal neighbours, which also pairs repeated symbols.
@usableFromInline
struct HeckelMatch {
    /// For each old position, its new position, or -1 when the element was removed.
    @usableFromInline var oldToNew: [Int]
    /// For each new position, its old position, or -1 when the element is new.
    @usableFromInline var newToOld: [Int]

    /// The match of two sequences known to be equal, of `count` elements.
    @usableFromInline
    init(identity count: Int) {
        oldToNew = Array(0..<count)
        newToOld = oldToNew
    }

    /// Matches `old` and `new`, sequences of symbols in `0..<symbolCount`.
    @usableFromInline
    init(old: [Int], new: [Int], symbolCount: Int) {
        oldToNew = Array(repeating: -1, count: old.count)
        newToOld = Array(repeating: -1, count: new.count)
        guard !old.isEmpty, !new.isEmpty else { return }

        // Pass 1–2: occurrences per symbol on each side, and the old line of each.
        var oldCount = [UInt8](repeating: 0, count: symbolCount)
        var newCount = [UInt8](repeating: 0, count: symbolCount)
        var oldLine = [Int](repeating: 0, count: symbolCount)
        for (index, symbol) in old.enumerated() {
            oldCount[symbol] = min(oldCount[symbol] &+ 1, 2)
            oldLine[symbol] = index
        }
        for symbol in new {
            newCount[symbol] = min(newCount[symbol] &+ 1, 2)
        }
        // Pass 3: symbols unique on both sides are the same element.
        for (index, symbol) in new.enumerated() where oldCount[symbol] == 1 && newCount[symbol] == 1 {
            newToOld[index] = oldLine[symbol]
            oldToNew[oldLine[symbol]] = index
        }
        // Pass 4: grow each match forwards over equal, unmatched neighbours.
        for index in 0..<(new.count - 1) {
            let oldIndex = newToOld[index]
            guard oldIndex >= 0, oldIndex + 1 < old.count,
                newToOld[index + 1] < 0, oldToNew[oldIndex + 1] < 0,
                new[index + 1] == old[oldIndex + 1]
            else { continue }
            newToOld[index + 1] = oldIndex + 1
            oldToNew[oldIndex + 1] = index + 1
        }
        // Pass 5: and backwards.
        for index in stride(from: new.count - 1, to: 0, by: -1) {
            let oldIndex = newToOld[index]
            guard oldIndex > 0, newToOld[index - 1] < 0, oldToNew[oldIndex - 1] < 0,
                new[index - 1] == old[oldIndex - 1]
            else { continue }
            newToOld[index - 1] = oldIndex - 1
            oldToNew[oldIndex - 1] = index - 1
        }
    }
}
