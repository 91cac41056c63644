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
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path),
            let file = try? JSONDecoder().decode(SharedLibraryFile.self, from: data)
        else {
            throw PostgresEndpoint.Invalid(reason: "\(path) cannot be read as a shared library's settings")
        }
        return file
    }

    /// Writes the file durably: a temporary file, synced, renamed into place, then the folder synced.
    public func save(library: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(self) + Data("\n".utf8)
        let temporary = library + "/." + Self.name + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary])
        }
        let descriptor = open(temporary, O_RDONLY)
        if descriptor >= 0 { fsync(descriptor); close(descriptor) }
        guard rename(temporary, library + "/" + Self.name) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: library + "/" + Self.name])
        }
        let folder = open(library, O_RDONLY)
        if folder >= 0 { fsync(folder); close(folder) }
    }

    public func endpoint() throws -> PostgresEndpoint { try PostgresEndpoint(url: url) }
}
