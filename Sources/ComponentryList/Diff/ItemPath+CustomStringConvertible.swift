extension ItemPath: CustomStringConvertible {
    public var description: String { "[\(section), \(item)]" }
}
