/// Searches and merges over the sorted, duplicate-free `[UInt16]` arrays a ``UserSet`` is made of:
/// its chunk keys and its array containers' values.
extension Array where Element == UInt16 {
    /// The first index whose element is not below `value` (binary search).
    func insertionPoint(of value: UInt16) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Calls `body` with the index in this array and in `other` of each element both hold, in order.
    func forEachCommonIndex(with other: [UInt16], _ body: (Int, Int) -> Void) {
        var mine = 0
        var theirs = 0
        while mine < count, theirs < other.count {
            if self[mine] < other[theirs] {
                mine += 1
            } else if other[theirs] < self[mine] {
                theirs += 1
            } else {
                body(mine, theirs)
                mine += 1
                theirs += 1
            }
        }
    }
}
