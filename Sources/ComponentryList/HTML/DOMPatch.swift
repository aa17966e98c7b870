/// One step of a DOM update made by ``HTMLRenderer/patch(_:)``, applied in order by
/// ``HTMLRenderer/patchScript``.
///
/// Indices count element children of the parent as it is when the step runs; a move
/// removes the element first, then inserts it at `index`.
public enum DOMPatch: Hashable, Sendable {
    /// Parses `html` (one element) and inserts it as child `index` of the element `parent`.
    case insert(parent: String, index: Int, html: String)
    /// Removes the element `id`.
    case remove(id: String)
    /// Moves the element `id` to child `index` of `parent` and renames it `newID` (an item
    /// that changes component changes id).
    case move(id: String, parent: String, index: Int, newID: String)
    /// Replaces the element `id` with `html` (one element), keeping the horizontal scroll
    /// position of a component's row.
    case replace(id: String, html: String)
}
