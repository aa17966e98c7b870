/// A backend's annotations (``Annotation``).
protocol AnnotationBackend: Sendable {
    /// Stores an annotation of `app` and returns its id; throws ``TallyStoreError/unknownApp(_:)``,
    /// or ``TallyStoreError/tooManyAnnotations(_:)`` when `app` has `maximum` already.
    func insertAnnotation(app: AppID, time: Int64, text: String, createdAt: Int64, maximum: Int) async throws -> Int64

    /// Up to `limit` of `app`'s annotations with a time in `range`, by time then id.
    func annotations(app: AppID, in range: Range<Int64>, limit: Int) async throws -> [Annotation]

    /// Deletes `app`'s annotation `id`; returns whether there was one.
    func deleteAnnotation(app: AppID, id: Int64) async throws -> Bool
}
