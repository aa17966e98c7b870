import TallyEvent
import TallyStore

extension SegmentFilter {
    /// The filter without its condition at `index`; the same filter for an index out of range.
    func removing(at index: Int) -> SegmentFilter {
        guard conditions.indices.contains(index) else { return self }
        var copy = self
        copy.conditions.remove(at: index)
        return copy
    }

    /// The filter with `condition` in place of any on the same property (the bar holds one
    /// chip per property), or added at the end.
    func setting(_ condition: Condition) -> SegmentFilter {
        var copy = self
        if let index = conditions.firstIndex(where: { $0.property == condition.property }) {
            copy.conditions[index] = condition
        } else {
            copy.conditions.append(condition)
        }
        return copy
    }

    /// The condition on `property`, if the filter has one.
    func condition(on property: String) -> Condition? {
        conditions.first { $0.property == property }
    }

    /// The first property the filter names that is not one of `names`.
    func unknownProperty(among names: [String]) -> String? {
        conditions.lazy.map(\.property).first { !names.contains($0) }
    }
}

extension SegmentFilter.Condition {
    /// The condition as a chip reads: `App version is 3.3.0 or 3.2.0`, `Platform is not android`.
    var readable: String {
        let values = values.map { $0.isEmpty ? "(empty)" : $0 }
        let list = values.count < 3 ? values.joined(separator: " or ") : values.dropLast().joined(separator: ", ") + " or " + values.last!
        return "\(SegmentFilter.label(of: property)) \(isNegated ? "is not" : "is") \(list)"
    }
}

extension SegmentFilter {
    /// The name people read for `property`: `App version`, `Platform`, or the property's own.
    static func label(of property: String) -> String {
        switch property {
        case "app_version": "App version"
        case "platform": "Platform"
        default: property
        }
    }
}
