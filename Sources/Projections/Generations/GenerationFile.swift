/// The names of the files under `<library>/read/`.
///
/// ```
/// read/NNNNNN.sqlite            a generation's manifest: which file holds each projector's tables (the
///                               live one, one being built, or an old one)
/// read/NNNNNN-NAME.sqlite       a projector's tables and its checkpoint (NAME: sidebar, search...), named
///                               by one or more manifests
/// ...-wal, -shm                 their WAL and shared-memory index (-journal while one is being built)
/// read/NNNNNN.REASON.sqlite     a generation set aside (REASON: damaged, ahead, diverged), with its
/// read/NNNNNN-NAME.REASON.sqlite  projectors' files, kept for whoever wants to look at them, with their
///                               -wal; never removed by Episodic
/// ```
///
/// Every file takes a number no file of the folder had before, so a name is never used twice.
enum GenerationFile {
    static let suffix = ".sqlite"
    /// What SQLite keeps beside a database file.
    static let companions = ["-wal", "-shm", "-journal"]

    /// `000042.sqlite` for 42: a manifest.
    static func name(_ number: Int) -> String {
        digits(number) + suffix
    }

    /// `000042-search.sqlite` for 42 and `search`: a projector's file.
    static func name(_ number: Int, projector: String) -> String {
        digits(number) + "-" + projector + suffix
    }

    private static func digits(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// What a file of `read/` is, from its name alone.
    enum Kind: Equatable {
        case manifest
        /// The file of the projector named so.
        case projector(String)
    }

    /// The kind of a manifest or projector file, or of one of their companions (`000042.sqlite-wal`); nil
    /// for anything else, set-aside files included.
    static func kind(of name: String) -> Kind? {
        var base = Substring(name)
        for companion in companions where base.hasSuffix(companion) { base = base.dropLast(companion.count) }
        guard base.hasSuffix(suffix) else { return nil }
        let stem = base.dropLast(suffix.count)
        let digits = stem.prefix { $0.isASCIIDigit }
        guard digits.count >= 6 else { return nil }
        let rest = stem.dropFirst(digits.count)
        if rest.isEmpty { return .manifest }
        guard rest.first == "-", isProjectorName(rest.dropFirst()) else { return nil }
        return .projector(String(rest.dropFirst()))
    }

    /// Whether `name` is a manifest's own name (not a companion's).
    static func isManifest(_ name: String) -> Bool {
        kind(of: name) == .manifest && !companions.contains { name.hasSuffix($0) }
    }

    /// Whether `name` is the file of the projector `projector` (not a companion's).
    static func isFile(_ name: String, of projector: String) -> Bool {
        kind(of: name) == .projector(projector) && !companions.contains { name.hasSuffix($0) }
    }

    /// The number at the start of any file of `read/` (a manifest, a projector's file, a companion, a
    /// set-aside file), so that a new file never takes a number that was used.
    static func leadingNumber(of name: String) -> Int? {
        let digits = name.prefix { $0.isASCIIDigit }
        return digits.count >= 6 ? Int(digits) : nil
    }

    /// Projector names as file names carry them: lowercase ASCII letters and dashes.
    static func isProjectorName(_ name: Substring) -> Bool {
        !name.isEmpty && name.allSatisfy { ("a"..."z").contains($0) || $0 == "-" }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
