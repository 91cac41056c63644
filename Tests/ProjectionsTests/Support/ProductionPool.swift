import CoreValues
import DomainTestSupport
import PodcastDomain

/// Random commands that a studio makes while producing a few episodes, chosen from the current state so
/// that most are accepted: subtitles from the current transcript, renders of the current inputs, and
/// edits that overwrite each other and leave flags current or out of date.
enum ProductionPool {
    static let episodes = (1...3).map(Scene.episode)
    static let transcripts = ["00:00:01\nHost\nHello.\n", "00:00:02\nAna\nHi.\n"]
    static let images = [TestContent.image("a"), TestContent.image("b", 800, 600)]

    static func command(from choice: Int, in domain: InMemoryLibrary) -> InMemoryLibrary.Command {
        var rest = choice
        func pick(_ count: Int) -> Int {
            defer { rest /= count }
            return rest % count
        }
        let kind = pick(16)
        let n = 1 + pick(episodes.count)
        let live = domain.episodes[Scene.episode(n)]?.live
        switch kind {
        case 0:
            return live == nil ? Scene.createEpisode(n, "Episode \(n)") : Scene.on(n, .delete)
        case 1, 2:
            return Scene.importTranscript(n, transcripts[pick(transcripts.count)])
        case 3:
            return Scene.on(n, .clearTranscript)
        case 4, 5:
            let transcript = live?.transcript ?? TestContent.blob("none")
            return Scene.on(n, .recordSubtitles(SubtitlesRef(blob: TestContent.blob("srt \(pick(3))"), cueCount: 1, transcript: transcript)))
        case 6:
            return Scene.on(n, .retitle(["Pilot", "Second take", "Final"][pick(3)]))
        case 7:
            return Scene.on(n, .renumber(1 + pick(6)))
        case 8:
            return Scene.on(n, .setBackground(images[pick(images.count)]))
        case 9:
            return Scene.on(n, pick(2) == 0 ? .setOverlay(images[pick(images.count)]) : .clearOverlay)
        case 10:
            return Scene.on(n, .changeThumbnailText([.episodeNumber, .title, .custom("EP \(pick(9))")][pick(3)]))
        case 11:
            return Scene.on(n, .changeThumbnailSettings(ThumbnailSettings(fontSize: Double(40 + pick(3) * 10))))
        case 12:
            return Scene.on(n, .setPublishDate(pick(2) == 0 ? nil : Scene.monday))
        default:
            // A render of the current inputs: up to date until the next change of one of them.
            guard let inputs = live?.thumbnailInputs else { return Scene.on(n, .setBackground(images[0])) }
            let format: RenderedThumbnail.Format = inputs.overlay == nil ? .jpeg : .png
            return Scene.on(n, .recordThumbnail(RenderedThumbnail(image: TestContent.image("thumb \(pick(3))", 1024, 576), format: format, inputs: inputs)))
        }
    }
}
