public import Componentry

/// Where a section should go: raised by a section's element, taken by the page.
public struct SectionMove: Hashable, Sendable {
    /// The section's id.
    public var section: String
    /// Its new index among all sections.
    public var index: Int
}

extension ResponderEvent<SectionMove> {
    /// A section is dragged to a new place (the section manager).
    public static var moveSection: Self { Self("moveSection") }
}

extension ResponderEvent<String> {
    /// A section, by id, is hidden (the section manager).
    public static var hideSection: Self { Self("hideSection") }
    /// A hidden section, by id, is shown again (the section manager).
    public static var showSection: Self { Self("showSection") }
}
