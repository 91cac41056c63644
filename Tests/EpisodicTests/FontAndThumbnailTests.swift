import CoreValues
import Episodic
import EventLog
import Foundation
import PodcastDomain
import Testing
import ThumbnailRenderer

/// Fonts and rendering through the facade: fonts are facts of the log, settings may only choose an
/// imported one, and a render drawn outside the lock is recorded only if its inputs still hold.
@Suite("Fonts and thumbnails in the facade")
struct FontAndThumbnailTests {
    static let fontBytes = Array(FileManager.default.contents(atPath: ThumbnailFont.defaultBoldPath)!)
    /// Another font's file (DejaVu Sans, regular): the same file twice is refused.
    static let otherFontBytes = Array(FileManager.default.contents(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")!)

    /// A podcast with one episode that has a background.
    static func studioWithBackground() throws -> (FacadeLibrary, EpisodeID) {
        let studio = try FacadeLibrary()
        let episode = try studio.createEpisode(in: try studio.createPodcast("Show"), "One")
        try studio.must(try .setBackground(FacadeLibrary.image, of: .id(episode)))
        return (studio, episode)
    }

    static func fontPatch(_ name: String) -> ThumbnailSettingsPatch {
        var patch = ThumbnailSettingsPatch()
        patch.fontName = .some(name)
        return patch
    }

    /// Why `submission` was refused: it must be.
    static func refusal(_ studio: FacadeLibrary, _ submission: Submission) throws -> (any Error)? {
        let report = try studio.library.submit([submission], actor: "tester", clock: studio.tick)
        guard case .failure(let failure)? = report.results.first else {
            Issue.record("\(submission.name) was accepted")
            return nil
        }
        return failure.error
    }

    @Test("a file that is not a font is refused before anything is written")
    func notAFont() throws {
        #expect(throws: UnusableFont.self) { try Submission.importFont(Array("not a font\n".utf8), name: "Text") }
        #expect(Submission.fontName(forFile: "/usr/share/fonts/DejaVuSans-Bold.ttf") == "DejaVuSans-Bold")
        #expect(Submission.fontName(forFile: "fonts/.hidden") == ".hidden")
    }

    @Test("settings may choose only an imported font, stored under its imported name; they may keep a removed one")
    func settingsNameImportedFonts() throws {
        // Given a library with one imported font,
        let (studio, episode) = try Self.studioWithBackground()
        try studio.must(try .importFont(Self.fontBytes, name: "DejaVu Bold"))
        #expect(try studio.library.fonts().map(\.name) == ["DejaVu Bold"])

        // a patch naming another font is refused, and so is a whole-settings change to it,
        #expect(try Self.refusal(studio, Submission(.patchThumbnailSettings(.id(episode), Self.fontPatch(" Comic Sans "))))
            as? DomainError == .fontNotFound("Comic Sans"))
        #expect(try Self.refusal(studio, Submission(.episode(.id(episode), .changeThumbnailSettings(ThumbnailSettings(fontName: "Comic Sans")))))
            as? DomainError == .fontNotFound("Comic Sans"))

        // one naming it in another case is stored as it was imported,
        try studio.must(Submission(.patchThumbnailSettings(.id(episode), Self.fontPatch("dejavu BOLD"))))
        #expect(try studio.library.liveEpisode(episode).thumbnailSettings.fontName == "DejaVu Bold")

        // and the font cannot be removed while the episode uses it, unless forced;
        #expect(try Self.refusal(studio, .removeFont(named: "dejavu bold")) as? DomainError == .fontInUse("DejaVu Bold", by: ["Show/1"]))

        // once it is removed, other settings still change, but rendering is refused.
        try studio.must(.removeFont(named: "DEJAVU BOLD", force: true))
        var bigger = ThumbnailSettingsPatch()
        bigger.fontSize = 90
        try studio.must(Submission(.patchThumbnailSettings(.id(episode), bigger)))
        #expect(throws: DomainError.fontNotFound("DejaVu Bold")) { try studio.library.renderThumbnail(of: .id(episode)) }
        #expect(try Self.refusal(studio, Submission(.patchThumbnailSettings(.id(episode), Self.fontPatch("DejaVu Bold"))))
            as? DomainError == .fontNotFound("DejaVu Bold"))
    }

    @Test("a render is refused when the inputs changed after it was drawn; rendering again records it")
    func renderRace() throws {
        // Given a render drawn outside the lock,
        let (studio, episode) = try Self.studioWithBackground()
        let render = try studio.library.renderThumbnail(of: .id(episode))
        // when the title changes before it is submitted,
        try studio.must(Submission(.episode(.id(episode), .retitle("Uno"))))
        let head = studio.library.log.head
        // then it is refused and nothing is written,
        #expect(try Self.refusal(studio, render) as? DomainError == .renderFromOutdatedInputs)
        #expect(studio.library.log.head == head)
        // and a new render is recorded, with the current inputs.
        let outcome = try studio.must(try studio.library.renderThumbnail(of: .id(episode)))
        #expect(outcome.first?.events.map(\.type) == ["ThumbnailRendered"])
        let rendered = try studio.library.liveEpisode(episode)
        #expect(rendered.hasThumbnail && !rendered.thumbnailOutdated)
        #expect(rendered.thumbnail?.format == .jpeg)
        #expect(try ImageProbe.probe(try studio.library.log.blobs.get(rendered.thumbnail!.image.blob)).width == 1024)
        // The event carries the digest of every input, the font's bytes among them.
        let digest = ThumbnailInputDigest(inputs: try #require(rendered.thumbnailInputs), font: try ThumbnailFont.defaultBold())
        #expect(rendered.thumbnail?.inputsDigest == digest.sha256)
    }

    @Test("the same inputs drawn in another font's bytes give another digest, and another render")
    func fontBytesInTheDigest() throws {
        let (studio, episode) = try Self.studioWithBackground()
        try studio.must(try .importFont(Self.fontBytes, name: "Title"))
        try studio.must(Submission(.patchThumbnailSettings(.id(episode), Self.fontPatch("Title"))))
        try studio.must(try studio.library.renderThumbnail(of: .id(episode)))
        let first = try #require(try studio.library.liveEpisode(episode).thumbnail)
        // The font is replaced by other bytes under the same name: the settings do not change.
        try studio.must(Submission.removeFont(named: "Title", force: true))
        let other = Array(FileManager.default.contents(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")!)
        try studio.must(try .importFont(other, name: "Title"))
        let again = try studio.must(try studio.library.renderThumbnail(of: .id(episode)))
        #expect(again.first?.events.map(\.type) == ["ThumbnailRendered"])
        let second = try #require(try studio.library.liveEpisode(episode).thumbnail)
        #expect(second.inputs == first.inputs)
        #expect(second.inputsDigest != first.inputsDigest)
    }

    @Test("a script's thumbnail.render draws the episode as the batch has left it")
    func renderInABatch() throws {
        let (studio, episode) = try Self.studioWithBackground()
        let outcomes = try studio.must(
            try .setOverlay(FacadeLibrary.image, of: .id(episode)), Submission(.episode(.id(episode), .changeThumbnailText(.custom("Pilot")))),
            Submission(.renderThumbnail(.id(episode))), atomic: true)
        #expect(outcomes.map(\.name) == ["thumbnail.overlay", "thumbnail.text", "thumbnail.render"])
        let rendered = try studio.library.liveEpisode(episode)
        #expect(rendered.thumbnail?.inputs.overlay != nil, "the overlay set earlier in the batch is drawn")
        #expect(rendered.thumbnail?.format == .jpeg, "JPEG, as the overlay leaves nothing transparent")
        #expect(rendered.thumbnail?.inputs.text == "Pilot")
        #expect(!rendered.thumbnailOutdated)
    }

    @Test("undo of a font import removes it, undo of a removal brings it back, and redo does each again")
    func undoFonts() throws {
        let studio = try FacadeLibrary()
        let imported = try #require(try studio.must(try .importFont(Self.fontBytes, name: "DejaVu Bold")).first)
        try studio.must(try .importFont(Self.otherFontBytes, name: "Other"))

        // Undoing the first import does not conflict with the second: another font.
        let undone = try studio.undo(imported.commandID)
        #expect(undone.events.map(\.type) == ["FontRemoved"])
        #expect(try studio.library.fonts().map(\.name) == ["Other"])
        try studio.undo(undone.commandID)
        #expect(try studio.library.fonts().map(\.name) == ["DejaVu Bold", "Other"])

        let removed = try #require(try studio.must(.removeFont(named: "other")).first)
        let back = try studio.undo(removed.commandID)
        #expect(back.events.map(\.type) == ["FontImported"])
        #expect(try studio.library.fonts() == [
            ImportedFont(name: "DejaVu Bold", font: BlobStore.reference(for: Self.fontBytes)),
            ImportedFont(name: "Other", font: BlobStore.reference(for: Self.otherFontBytes)),
        ])
    }

    @Test("a library with font events rebuilds its read models to the same rows, and verifies clean")
    func rebuildWithFontEvents() throws {
        // Given a library whose log mixes font events with podcast and episode events,
        let (studio, episode) = try Self.studioWithBackground()
        try studio.must(try .importFont(Self.fontBytes, name: "DejaVu Bold"))
        try studio.must(Submission(.patchThumbnailSettings(.id(episode), Self.fontPatch("DejaVu Bold"))))
        try studio.must(try studio.library.renderThumbnail(of: .id(episode)))
        try studio.must(.removeFont(named: "DejaVu Bold", force: true))
        let rows = try studio.readModelRows()

        // when every read model is rebuilt from the log,
        try studio.library.readModel().rebuild(log: studio.library.log)

        // then the rows are the same, and the read model agrees with a replay.
        #expect(try studio.readModelRows() == rows)
        #expect(try studio.library.verify().isClean)
        #expect(try Library(at: studio.library.path).currentReadModel().episode(episode)?.thumbnail != nil)
    }
}
