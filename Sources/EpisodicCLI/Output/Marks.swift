/// The flags of an episode list, as marks people read at a glance.
enum Marks {
    /// `✓` present, `!` present but outdated, `–` missing.
    static func mark(_ present: Bool, outdated: Bool = false) -> String {
        present ? (outdated ? "!" : "✓") : "–"
    }

    static let legend: TerminalText = "✓ present   ! outdated (made from inputs that changed since)   – missing"

}
