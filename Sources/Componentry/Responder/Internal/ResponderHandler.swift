/// A handler with its responder and payload types erased, so that routing is not generic.
struct ResponderHandler {
    /// Calls the handler with the responder and the payload a pointer points to.
    let call: @MainActor (AnyObject, UnsafeRawPointer) -> ResponderDisposition

    /// Wraps `handler`. The responder passed to ``call`` must be a `Target`: tables check
    /// it once per type, instance handlers are typed by their instance.
    init<Target: AnyObject, Payload>(_ handler: @escaping @MainActor (Target, Payload) -> ResponderDisposition) {
        call = { responder, payload in
            handler(unsafeDowncast(responder, to: Target.self), payload.assumingMemoryBound(to: Payload.self).pointee)
        }
    }
}
