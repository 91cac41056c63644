import CoreValues
import Foundation
import PodcastDomain
import TestSupport

/// Turns a random number into a command: its low bits pick the kind, the rest pick ids and values.
public enum CommandPool {
    public static let podcasts = (1...3).map { PodcastID(TestContent.uuid($0)) }
    public static let episodes = (101...106).map { EpisodeID(TestContent.uuid($0)) }
    static let names = ["Merge Conflict", "merge conflict ", "Release Notes", "  ", "Octo"]
    static let images = [TestContent.image("a"), TestContent.image("b", 800, 600), TestContent.image("bad", 0, 10)]
    static let transcripts = ["00:00:01\nHost\nHello\n", "00:01.50\nAna\nHi\n", " \n"]

    /// Two podcasts and four episodes to start from, so that random runs work on live entities rather
    /// than mostly being refused for want of them.
    public static let setup: [InMemoryLibrary.Command] = {
        let at = TestClock.start
        return [
            .podcast(podcasts[0], .create(id: podcasts[0], name: "Merge Conflict", at: at)),
            .podcast(podcasts[1], .create(id: podcasts[1], name: "Release Notes", at: at)),
        ] + episodes.prefix(4).enumerated().map { i, episode in
            let podcast = podcasts[i % 2]
            return .episode(episode, podcast: podcast, .create(id: episode, title: "Episode \(i + 1)", at: at))
        }
    }()

    public static func command(from choice: Int) -> InMemoryLibrary.Command {
        var rest = choice
        func pick(_ count: Int) -> Int {
            defer { rest /= count }
            return rest % count
        }
        let kind = pick(22)
        let podcast = podcasts[pick(podcasts.count)]
        let episode = episodes[pick(episodes.count)]
        let name = names[pick(names.count)]
        let image = images[pick(images.count)]
        let number = pick(5)  // 0 is out of range
        let at = Timestamp(rawValue: TestClock.start.rawValue + Int64(pick(1000)) * 1000)!
        switch kind {
        case 0: return .podcast(podcast, .create(id: podcast, name: name, at: at))
        case 1: return .podcast(podcast, .rename(name))
        case 2: return .podcast(podcast, .describe(pick(2) == 0 ? nil : name))
        case 3: return .podcast(podcast, pick(2) == 0 ? .setArtwork(image) : .clearArtwork)
        case 4: return .podcast(podcast, pick(2) == 0 ? .setDefaultOverlay(image) : .clearDefaultOverlay)
        case 5:
            return .podcast(podcast, pick(2) == 0
                ? .changeThumbnailDefaults(settings(pick(1000))) : .changeDefaultThumbnailText(text(pick(3), name)))
        case 6: return .podcast(podcast, .delete)
        case 7, 8: return .episode(episode, podcast: podcast, .create(id: episode, title: name, number: number == 4 ? nil : number, at: at))
        case 9: return .episode(episode, podcast: podcast, .retitle(name))
        case 10: return .episode(episode, podcast: podcast, .renumber(number))
        case 11: return .episode(episode, podcast: podcast, .describe(name))
        case 12: return .episode(episode, podcast: podcast, .delete)
        case 13:
            let text = transcripts[pick(transcripts.count)]
            return .episode(episode, podcast: podcast, .importTranscript(bytes: Array(text.utf8), ref: TestContent.blob(text)))
        case 14: return .episode(episode, podcast: podcast, .clearTranscript)
        case 15:
            let source = TestContent.blob(transcripts[pick(2)])
            return .episode(episode, podcast: podcast, .recordSubtitles(SubtitlesRef(blob: TestContent.blob("srt"), cueCount: 1, transcript: source)))
        case 16: return .episode(episode, podcast: podcast, .setBackground(image))
        case 17: return .episode(episode, podcast: podcast, pick(2) == 0 ? .setOverlay(image) : .clearOverlay)
        case 18: return .episode(episode, podcast: podcast, .changeThumbnailSettings(settings(pick(1000))))
        case 19: return .episode(episode, podcast: podcast, .changeThumbnailText(text(pick(3), name)))
        case 20: return .episode(episode, podcast: podcast, .setPublishDate(pick(2) == 0 ? nil : at))
        default:
            // A render from whatever the episode's inputs might be: often stale, sometimes current.
            let inputs = ThumbnailInputs(
                title: name.trimmingCharacters(in: .whitespaces), number: number, text: "EP \(number)",
                settings: .defaults, background: image, overlay: nil)
            let render = RenderedThumbnail(image: TestContent.image("thumb", 1024, 576), format: .jpeg, inputs: inputs)
            return .episode(episode, podcast: podcast, .recordThumbnail(render))
        }
    }

    /// The number, the title, or `words` (some blank, some too long).
    static func text(_ choice: Int, _ words: String) -> ThumbnailText {
        [.episodeNumber, .title, .custom(words)][choice]
    }

    /// Settings from the defaults, with one field pushed somewhere, sometimes out of range.
    static func settings(_ choice: Int) -> ThumbnailSettings {
        var settings = ThumbnailSettings.defaults
        let value = Double(choice % 250) - 20
        switch choice % 6 {
        case 0: settings.fontSize = value
        case 1: settings.textPositionX = value / 100
        case 2: settings.horizontalPadding = value
        case 3: settings.canvasWidth = Int(value) * 40
        case 4: settings.backgroundScaling = BackgroundScaling.allCases[choice % 3]
        default: settings.fontColorHex = HexColor(rawValue: choice % 2 == 0 ? "#abcdef" : "#123456")!
        }
        return settings
    }
}
