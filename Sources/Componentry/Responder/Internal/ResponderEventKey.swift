/// What tells responder events apart: the name and the payload type.
struct ResponderEventKey: Hashable {
    let name: String
    let payload: ObjectIdentifier
}
