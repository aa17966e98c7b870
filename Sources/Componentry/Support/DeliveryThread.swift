import Locking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one thread is delivering right now, readable by every thread: one ``FrameSlot``
/// per ``DeliveryFrame`` it has open (a post made by a handler opens another), naming the
/// ``DeliveryTarget`` being called and the ``Snapshot`` being iterated.
///
/// `dispose()` reads the slots of the other threads and waits only while one names its
/// target, so it never waits for other handlers and never for its own thread; a bus keeps
/// a snapshot it replaced until no slot names it. A record is made on a thread's first
/// delivery and handed to the next new thread when its thread exits: there are never more
/// records than threads that delivered at the same time.
struct DeliveryThread: ~Copyable {
    #if canImport(Darwin) || TALLY_PORTABLE_SYNCHRONIZATION
        /// Open frames; read and written by the owning thread only.
        var depth: Int {
            get { openFrames.load(ordering: .relaxed) }
            nonmutating set { openFrames.store(newValue, ordering: .relaxed) }
        }
        /// ``depth``, in a word of its own. There `AtomicWord` holds a pointer, so a record
        /// is a plain value that another thread's borrow (``anySlot(_:)``) reads whole; a
        /// `depth` stored in the record would be read by it while the owner writes it.
        private let openFrames = AtomicWord<Int>(0)
    #else
        /// Open frames; read and written by the owning thread only.
        var depth = 0
    #endif
    /// `false` once the owning thread has exited.
    let inUse = AtomicWord<Bool>(true)
    /// Slots 0..<``SlotBlock/capacity``; deeper ones in blocks chained from it.
    let first = SlotBlock.make()

    /// The calling thread's record: one thread-local read.
    @inline(__always)
    static var current: UnsafeMutablePointer<DeliveryThread> {
        if let record = pthread_getspecific(key) {
            return record.assumingMemoryBound(to: DeliveryThread.self)
        }
        let record = claim()
        pthread_setspecific(key, record)
        return record
    }

    /// The calling thread's record, if it ever delivered.
    static var currentIfAny: UnsafeMutablePointer<DeliveryThread>? {
        pthread_getspecific(key)?.assumingMemoryBound(to: DeliveryThread.self)
    }

    /// Every record, in use or free.
    static var all: [UnsafeMutablePointer<DeliveryThread>] {
        registry.withLock { $0 }
    }

    /// The slot of frame `index`, adding blocks as deeper nesting needs them (owning
    /// thread only).
    @inline(__always)
    func slot(at index: Int) -> UnsafeMutablePointer<FrameSlot> {
        if index < SlotBlock.capacity { return first.pointee.slots + index }
        var block = first
        for _ in 0..<(index / SlotBlock.capacity) { block = block.pointee.nextAdding() }
        return block.pointee.slots + index % SlotBlock.capacity
    }

    /// Whether a slot of this record satisfies `test` now (read by other threads).
    func anySlot(_ test: (borrowing FrameSlot) -> Bool) -> Bool {
        var block: UnsafeMutablePointer<SlotBlock>? = first
        while let current = block {
            for index in 0..<SlotBlock.capacity where test(current.pointee.slots[index]) {
                return true
            }
            block = current.pointee.next
        }
        return false
    }

    /// Whether a slot of any thread names `snapshot` as the one it iterates.
    static func isIterating(_ snapshot: ObjectIdentifier) -> Bool {
        let snapshot = UInt(bitPattern: snapshot)
        return registry.withLock { records in
            records.contains { record in
                record.pointee.anySlot { $0.snapshot.load(ordering: .acquiring) == snapshot }
            }
        }
    }

    private static let registry = Locked<[UnsafeMutablePointer<DeliveryThread>]>([])

    /// A record left by a thread that exited, or a new one.
    private static func claim() -> UnsafeMutablePointer<DeliveryThread> {
        registry.withLock { records in
            for record in records
            where record.pointee.inUse.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
                return record
            }
            let record = UnsafeMutablePointer<DeliveryThread>.allocate(capacity: 1)
            record.initialize(to: DeliveryThread())
            records.append(record)
            return record
        }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { record in
            // The thread is exiting, outside any delivery, its slots all 0: the record is
            // free for the next thread.
            record?.assumingMemoryBound(to: DeliveryThread.self).pointee.inUse.store(false, ordering: .releasing)
        }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()
}

/// What one open ``DeliveryFrame`` shows other threads.
struct FrameSlot: ~Copyable {
    /// The identity of the target the frame is calling, or 0.
    let target = AtomicWord<UInt>(0)
    /// The identity of the ``Snapshot`` the frame iterates, or 0.
    let snapshot = AtomicWord<UInt>(0)
}

/// A run of frame slots, with a link to the next run for deeper nesting. Blocks are never
/// freed, so another thread may follow a link at any time.
struct SlotBlock: ~Copyable {
    static let capacity = 8
    let slots: UnsafeMutablePointer<FrameSlot>
    private let link = AtomicWord<UInt>(0)

    private init() {
        slots = .allocate(capacity: Self.capacity)
        for index in 0..<Self.capacity { (slots + index).initialize(to: FrameSlot()) }
    }

    /// A new block at a stable address.
    static func make() -> UnsafeMutablePointer<SlotBlock> {
        let block = UnsafeMutablePointer<SlotBlock>.allocate(capacity: 1)
        block.initialize(to: SlotBlock())
        return block
    }

    var next: UnsafeMutablePointer<SlotBlock>? {
        UnsafeMutablePointer(bitPattern: link.load(ordering: .acquiring))
    }

    /// The next block, added if there is none yet (owning thread only).
    func nextAdding() -> UnsafeMutablePointer<SlotBlock> {
        if let next { return next }
        let block = Self.make()
        link.store(UInt(bitPattern: block), ordering: .releasing)
        return block
    }
}
