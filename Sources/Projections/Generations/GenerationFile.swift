/// The names of the files under `<library>/read/`.
///
/// ```
/// read/NNNNNN.sqlite            a generation (the live one, one being built, or an old one)
/// read/NNNNNN.sqlite-wal, -shm  its WAL and shared-memory index (-journal while it is being built)
/// read/NNNNNN.REASON.sqlite     a read model set aside (REASON: damaged, ahead, diverged), kept for
///                               whoever wants to look at it, with its -wal; never removed by Episodic
/// ```
enum GenerationFile {
    static let suffix = ".sqlite"
    /// What SQLite keeps beside a database file.
    static let companions = ["-wal", "-shm", "-journal"]

    /// `000042.sqlite` for 42.
    static func name(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits + suffix
    }

    /// The number of a generation file or of one of its companions (`000042.sqlite-wal`); nil for
    /// anything else, set-aside files included.
    static func generationNumber(of name: String) -> Int? {
        var base = Substring(name)
        for companion in companions where base.hasSuffix(companion) { base = base.dropLast(companion.count) }
        guard base.hasSuffix(suffix) else { return nil }
        let digits = base.dropLast(suffix.count)
        guard digits.count >= 6, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(digits)
    }

    /// The number at the start of any file of `read/` (a generation, a companion, a set-aside file), so
    /// that a new generation never takes a number that was used.
    static func leadingNumber(of name: String) -> Int? {
        let digits = name.prefix { $0.isASCIIDigit }
        return digits.count >= 6 ? Int(digits) : nil
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

