/// Handlers added to single responders, which need no storage of their own.
///
/// Entries are keyed by object identity and hold the responder weakly: an entry whose
/// responder is gone (or whose address a new object reuses) is ignored, and such entries
/// are swept out as the table grows.
struct InstanceHandlers {
    private struct Entry {
        weak var responder: AnyObject?
        var handlers: [ResponderEventKey: ResponderHandler] = [:]
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    private var sweepAt = 64

    var isEmpty: Bool {
        entries.isEmpty
    }

    mutating func add(_ handler: ResponderHandler, for key: ResponderEventKey, to responder: AnyObject) {
        let id = ObjectIdentifier(responder)
        if entries[id]?.responder !== responder {
            entries[id] = Entry(responder: responder)
            if entries.count >= sweepAt {
                entries = entries.filter { $0.value.responder != nil }
                sweepAt = max(64, entries.count * 2)
            }
        }
        entries[id]?.handlers[key] = handler
    }

    mutating func remove(_ key: ResponderEventKey, from responder: AnyObject) {
        let id = ObjectIdentifier(responder)
        guard entries[id]?.responder === responder else { return }
        entries[id]?.handlers[key] = nil
        if entries[id]?.handlers.isEmpty == true { entries[id] = nil }
    }

    func handler(for key: ResponderEventKey, at responder: AnyObject) -> ResponderHandler? {
        guard let entry = entries[ObjectIdentifier(responder)], entry.responder === responder else { return nil }
        return entry.handlers[key]
    }
}
