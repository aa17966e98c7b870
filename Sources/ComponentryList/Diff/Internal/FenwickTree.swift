/// Counts of occupied slots with O(log n) update and prefix sum: where an item is now,
/// while items are being moved one after the other.
struct FenwickTree {
    private var tree: [Int]

    /// A tree whose slot `i` holds 1 when `occupied[i]`, built in O(n).
    init(occupied: [Bool]) {
        tree = [0] + occupied.map { $0 ? 1 : 0 }
        for index in 1..<max(tree.count, 1) {
            let parent = index + (index & -index)
            if parent < tree.count { tree[parent] += tree[index] }
        }
    }

    /// Adds `delta` to slot `slot`.
    mutating func add(_ delta: Int, at slot: Int) {
        var index = slot + 1
        while index < tree.count {
            tree[index] += delta
            index += index & -index
        }
    }

    /// The sum of slots `0..<end`.
    func prefixSum(_ end: Int) -> Int {
        var sum = 0
        var index = end
        while index > 0 {
            sum += tree[index]
            index -= index & -index
        }
        return sum
    }
}
