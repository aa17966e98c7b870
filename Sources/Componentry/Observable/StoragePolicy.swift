/// How an ``Observable`` of a class type stores the instances it is given.
///
/// ```swift
/// let name = Observable(NSString("Ada"), storage: .copy)
/// name.value = mutableName      // stores a copy: later edits of mutableName do not leak in
/// ```
public enum StoragePolicy: Sendable {
    /// Stores the instance it is given (the default).
    case keep
    /// Stores `copy()` of every instance it is given (`NSCopying`), like an Objective-C
    /// `copy` property. The copy must have the observable's value type.
    case copy
}
