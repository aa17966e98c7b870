/// One section of a ``ListSnapshot``: a model that identifies it and its items, in order.
///
/// The model's `id` says which section this is from one snapshot to the next; the rest of
/// the model (a header, a style) is its content: when it changes the diff reports a
/// ``ListChange/reconfigureSection(_:at:)``.
public struct ListSection<Model: Identifiable & Equatable, Item: Identifiable & Equatable>: Identifiable, Equatable {
    /// What identifies the section and describes it.
    public var model: Model
    /// The items, in display order.
    public var items: [Item]

    /// Creates a section from its model and items.
    @inlinable
    public init(_ model: Model, items: [Item]) {
        self.model = model
        self.items = items
    }

    /// The model's identity.
    @inlinable
    public var id: Model.ID { model.id }
}

extension ListSection: Sendable where Model: Sendable, Item: Sendable {}
