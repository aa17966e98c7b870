/// The identity of an item across components: its type and its id, described.
///
/// Two items are the same item when both match, so an item that leaves one component
/// for another of the same item type is a move, not a delete and an insert.
public struct ItemIdentity: Hashable, Sendable, CustomStringConvertible {
    /// The item's type.
    public let type: ObjectIdentifier
    /// `String(describing:)` of the item's id; also what element ids are made of.
    public let key: String

    /// The identity of `item`.
    public init<Item: Identifiable>(of item: Item) {
        type = ObjectIdentifier(Item.self)
        key = String(describing: item.id)
    }

    public var description: String { key }
}
