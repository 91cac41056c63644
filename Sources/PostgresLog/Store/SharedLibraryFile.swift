import EventLog
import Foundation

/// The `SHARED` file of a library's folder: where its shared log is, as JSON
/// (`{"url": "postgres://…", "schema": "…"}`). A folder without it is a library of its own. The URL is
/// kept without its password.
public struct SharedLibraryFile: Codable, Equatable, Sendable {
    public var url: String
    public var schema: String

    public static let name = "SHARED"

    public init(endpoint: PostgresEndpoint, schema: String) {
        url = "\(endpoint)"
        self.schema = schema
    }

    /// The file in `library`, or nil when there is none. A file that cannot be read is an error, never
    /// a reason to treat a shared library as a library of its own.
    public static func load(library: String) throws -> SharedLibraryFile? {
        let path = library + "/" + name
        // Asked of the file system itself, as FileManager's `fileExists` would: every command asks, and
        // FileManager's first use costs a one-command process a tenth of a millisecond.
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        guard let data = FileManager.default.contents(atPath: path),
            let file = try? JSONDecoder().decode(SharedLibraryFile.self, from: data)
        else {
            throw PostgresEndpoint.Invalid(reason: "\(path) cannot be read as a shared library's settings")
        }
        return file
    }

    /// Writes the file into the library of `log`, whole or not at all (``EventLog/replaceFile(named:with:)``).
    public func save(in log: EventLog) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try log.replaceFile(named: Self.name, with: Array(try encoder.encode(self)) + [0x0A])
    }

    public func endpoint() throws -> PostgresEndpoint { try PostgresEndpoint(url: url) }
}
