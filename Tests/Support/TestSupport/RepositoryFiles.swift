import Foundation

/// Files committed with the repository (fixtures, schemas, examples), found from this source file's
/// place, so tests read them wherever the checkout is.
public enum RepositoryFiles {
    /// The repository's root: this file is `Tests/Support/TestSupport/RepositoryFiles.swift`.
    public static let root: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .path

    /// The absolute path of `relative`, a path from the repository's root.
    public static func path(_ relative: String) -> String { root + "/" + relative }

    /// The bytes of `relative`; a missing fixture is a broken checkout, so it stops the test run.
    public static func bytes(_ relative: String) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path(relative)) else {
            fatalError("the repository has no \(relative) (looked in \(root))")
        }
        return Array(data)
    }

    /// The transcripts DOMAIN.md describes, committed with the domain's tests.
    public static func transcript(_ name: String) -> String {
        path("Tests/PodcastDomainTests/Fixtures/transcripts/" + name)
    }

    /// An image committed with the renderer's tests (`overlay.png`, `scaling-stretch.png`, ...).
    public static func image(_ name: String) -> String { path("Tests/ThumbnailRendererTests/Fixtures/" + name) }
}
