extension Duration {
    /// The duration in seconds, with its fraction: for rates, progress and sleeps.
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
