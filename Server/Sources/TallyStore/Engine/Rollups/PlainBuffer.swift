/// Plain memory of trivial values that grows and never shrinks; its owner frees it.
///
/// The hot loops of funnels and filtered scans read and write it through ``base``: an array
/// there checked bounds, exclusive access and uniqueness at every write, which took most of a
/// funnel's count and a tenth of a filtered day's scan.
struct PlainBuffer<Element: BitwiseCopyable> {
    private(set) var base = UnsafeMutablePointer<Element>.allocate(capacity: 1)
    private(set) var capacity = 1

    /// Makes room for `count` elements, dropping what it held if it must grow.
    mutating func reserve(_ count: Int) {
        guard count > capacity else { return }
        base.deallocate()
        capacity = max(count, capacity * 2)
        base = .allocate(capacity: capacity)
    }

    /// Makes room for `count` elements, keeping the first `kept`.
    mutating func grow(to count: Int, keeping kept: Int) {
        guard count > capacity else { return }
        capacity = max(count, capacity * 2)
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        grown.initialize(from: base, count: kept)
        base.deallocate()
        base = grown
    }

    /// Releases the memory; the buffer must not be used after.
    func free() { base.deallocate() }
}
