public import Foundation

/// Notes on an app's timeline, drawn on its charts. Reached as ``EventStore/annotations``.
public struct AnnotationStore: Sendable {
    let store: EventStore
    var backend: any StoreBackend { store.backend }
}

extension EventStore {
    /// The apps' annotations.
    public var annotations: AnnotationStore { AnnotationStore(store: self) }
}

extension AnnotationStore {
    /// The most annotations one read returns.
    public static let maximumAnnotationsRead = 1_000

    /// Adds an annotation to `app` at `time` and returns it.
    ///
    /// - Throws: ``TallyStoreError/invalidAnnotation(_:)`` for a text that is empty once
    ///   trimmed, longer than ``Annotation/maximumTextLength`` or with control characters;
    ///   ``TallyStoreError/unknownApp(_:)``; ``TallyStoreError/tooManyAnnotations(_:)``.
    @discardableResult
    public func add(app: AppID, time: Date, text: String) async throws -> Annotation {
        let text = try Annotation.validated(text: text)
        let createdAt = Date().unixMilliseconds
        let id = try await backend.insertAnnotation(
            app: app.production, time: time.unixMilliseconds, text: text, createdAt: createdAt, maximum: Annotation.maximumPerApp)
        return Annotation(id: id, time: Date(unixMilliseconds: time.unixMilliseconds), text: text, createdAt: Date(unixMilliseconds: createdAt))
    }

    /// `app`'s annotations from `from` up to, excluding, `to`, by time; at most
    /// ``maximumAnnotationsRead``.
    public func list(app: AppID, from: Date, to: Date) async throws -> [Annotation] {
        guard from < to else { return [] }
        return try await backend.annotations(
            app: app.production, in: from.unixMilliseconds..<to.unixMilliseconds, limit: Self.maximumAnnotationsRead)
    }

    /// Deletes `app`'s annotation `id`; returns whether there was one.
    @discardableResult
    public func delete(app: AppID, id: Int64) async throws -> Bool {
        try await backend.deleteAnnotation(app: app.production, id: id)
    }
}
