/// The flags of an episode list, as marks people read at a glance.
enum Marks {
    /// `✓` present, `!` present but outdated, `–` missing.
    static func mark(_ present: Bool, outdated: Bool = false) -> String {
        present ? (outdated ? "!" : "✓") : "–"
    }

    /// What the marks mean, in as many words as `width` allows (nil: no limit).
    static func legend(width: Int?) -> TerminalText {
        let full: TerminalText = "✓ present   ! outdated (made from inputs that changed since)   – missing"
        guard let width, full.width > width else { return full }
        return "✓ present  ! outdated  – missing"
    }
}
