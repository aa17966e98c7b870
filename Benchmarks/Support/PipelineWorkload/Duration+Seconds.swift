extension Duration {
    /// The duration in seconds, for rates and milliseconds in the tools' reports.
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
