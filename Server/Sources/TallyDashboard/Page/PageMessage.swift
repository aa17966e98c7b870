public import ComponentryList

/// What the page sends its browser tab over the WebSocket: DOM patches to apply in order,
/// and the page's new address, busy state or an error to show.
///
/// Encodes as the page script reads it:
/// `{"patches": […], "url": "/apps/1?date=…", "back": "/apps/1?date=…", "refreshing": true, "error": "…"}`,
/// without the keys that are `nil`.
public struct PageMessage: Hashable, Sendable, Encodable {
    /// Patches to apply, in order.
    public var patches: [DOMPatch]
    /// The page's address now, for the address bar, so that a reload shows the same page.
    public var url: String?
    /// When set, ``url`` is a new entry of the browser's history (the filter changed), and
    /// this address first replaces the current entry: the page the browser's Back returns
    /// to. Otherwise ``url`` replaces the current entry.
    public var back: String?
    /// Whether a refresh runs: the reload button is off while it does.
    public var refreshing: Bool?
    /// What went wrong with the last browser event; the page keeps working.
    public var error: String?

    /// Creates a message.
    public init(patches: [DOMPatch] = [], url: String? = nil, back: String? = nil, refreshing: Bool? = nil, error: String? = nil) {
        self.patches = patches
        self.url = url
        self.back = back
        self.refreshing = refreshing
        self.error = error
    }
}
