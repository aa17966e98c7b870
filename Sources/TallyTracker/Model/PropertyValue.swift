/// A value attached to an event property: a string, a number, a boolean or null.
///
/// These are exactly the JSON values the ingest server accepts for a property, so
/// anything you can build here is sent as-is. Literals convert on their own, so call
/// sites stay short:
///
/// ```swift
/// tracker.track("bill_created", ["amount": 12.5, "note": "lunch", "labels": 2, "shared": false])
/// ```
///
/// For values held in variables, use the cases directly: `.int(count)`, `.string(title)`.
public enum PropertyValue: Sendable, Hashable {
    /// A text value.
    case string(String)
    /// A whole number, sent as a JSON integer.
    case int(Int)
    /// A floating-point number. Non-finite values (NaN, infinity) have no JSON form and are sent as `null`.
    case double(Double)
    /// A boolean.
    case bool(Bool)
    /// An explicit null, for a property that is known to have no value.
    case null
}
