import EventLog
import PodcastDomain

extension Workspace {
    /// What a submission decides, against the states and facts as the batch has left them; the events
    /// are not folded in (see ``apply(_:)``). The slow work on its input (a transcript's check, a
    /// conversion, a render) is taken from `prepared`, made before the writer lock; where it was not
    /// made, ``InputWorkNeeded`` is thrown before anything is decided.
    func decide(_ submission: Submission, prepared: PreparedInputs) throws -> Decision {
        switch submission.action {
        case let .podcast(reference, command):
            let id = try resolve(reference)
            var command = command
            if case .changeThumbnailDefaults(let settings) = command {
                let current = try podcast(id).live?.thumbnailDefaults
                command = .changeThumbnailDefaults(try withImportedFont(settings, replacing: current))
            }
            let events = try PodcastDecider.decide(command, try podcast(id), try podcastFacts(for: id, command))
            if case .create = command { return Decision(events: events, created: .podcast(id)) }
            return Decision(events: events)
        case let .episode(reference, command):
            let id = try resolve(reference)
            if case .changeThumbnailSettings(let settings) = command {
                let current = try episode(id).live?.thumbnailSettings
                return Decision(events: try decide(.changeThumbnailSettings(try withImportedFont(settings, replacing: current)), episode: id))
            }
            var transcriptCheck: TranscriptCheck?
            if case .importTranscript(let bytes, let ref, let strict) = command { transcriptCheck = try prepared.check(bytes, ref, strict: strict) }
            let events = try decide(command, episode: id, transcriptCheck: transcriptCheck)
            return Decision(events: events, warnings: events.flatMap(\.transcriptWarnings), thumbnailWarnings: try thumbnailWarnings(command, id, events))
        case let .createEpisode(reference, command):
            guard case .create(let id, _, _, _, _, _) = command else {
                preconditionFailure("createEpisode takes EpisodeCommand.create, not \(command.name)")
            }
            let podcast = try resolve(reference)
            let events = try EpisodeDecider.decide(command, try episode(id), try episodeFacts(for: id, in: podcast, command))
            return Decision(events: events, created: .episode(id))
        case let .convertTranscript(reference, strict):
            let id = try resolve(reference)
            let (subtitles, srt, warnings) = try convertTranscript(of: try episode(id), id, strict: strict, prepared: prepared)
            return Decision(events: try decide(.recordSubtitles(subtitles), episode: id), blobs: [srt], warnings: warnings)
        case let .patchThumbnailDefaults(reference, patch):
            let id = try resolve(reference)
            let settings = try withImportedFont(patch, applied: try podcast(id).live?.thumbnailDefaults)
            return Decision(events: try PodcastDecider.decide(.changeThumbnailDefaults(settings), try podcast(id)))
        case let .patchThumbnailSettings(reference, patch):
            let id = try resolve(reference)
            let settings = try withImportedFont(patch, applied: try episode(id).live?.thumbnailSettings)
            let events = try decide(.changeThumbnailSettings(settings), episode: id)
            return Decision(events: events, thumbnailWarnings: try newThumbnailWarnings(of: id, after: events))
        case let .renderThumbnail(reference):
            let id = try resolve(reference)
            let episode = try episode(id).requireLive()
            guard let inputs = episode.thumbnailInputs else { throw DomainError.renderNeedsBackground }
            let (thumbnail, bytes) = try prepared.render(inputs, fonts: try fonts())
            return Decision(
                events: try decide(.recordThumbnail(thumbnail), episode: id), blobs: [bytes], thumbnailWarnings: episode.thumbnailWarnings)
        case let .font(command):
            return Decision(events: try FontDecider.decide(command, try fonts(), try fontFacts(for: command)))
        }
    }

    // MARK: Fonts in settings

    /// `patch` applied to `current`. A font the patch names must be imported (ignoring case); it is
    /// stored under the name it was imported with. Without `current` (no live entity) the decider
    /// refuses, so the font is not looked up.
    private func withImportedFont(_ patch: ThumbnailSettingsPatch, applied current: ThumbnailSettings?) throws -> ThumbnailSettings {
        var settings = patch.applied(to: current ?? .defaults)
        if current != nil, case .some(.some) = patch.fontName, let name = try settings.validated().fontName {
            settings.fontName = try importedFont(named: name).name
        }
        return settings
    }

    /// `settings`, or the refusal of a font that is not imported. A font they keep from `current` is
    /// not looked up: settings may keep a font removed since (rendering refuses it), not choose one.
    private func withImportedFont(_ settings: ThumbnailSettings, replacing current: ThumbnailSettings?) throws -> ThumbnailSettings {
        guard let current, let name = try settings.validated().fontName else { return settings }
        if let kept = current.fontName, Rules.nameKey(kept) == Rules.nameKey(name) { return settings }
        var named = settings
        named.fontName = try importedFont(named: name).name
        return named
    }

    private func importedFont(named name: String) throws -> ImportedFont {
        guard let font = try fonts().font(named: name) else { throw DomainError.fontNotFound(name) }
        return font
    }

    /// The thumbnail warnings an episode command brings: all of them for a render, else those the episode
    /// has after `events` and did not have before, so each is said when the input that causes it is given.
    private func thumbnailWarnings(_ command: EpisodeCommand, _ id: EpisodeID, _ events: [DomainEvent]) throws -> [ThumbnailWarning] {
        switch command {
        case .recordThumbnail: try episode(id).live?.thumbnailWarnings ?? []
        case .setBackground, .setOverlay, .changeThumbnailSettings: try newThumbnailWarnings(of: id, after: events)
        default: []
        }
    }

    /// The thumbnail warnings the episode has after `events` and did not have before.
    private func newThumbnailWarnings(of id: EpisodeID, after events: [DomainEvent]) throws -> [ThumbnailWarning] {
        let before = try episode(id)
        let after = events.reduce(before, EpisodeDecider.evolve)
        let old = before.live?.thumbnailWarnings ?? []
        return (after.live?.thumbnailWarnings ?? []).filter { !old.contains($0) }
    }

    /// An episode command on an existing episode.
    private func decide(_ command: EpisodeCommand, episode id: EpisodeID, transcriptCheck: TranscriptCheck? = nil) throws -> [DomainEvent] {
        let state = try episode(id)
        guard let podcast = state.existing?.podcastID else { throw DomainError.episodeNotFound }
        var facts = try episodeFacts(for: id, in: podcast, command)
        facts.transcriptCheck = transcriptCheck
        return try EpisodeDecider.decide(command, state, facts)
    }

    /// Subtitles from the episode's current transcript, their SRT file, and what the conversion read past.
    private func convertTranscript(of state: EpisodeState, _ id: EpisodeID, strict: Bool, prepared: PreparedInputs) throws
        -> (SubtitlesRef, [UInt8], [TranscriptWarning])
    {
        guard let transcript = try state.requireLive().transcript else { throw DomainError.noTranscript }
        switch try prepared.conversion(transcript, strict: strict) {
        case .success(let made): return (made.subtitles, made.srt, made.warnings)
        case .failure(let error): throw LibraryError.transcriptUnreadable(episode: id, reason: error.description)
        }
    }

    /// For a font's removal, the live episodes whose thumbnail settings name it, as `Podcast/number`
    /// (the read model's, with the batch's own changes over them), and those whose current thumbnail was
    /// drawn in it. A thumbnail that is not outdated was drawn from the settings the episode has now, so
    /// only episodes whose settings name the font can have one.
    private func fontFacts(for command: FontCommand) throws -> FontFacts {
        guard case .remove(let name, _) = command else { return FontFacts() }
        let key = Rules.nameKey(name)
        var using: [EpisodeID] = []
        for stored in try readModel.episodesNamingFonts() where loadedEpisodes[stored.episode] == nil {
            if Rules.nameKey(stored.font) == key { using.append(stored.episode) }
        }
        for (id, state) in loadedEpisodes {
            guard let font = state.live?.thumbnailSettings.fontName, Rules.nameKey(font) == key else { continue }
            using.append(id)
        }
        let episodes = try using.compactMap { try episode($0).live }.sorted { ($0.podcastID.description, $0.number) < ($1.podcastID.description, $1.number) }
        return FontFacts(
            episodesUsing: try episodes.map { "\(try podcast($0.podcastID).live?.name ?? $0.podcastID.description)/\($0.number)" },
            thumbnailsDrawnIn: episodes.filter { $0.hasThumbnail && !$0.thumbnailOutdated }.map(\.id))
    }

    /// The facts a podcast command's rule looks at: other names for a create or a rename, the live
    /// episodes for a delete (which deletes them too).
    private func podcastFacts(for id: PodcastID, _ command: PodcastCommand) throws -> PodcastFacts {
        switch command {
        case .create, .rename:
            var others = try podcastNames()
            others[id] = nil
            return PodcastFacts(otherPodcastNames: others)
        case .delete:
            return PodcastFacts(liveEpisodes: try liveEpisodes(in: id))
        default:
            return PodcastFacts()
        }
    }

    /// The facts an episode command's rule looks at: for a create, the podcast (whose defaults it copies);
    /// and the numbers the command can touch, namely the one it asks for and, for a create without a
    /// number, the highest (which it follows). Other commands look at neither, and are given none: a
    /// podcast's stream can be long.
    private func episodeFacts(for id: EpisodeID, in podcast: PodcastID, _ command: EpisodeCommand) throws -> EpisodeFacts {
        var numbers: [Int: EpisodeID] = [:]
        switch command {
        case .create(_, _, let number?, _, _, _), .renumber(let number):
            numbers[number] = try holder(of: number, in: podcast)
        case .create:
            if let highest = try highestNumbered(in: podcast) { numbers[highest.number] = highest.id }
        default:
            break
        }
        var podcastState = PodcastState.initial
        if case .create = command { podcastState = try self.podcast(podcast) }
        return EpisodeFacts(podcast: podcastState, otherNumbers: numbers.filter { $0.value != id })
    }
}

/// What a submission decided: its events, what it created, and the content its events refer to.
struct Decision {
    var events: [DomainEvent]
    var created: SubmitOutcome.Created? = nil
    /// Content the shell made while deciding (an SRT file), beside the submission's own.
    var blobs: [[UInt8]] = []
    /// What a transcript import or conversion read past, for the outcome.
    var warnings: [TranscriptWarning] = []
    /// What would make the episode's thumbnail poor, for the outcome.
    var thumbnailWarnings: [ThumbnailWarning] = []
}

