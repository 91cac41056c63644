import Foundation

/// Font bytes as files, for libgd, which opens fonts by path only. A file is named by its content's
/// sha256, so a path always means the same font (libgd caches fonts by path).
enum FontFiles {
    static let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("episodic-fonts")

    /// The path of a file holding `bytes`, written now unless it already holds them.
    static func path(holding bytes: [UInt8], named sha256: String) throws(ThumbnailError) -> String {
        let file = folder.appendingPathComponent(sha256 + ".font")
        if let existing = FileManager.default.contents(atPath: file.path), existing.elementsEqual(bytes) { return file.path }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(bytes).write(to: file, options: .atomic)
        } catch {
            throw .fontUnusable(path: file.path, reason: "it could not be written (\(error.localizedDescription))")
        }
        return file.path
    }
}
