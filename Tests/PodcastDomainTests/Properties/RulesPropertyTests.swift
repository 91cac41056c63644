import CoreValues
import PropertyBased
import Testing

@testable import PodcastDomain

/// Random sequences of commands, from a small pool of ids, names and numbers so that they collide
/// often: whatever is accepted or refused, the rules hold in every state reached.
@Suite("Rules under random commands")
struct RulesPropertyTests {
    @Test("names and numbers stay unique, settings stay in range, episodes never outlive their podcast, events round-trip")
    func rulesHold() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int(Int32.max)).array(of: 1...60)) { choices in
            var library = InMemoryLibrary()
            for choice in choices {
                let command = CommandPool.command(from: choice)
                if case .success(let events) = library.run(command) {
                    events.forEach { expectRoundTrip($0) }
                }
                checkInvariants(library, after: command)
            }
        }
    }

    private func checkInvariants(_ library: InMemoryLibrary, after command: InMemoryLibrary.Command) {
        let names = library.livePodcasts.map { $0.name.lowercased() }
        #expect(Set(names).count == names.count, "podcast names unique after \(command)")
        for podcast in library.livePodcasts {
            #expect(!podcast.name.isEmpty && podcast.name == podcast.name.trimmingCharacters(in: .whitespaces))
            #expect((try? Rules.settings(podcast.thumbnailDefaults)) == podcast.thumbnailDefaults)
        }
        let livePodcasts = Set(library.livePodcasts.map(\.id))
        var numbers: [PodcastID: Set<Int>] = [:]
        for episode in library.liveEpisodes {
            #expect(livePodcasts.contains(episode.podcastID), "episode outlived its podcast after \(command)")
            #expect(numbers[episode.podcastID, default: []].insert(episode.number).inserted, "number \(episode.number) twice after \(command)")
            #expect(Rules.episodeNumbers.contains(episode.number))
            #expect((try? Rules.settings(episode.thumbnailSettings)) == episode.thumbnailSettings)
            #expect(!episode.title.isEmpty)
            if episode.thumbnail != nil { #expect(episode.background != nil) }
        }
    }
}

/// Turns a random number into a command: its low bits pick the kind, the rest pick ids and values.
enum CommandPool {
    static let podcasts = (1...3).map { PodcastID(Fixture.uuid($0)) }
    static let episodes = (101...106).map { EpisodeID(Fixture.uuid($0)) }
    static let names = ["Merge Conflict", "merge conflict ", "Release Notes", "  ", "Octo"]
    static let images = [Fixture.image("a"), Fixture.image("b", 800, 600), Fixture.image("bad", 0, 10)]
    static let transcripts = ["00:00:01\nHost\nHello\n", "00:01.50\nAna\nHi\n", " \n"]

    static func command(from choice: Int) -> InMemoryLibrary.Command {
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
        let at = Timestamp(rawValue: 1_795_000_000_000 + Int64(pick(1000)) * 1000)!
        switch kind {
        case 0: return .podcast(podcast, .create(id: podcast, name: name, at: at))
        case 1: return .podcast(podcast, .rename(name))
        case 2: return .podcast(podcast, .describe(pick(2) == 0 ? nil : name))
        case 3: return .podcast(podcast, pick(2) == 0 ? .setArtwork(image) : .clearArtwork)
        case 4: return .podcast(podcast, pick(2) == 0 ? .setDefaultOverlay(image) : .clearDefaultOverlay)
        case 5: return .podcast(podcast, .changeThumbnailDefaults(settings(pick(1000))))
        case 6: return .podcast(podcast, .delete)
        case 7, 8: return .episode(episode, podcast: podcast, .create(id: episode, title: name, number: number == 4 ? nil : number, at: at))
        case 9: return .episode(episode, podcast: podcast, .retitle(name))
        case 10: return .episode(episode, podcast: podcast, .renumber(number))
        case 11: return .episode(episode, podcast: podcast, .describe(name))
        case 12: return .episode(episode, podcast: podcast, .delete)
        case 13:
            let text = transcripts[pick(transcripts.count)]
            return .episode(episode, podcast: podcast, .importTranscript(bytes: Array(text.utf8), ref: Fixture.blob(text)))
        case 14: return .episode(episode, podcast: podcast, .clearTranscript)
        case 15:
            let source = Fixture.blob(transcripts[pick(2)])
            return .episode(episode, podcast: podcast, .recordSubtitles(SubtitlesRef(blob: Fixture.blob("srt"), cueCount: 1, transcript: source)))
        case 16: return .episode(episode, podcast: podcast, .setBackground(image))
        case 17: return .episode(episode, podcast: podcast, pick(2) == 0 ? .setOverlay(image) : .clearOverlay)
        case 18: return .episode(episode, podcast: podcast, .changeThumbnailSettings(settings(pick(1000))))
        case 19: return .episode(episode, podcast: podcast, .changeThumbnailText(pick(2) == 0 ? nil : name))
        case 20: return .episode(episode, podcast: podcast, .setPublishDate(pick(2) == 0 ? nil : at))
        default:
            // A render from whatever the episode's inputs might be: often stale, sometimes current.
            let inputs = ThumbnailInputs(
                title: name.trimmingCharacters(in: .whitespaces), number: number, text: "EP \(number)",
                settings: .defaults, background: image, overlay: nil)
            let render = RenderedThumbnail(image: Fixture.image("thumb", 1024, 576), format: .jpeg, inputs: inputs)
            return .episode(episode, podcast: podcast, .recordThumbnail(render))
        }
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
