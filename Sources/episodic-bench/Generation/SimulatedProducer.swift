import CoreValues
import Foundation
import PodcastDomain

/// Decides what the studio does next, one decision at a time, as people at a shell would: set up the
/// shows, then create each episode and produce it (transcript, subtitles, background, thumbnail), then
/// keep editing until the library holds enough events. A decision is one command or a command and its
/// natural follow-up (a new transcript, then subtitles from it), whose events the shell would commit
/// together or one right after the other.
struct SimulatedProducer {
    private(set) var shell = GeneratingShell()
    private var random: SplitMix64
    private let plan: LibraryPlan
    private let transcripts: TranscriptPool
    private let images: ImagePool
    /// Milliseconds since 1970: commands' times, moving on a few seconds per command.
    private(set) var clock: Int64 = 1_704_096_000_000  // 2024-01-01T08:00:00Z
    /// The podcast each episode still to create goes to, last first.
    private var creations: [Int] = []
    private var podcastsMade = 0
    /// The podcast that holds `plan.bigPodcastEpisodes` live episodes.
    private(set) var bigPodcast: PodcastID?

    init(plan: LibraryPlan, transcripts: TranscriptPool, images: ImagePool) {
        self.plan = plan
        self.transcripts = transcripts
        self.images = images
        random = SplitMix64(seed: plan.seed)
        var queue = Array(repeating: 0, count: plan.bigPodcastEpisodes)
        for show in 1..<plan.podcasts {
            queue += Array(repeating: show, count: Int.random(in: plan.otherEpisodes, using: &random))
        }
        queue.shuffle(using: &random)
        creations = queue
    }

    /// The events of the next decision; never empty.
    mutating func nextDecision() -> [DomainEvent] {
        while true {
            let events: [DomainEvent]
            if podcastsMade < plan.podcasts {
                events = setUpShow()
            } else if let show = creations.popLast() {
                events = createAndProduce(in: shell.podcastIDs[show])
            } else {
                events = edit()
            }
            if !events.isEmpty { return events }
        }
    }

    var refusals: Int { shell.refusals }

    // MARK: Shows and new episodes

    private mutating func setUpShow() -> [DomainEvent] {
        podcastsMade += 1
        let id = PodcastID(random.uuid())
        var name = PodcastText.podcastTitle(using: &random)
        let taken = Set(shell.podcastIDs.compactMap { shell.podcast($0)?.name.lowercased() })
        if taken.contains(name.lowercased()) { name += " \(podcastsMade)" }
        var events = podcastCommand(.create(id: id, name: name, description: PodcastText.description(using: &random), at: tick()), id)
        if bigPodcast == nil { bigPodcast = id }
        if chance(0.8) { events += podcastCommand(.setArtwork(pick(images.artworks)), id) }
        if chance(0.5) { events += podcastCommand(.changeThumbnailDefaults(tweak(.defaults)), id) }
        if chance(0.3) { events += podcastCommand(.setDefaultOverlay(pick(images.overlays)), id) }
        return events
    }

    /// A new episode and the work that follows: most get a transcript, subtitles, a background and a
    /// first render.
    private mutating func createAndProduce(in podcast: PodcastID) -> [DomainEvent] {
        let id = EpisodeID(random.uuid())
        // No number: the decider takes the podcast's highest + 1, as the shell's `episode create` does.
        let description = chance(0.85) ? PodcastText.description(using: &random) : nil
        let title = PodcastText.episodeTitle(number: (shell.numbersCount(podcast) + 1), using: &random)
        var events = episodeCommand(
            .create(id: id, title: title, number: nil, description: description, publishDate: chance(0.6) ? publishDate() : nil, at: tick()),
            id, podcast)
        guard !events.isEmpty else { return [] }
        if chance(0.9) {
            events += importTranscript(id)
            if chance(0.85) { events += recordSubtitles(id) }
        }
        if chance(0.85) {
            events += episodeCommand(.setBackground(pick(images.backgrounds)), id, podcast)
            events += render(id)
        }
        return events
    }

    // MARK: Edits

    /// One edit of an episode, mostly one of the newest, in the proportions a studio makes them.
    private mutating func edit() -> [DomainEvent] {
        let id = pickEpisode()
        guard let episode = shell.episode(id) else { return [] }
        let podcast = episode.podcastID
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<12:
            return retitle(episode)
        case 12..<15:
            return renumber(episode)
        case 15..<24:
            return episodeCommand(.describe(chance(0.9) ? PodcastText.description(using: &random) : nil), id, podcast)
        case 24..<31:
            return episodeCommand(.setPublishDate(chance(0.9) ? publishDate() : nil), id, podcast)
        case 31..<40:
            // A better transcript arrives; usually the subtitles are made again from it.
            var events = importTranscript(id)
            if chance(0.7) { events += recordSubtitles(id) }
            return events
        case 40..<50:
            var events: [DomainEvent] = []
            if episode.transcript == nil || !(episode.subtitlesOutdated || !episode.hasSubtitles) { events += importTranscript(id) }
            return events + recordSubtitles(id)
        case 50..<57:
            return episodeCommand(.changeThumbnailSettings(tweak(episode.thumbnailSettings)), id, podcast)
        case 57..<63:
            return episodeCommand(.changeThumbnailText(thumbnailText(episode)), id, podcast)
        case 63..<68:
            return episodeCommand(.setBackground(pick(images.backgrounds)), id, podcast)
        case 68..<71:
            return episode.overlay == nil || chance(0.5)
                ? episodeCommand(.setOverlay(pick(images.overlays)), id, podcast) : episodeCommand(.clearOverlay, id, podcast)
        case 71..<86:
            // A new render: after setting a background if there is none, or after a change of text if
            // the current render is up to date.
            var events: [DomainEvent] = []
            if episode.background == nil { events += episodeCommand(.setBackground(pick(images.backgrounds)), id, podcast) }
            else if episode.hasThumbnail && !episode.thumbnailOutdated {
                events += episodeCommand(.changeThumbnailText(thumbnailText(episode)), id, podcast)
            }
            return events + render(id)
        case 86..<87:
            return episodeCommand(.clearTranscript, id, podcast)
        case 87..<88:
            // A draft is thrown away and started again: the podcast keeps its number of episodes.
            return episodeCommand(.delete, id, podcast) + createAndProduce(in: podcast)
        case 88..<89:
            return editShow(podcast)
        default:
            // A title fixed, and the thumbnail drawn again with it.
            return retitle(episode) + (episode.background == nil ? [] : render(id))
        }
    }

    private mutating func editShow(_ id: PodcastID) -> [DomainEvent] {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return podcastCommand(.describe(PodcastText.description(using: &random)), id)
        case 1: return podcastCommand(.setArtwork(pick(images.artworks)), id)
        case 2:
            let defaults = shell.podcast(id)?.thumbnailDefaults ?? .defaults
            return podcastCommand(.changeThumbnailDefaults(tweak(defaults)), id)
        default:
            return chance(0.5) ? podcastCommand(.setDefaultOverlay(pick(images.overlays)), id) : podcastCommand(.clearDefaultOverlay, id)
        }
    }

    private mutating func retitle(_ episode: Episode) -> [DomainEvent] {
        episodeCommand(.retitle(PodcastText.episodeTitle(number: episode.number, using: &random)), episode.id, episode.podcastID)
    }

    /// A number no other live episode of the podcast has, near the ones in use.
    private mutating func renumber(_ episode: Episode) -> [DomainEvent] {
        let count = shell.numbersCount(episode.podcastID)
        for _ in 0..<20 {
            let number = Int.random(in: 1...(count + 100), using: &random)
            if !shell.isTaken(number, in: episode.podcastID) {
                return episodeCommand(.renumber(number), episode.id, episode.podcastID)
            }
        }
        return []
    }

    /// A transcript from the pool other than the episode's current one.
    private mutating func importTranscript(_ id: EpisodeID) -> [DomainEvent] {
        guard let episode = shell.episode(id) else { return [] }
        var entry = pick(transcripts.entries)
        if entry.ref == episode.transcript { entry = pick(transcripts.entries) }
        return episodeCommand(.importTranscript(bytes: entry.bytes, ref: entry.ref), id, episode.podcastID)
    }

    /// The SRT of the episode's current transcript, as the shell would convert and store it.
    private mutating func recordSubtitles(_ id: EpisodeID) -> [DomainEvent] {
        guard let episode = shell.episode(id), let transcript = episode.transcript,
            let entry = transcripts.entry(for: transcript)
        else { return [] }
        return episodeCommand(.recordSubtitles(entry.subtitles), id, episode.podcastID)
    }

    /// A render of the episode's current inputs: a 1024 x 576 JPEG, as the renderer stores every render.
    private mutating func render(_ id: EpisodeID) -> [DomainEvent] {
        guard let episode = shell.episode(id), let inputs = episode.thumbnailInputs else { return [] }
        let thumbnail = RenderedThumbnail(image: pick(images.renders), format: .jpeg, inputs: inputs)
        return episodeCommand(.recordThumbnail(thumbnail), id, episode.podcastID)
    }

    // MARK: Values

    private static let fonts: [String?] = [nil, "Inter", "Helvetica Neue", "Futura", "Avenir Next Heavy"]
    private static let colors = ["#FFFFFF", "#FFD400", "#1E1E2E", "#FF5A5F", "#00A699", "#F5F5F5"].map { HexColor(rawValue: $0)! }

    /// The settings with one thing changed, as a person nudges them in the editor.
    private mutating func tweak(_ settings: ThumbnailSettings) -> ThumbnailSettings {
        var s = settings
        switch Int.random(in: 0..<6, using: &random) {
        case 0: s.fontSize = Double(Int.random(in: 36...140, using: &random))
        case 1:
            s.textPositionX = Double(Int.random(in: 20...80, using: &random)) / 100
            s.textPositionY = Double(Int.random(in: 20...80, using: &random)) / 100
        case 2: s.fontColorHex = pick(Self.colors)
        case 3:
            s.outlineEnabled.toggle()
            s.outlineColorHex = pick(Self.colors)
        case 4: s.fontName = pick(Self.fonts)
        default:
            let preset = pick(ThumbnailSettings.canvasPresets)
            s.canvasWidth = preset.width
            s.canvasHeight = preset.height
            s.backgroundScaling = pick(BackgroundScaling.allCases)
            s.horizontalPadding = Double(Int.random(in: 0...120, using: &random))
        }
        return s
    }

    private mutating func thumbnailText(_ episode: Episode) -> ThumbnailText {
        switch Int.random(in: 0..<5, using: &random) {
        case 0: .episodeNumber
        case 1: .custom("EP \(episode.number) LIVE")
        case 2: .custom("#\(episode.number)")
        case 3: .title
        default: .custom(String(episode.title.split(separator: ":").last ?? "New").trimmingCharacters(in: .whitespaces))
        }
    }

    /// A day some days ahead, at midnight UTC.
    private mutating func publishDate() -> Timestamp {
        let day = (clock / 86_400_000 + Int64.random(in: -3...30, using: &random)) * 86_400_000
        return Timestamp(rawValue: day)!
    }

    // MARK: Plumbing

    private mutating func tick() -> Timestamp {
        clock += Int64.random(in: 2_000...90_000, using: &random)
        return Timestamp(rawValue: clock)!
    }

    private mutating func podcastCommand(_ command: PodcastCommand, _ id: PodcastID) -> [DomainEvent] {
        _ = tick()
        return shell.run(command, podcast: id)
    }

    private mutating func episodeCommand(_ command: EpisodeCommand, _ id: EpisodeID, _ podcast: PodcastID) -> [DomainEvent] {
        _ = tick()
        return shell.run(command, episode: id, podcast: podcast)
    }

    /// Mostly one of the 400 newest episodes, as a studio works on this month's shows; else any.
    private mutating func pickEpisode() -> EpisodeID {
        let created = shell.created
        if chance(0.6) {
            let id = created[created.count - 1 - Int.random(in: 0..<min(400, created.count), using: &random)]
            if shell.episode(id) != nil { return id }
        }
        return pick(shell.live)
    }

    private mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &random) < probability
    }

    private mutating func pick<T>(_ values: [T]) -> T {
        values[Int.random(in: 0..<values.count, using: &random)]
    }
}
