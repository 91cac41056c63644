import Foundation
import TestSupport
import Testing
import ThumbnailRenderer

/// Golden images: PNGs in `Fixtures/`, compared pixel by pixel with what the renderer draws now.
///
/// To accept new output after a deliberate change to drawing, regenerate them and look at the diff:
///
///     EPISODIC_UPDATE_GOLDENS=1 swift test --filter ThumbnailRendererTests
///
/// On a mismatch the render is written to `<temporary folder>/episodic-goldens/<name>.png` to look at.
enum Goldens {
    static let folder = URL(fileURLWithPath: RepositoryFiles.path("Tests/ThumbnailRendererTests/Fixtures"))
    static var updating: Bool { ProcessInfo.processInfo.environment["EPISODIC_UPDATE_GOLDENS"] == "1" }

    /// Records an issue unless `png` matches the golden `name` within `tolerance`; writes it as the golden
    /// instead when updating.
    static func check(_ png: [UInt8], matches name: String, within tolerance: Tolerance = .goldens,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = folder.appendingPathComponent(name + ".png")
        if updating {
            try Data(png).write(to: file, options: .atomic)  // other tests may be reading it
            return
        }
        guard let golden = FileManager.default.contents(atPath: file.path) else {
            Issue.record("no golden \(name).png; create it with EPISODIC_UPDATE_GOLDENS=1", sourceLocation: sourceLocation)
            return
        }
        let difference = try PixelDifference(PixelBuffer(decoding: Array(golden)), PixelBuffer(decoding: png), tolerance)
        if !difference.isWithin(tolerance) {
            let actual = try writeActual(png, name)
            Issue.record("\(name): \(difference); this render is at \(actual)", sourceLocation: sourceLocation)
        }
    }

    /// The golden `name`, decoded.
    static func pixels(_ name: String) throws -> PixelBuffer {
        try PixelBuffer(decoding: Array(try Data(contentsOf: folder.appendingPathComponent(name + ".png"))))
    }

    private static func writeActual(_ png: [UInt8], _ name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("episodic-goldens")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name + ".png")
        try Data(png).write(to: file)
        return file.path
    }
}
