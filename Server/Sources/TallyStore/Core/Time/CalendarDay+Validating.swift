import TallyEvent

extension CalendarDay {
    /// The day `text` names, exactly `YYYY-MM-DD`.
    ///
    /// - Throws: ``TallyStoreError/invalidDate(_:)`` for any other text.
    init(validating text: String) throws(TallyStoreError) {
        guard let day = CalendarDay(text) else { throw .invalidDate(text) }
        self = day
    }
}
