import Foundation
import TestSupport
import Testing
import ThumbnailRenderer

/// `thumbnail render` and `thumbnail export` through the built binary, on real libraries.
@Suite("Thumbnails from the CLI")
struct ThumbnailCLITests {
    /// The renderer's golden images, used here as backgrounds and overlays: real PNGs of 160 x 90.
    static func fixture(_ name: String) -> String {
        RepositoryFiles.image(name)
    }

    /// A library with a podcast "Show" and its episode 1, "Pilot", with a background unless told otherwise.
    static func showWithBackground(_ background: Bool = true) throws -> CLI {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        try cli.must("episode", "create", "Show", "Pilot")
        if background { try cli.must("thumbnail", "background", "Show/1", fixture("scaling-aspectFill.png")) }
        return cli
    }

    /// The thumbnail flags of episode 1, as `episode list --json` shows them.
    static func flags(_ cli: CLI) throws -> (hasThumbnail: Bool, outdated: Bool) {
        let episode = try #require(try cli.list("episode", "list", "Show").first)
        return (episode["hasThumbnail"] as! Bool, episode["thumbnailOutdated"] as! Bool)
    }

    /// The stored thumbnail of episode 1, as `episode show --json` shows it.
    static func thumbnail(_ cli: CLI) throws -> [String: Any]? {
        try cli.object("episode", "show", "Show/1")["thumbnail"] as? [String: Any]
    }

    static func sha256(of thumbnail: [String: Any]?) -> String? {
        ((thumbnail?["image"] as? [String: Any])?["blob"] as? [String: Any])?["sha256"] as? String
    }

    @Test("render records a thumbnail; a retitle makes it outdated; rendering again brings it up to date")
    func renderAndOutdated() throws {
        // Given an episode with a background and no thumbnail,
        let cli = try Self.showWithBackground()
        #expect(try Self.flags(cli) == (false, false))

        // when it is rendered,
        let rendered = try cli.object("thumbnail", "render", "Show/1")

        // then ThumbnailRendered is appended, and the list shows a thumbnail that is up to date,
        #expect(rendered["events"] as? [String] == ["ThumbnailRendered"])
        #expect(try Self.flags(cli) == (true, false))
        let stored = try #require(try Self.thumbnail(cli))
        #expect(stored["format"] as? String == "jpeg", "JPEG without an overlay")
        #expect((stored["image"] as? [String: Any])?["width"] as? Int == 1024)

        // a retitle makes it outdated,
        try cli.must("episode", "retitle", "Show/1", "Pilot, again")
        #expect(try Self.flags(cli) == (true, true))

        // and a new render brings it up to date.
        try cli.must("thumbnail", "render", "Show/1")
        #expect(try Self.flags(cli) == (true, false))
    }

    @Test("rendering twice from the same inputs stores the same blob")
    func deterministic() throws {
        // Given a rendered thumbnail,
        let cli = try Self.showWithBackground()
        try cli.must("thumbnail", "overlay", "Show/1", Self.fixture("overlay.png"))
        let first = try cli.object("thumbnail", "render", "Show/1")
        let stored = try #require(Self.sha256(of: try Self.thumbnail(cli)))
        #expect(try Self.thumbnail(cli)?["format"] as? String == "jpeg", "JPEG, as the overlay leaves nothing transparent")

        // rendering again from the same inputs draws the same bytes, so there is nothing to record,
        #expect(try cli.object("thumbnail", "render", "Show/1")["events"] as? [String] == [])

        // and once the render is undone, a new one stores the very same blob.
        try cli.must("undo", first["commandID"] as! String)
        #expect(try Self.flags(cli) == (false, false))
        #expect(try cli.object("thumbnail", "render", "Show/1")["events"] as? [String] == ["ThumbnailRendered"])
        #expect(Self.sha256(of: try Self.thumbnail(cli)) == stored)
    }

    @Test("export writes the thumbnail at full size, PNG or JPEG by the file's extension, and records nothing")
    func export() throws {
        let cli = try Self.showWithBackground()
        try cli.must("thumbnail", "text", "Show/1", "Pilot")
        let head = try cli.head()

        for (name, format) in [("out.png", ImageFormat.png), ("out.jpg", .jpeg), ("OUT.JPEG", .jpeg)] {
            let path = cli.folder + "/" + name
            let said = try cli.must("thumbnail", "export", "Show/1", path).out
            #expect(said.hasPrefix("Wrote the \(format.name) thumbnail of \"Show/1\" to \(path) (") && said.hasSuffix(" KB).\n"), "\(said)")
            let info = try ImageProbe.probe(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            #expect(info == ImageInfo(format: format, width: 1920, height: 1080), "\(name)")
        }

        // The canvas the settings give is the export's size.
        try cli.must("thumbnail", "settings", "Show/1", "--canvas", "1280x720")
        let small = cli.folder + "/small.png"
        try cli.must("thumbnail", "export", "Show/1", small)
        #expect(try ImageProbe.probe(Array(try Data(contentsOf: URL(fileURLWithPath: small)))).width == 1280)
        #expect(try cli.head() == head + 1, "only the settings change was appended")
    }

    @Test("an export to a file that is not .png, .jpg or .jpeg is refused, and nothing is written")
    func exportUnknownExtension() throws {
        let cli = try Self.showWithBackground()
        for name in ["out.gif", "out", "out.png.txt"] {
            let path = cli.folder + "/" + name
            let result = try cli.run("thumbnail", "export", "Show/1", path)
            #expect(result.status == 64, "\(name): \(result.err)")
            #expect(result.err.contains("does not end in .png, .jpg or .jpeg"), "\(name): \(result.err)")
            #expect(!FileManager.default.fileExists(atPath: path))
        }
        // --format says what to write whatever the name
        let named = cli.folder + "/out.gif"
        try cli.must("thumbnail", "export", "Show/1", named, "--format", "png")
        #expect(try ImageProbe.probe(Array(try Data(contentsOf: URL(fileURLWithPath: named)))).format == .png)
    }

    @Test("render without a background is refused with 65, and the log is left as it was")
    func renderWithoutBackground() throws {
        // Given an episode without a background,
        let cli = try Self.showWithBackground(false)
        let head = try cli.head()

        // when it is rendered or exported, each is refused, saying what to do,
        for arguments in [["thumbnail", "render", "Show/1"], ["thumbnail", "export", "Show/1", cli.folder + "/out.png"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 65, "\(arguments): \(result.err)")
            #expect(result.err.contains("no background image. Set one first"), "\(arguments): \(result.err)")
        }

        // and nothing was appended.
        #expect(try cli.head() == head)
        #expect(try Self.flags(cli) == (false, false))
        #expect(try cli.run("thumbnail", "render", "Show/9").status == 65)
    }
}
