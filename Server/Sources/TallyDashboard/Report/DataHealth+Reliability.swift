import TallyStore

extension DataHealth {
    /// Whether the events the server refused and those the SDKs dropped pass `share` of
    /// all the events sent: the data of the day is then not to be trusted (D1).
    func isUnreliable(share: Double) -> Bool {
        let lost = rejected.values.reduce(0, +) + dropped.values.reduce(0, +)
        let sent = accepted + duplicates + lost
        return sent > 0 && Double(lost) > share * Double(sent)
    }
}
