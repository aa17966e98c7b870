/// Where a change of a ``Synced`` property came from: set on the object itself, or
/// brought by a ``SyncChannel`` from another copy of the entity — and from which one.
///
/// A view can animate the change its user made and refresh quietly for one synced from
/// elsewhere:
///
/// ```swift
/// row.$followed.observe().didChange { new, _ in
///     render(new.value, animated: new.origin.isLocal)
/// }
/// page.$isFollowing.value.origin == .synced(from: row)   // row's emit set it
/// ```
///
/// One word wide, so a ``SyncedValue`` of a one-word value stays two words, which keeps
/// the property's sets as cheap as an `Observable`'s.
public struct SyncOrigin: Hashable, Sendable, CustomStringConvertible {
    /// 0 for local, 1 for synced from no object, else the source's address.
    @usableFromInline let bits: UInt

    @usableFromInline
    init(bits: UInt) {
        self.bits = bits
    }

    /// Set on this object: by code that assigned the property, or by
    /// ``Syncable/emit(_:_:)`` on this object. Also the origin of an initial value.
    @inlinable
    public static var local: Self {
        Self(bits: 0)
    }

    /// Applied by a channel. `source` is the object whose ``Syncable/emit(_:_:)`` sent it,
    /// or `nil` for ``SyncChannel/emit(_:_:to:id:)``, which names no object.
    public static func synced(from source: ObjectIdentifier?) -> Self {
        Self(bits: source.map { UInt(bitPattern: $0) } ?? 1)
    }

    /// Applied by a channel, sent by `object`'s ``Syncable/emit(_:_:)``.
    public static func synced(from object: AnyObject) -> Self {
        synced(from: ObjectIdentifier(object))
    }

    /// `true` for ``local``.
    public var isLocal: Bool {
        bits == 0
    }

    /// The object that sent a synced change, or `nil` for a local change and for one
    /// emitted by type and id. Identity is the object's address while it lives: compare
    /// with objects known to be alive.
    public var source: ObjectIdentifier? {
        bits > 1 ? unsafeBitCast(bits, to: ObjectIdentifier.self) : nil
    }

    /// `local`, `synced`, or `synced from 0x…`.
    public var description: String {
        switch bits {
        case 0: "local"
        case 1: "synced"
        default: "synced from 0x\(String(bits, radix: 16))"
        }
    }
}
