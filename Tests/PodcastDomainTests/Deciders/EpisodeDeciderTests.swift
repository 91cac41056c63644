import CoreValues
import DomainTestSupport
import Testing

@testable import PodcastDomain

@Suite("Episode decider")
struct EpisodeDeciderTests {
    let id = Fixture.episode
    let at = Fixture.monday
    let podcast = [Fixture.created()]

    // MARK: create

    @Test("create copies the podcast's thumbnail defaults and default overlay into the episode")
    func createCopiesDefaults() {
        var defaults = ThumbnailSettings.defaults
        defaults.fontSize = 96
        let overlay = Fixture.image("overlay")
        let podcast = [
            Fixture.created(),
            .podcastThumbnailDefaultsChanged(PodcastThumbnailDefaultsChanged(podcastID: Fixture.podcast, thumbnailDefaults: defaults)),
            .podcastDefaultOverlaySet(PodcastDefaultOverlaySet(podcastID: Fixture.podcast, overlay: overlay)),
        ]
        Given(podcast, episode: []).when(.create(id: id, title: " Pilot ", number: 7, description: "First", publishDate: Fixture.tuesday, at: at))
            .then([.episodeCreated(EpisodeCreated(
                episodeID: id, podcastID: Fixture.podcast, title: "Pilot", number: 7, description: "First",
                publishDate: Fixture.tuesday, createdAt: at, thumbnailSettings: defaults, overlay: overlay))])
    }

    @Test("create starts the episode on the podcast's default background, else on its artwork, else on none")
    func createTakesTheDefaultBackground() {
        let art = Fixture.image("art"), background = Fixture.image("background")
        let withArt: [DomainEvent] = [Fixture.created(), .podcastArtworkSet(PodcastArtworkSet(podcastID: Fixture.podcast, artwork: art))]
        let withBoth = withArt + [.podcastDefaultBackgroundSet(PodcastDefaultBackgroundSet(podcastID: Fixture.podcast, background: background))]
        func created(on background: ImageRef?) -> [DomainEvent] {
            [.episodeCreated(EpisodeCreated(
                episodeID: id, podcastID: Fixture.podcast, title: "Pilot", number: 1, createdAt: at, thumbnailSettings: .defaults,
                background: background))]
        }
        Given(withBoth, episode: []).when(.create(id: id, title: "Pilot", at: at)).then(created(on: background))
        Given(withArt, episode: []).when(.create(id: id, title: "Pilot", at: at)).then(created(on: art))
        Given(podcast, episode: []).when(.create(id: id, title: "Pilot", at: at)).then(created(on: nil))
        #expect(EpisodeDecider.fold(created(on: art)).live?.thumbnailInputs?.background == art, "it renders on it")
    }

    @Test("without a number, create takes the podcast's highest number + 1 (1 for the first episode)")
    func createSuggestsNumber() {
        Given(podcast, episode: []).when(.create(id: id, title: "Pilot", at: at)).then([Fixture.episodeCreated(number: 1)])
        Given(podcast, episode: []).numbers([3: Fixture.otherEpisode, 41: EpisodeID(Fixture.uuid(103))])
            .when(.create(id: id, title: "Pilot", at: at)).then([Fixture.episodeCreated(number: 42)])
    }

    @Test("create refuses a taken or out-of-range number, a blank title, and a missing or deleted podcast")
    func createRefusals() {
        Given(podcast, episode: []).numbers([5: Fixture.otherEpisode]).when(.create(id: id, title: "T", number: 5, at: at))
            .thenRefused(.episodeNumberTaken(5, by: Fixture.otherEpisode))
        for number in [0, -1, Int(Int32.max) + 1] {
            Given(podcast, episode: []).when(.create(id: id, title: "T", number: number, at: at)).thenRefused(.episodeNumberOutOfRange(number))
        }
        Given(podcast, episode: []).numbers([Int(Int32.max): Fixture.otherEpisode]).when(.create(id: id, title: "T", at: at))
            .thenRefused(.episodeNumberOutOfRange(Int(Int32.max) + 1))
        Given(podcast, episode: []).when(.create(id: id, title: "  ", at: at)).thenRefused(.blank(.episodeTitle))
        Given([], episode: []).when(.create(id: id, title: "T", at: at)).thenRefused(.podcastNotFound)
        Given(podcast + [.podcastDeleted(PodcastDeleted(podcastID: Fixture.podcast))], episode: []).when(.create(id: id, title: "T", at: at))
            .thenRefused(.podcastDeleted(Fixture.podcast))
        Given(podcast, episode: [Fixture.episodeCreated()]).when(.create(id: id, title: "T", at: at))
            .thenRefused(.episodeAlreadyExists(id))
    }

    @Test("later changes to the podcast's defaults and overlay do not reach an existing episode; an episode created after takes them")
    func defaultsDoNotReachExistingEpisodes() throws {
        // Given a podcast with defaults and an overlay, and an episode created with them, through the
        // deciders and the library's one fold
        var library = InMemoryLibrary()
        let show = Fixture.podcast
        let (first, later) = (ThumbnailSettings(fontSize: 96), ThumbnailSettings(fontSize: 12))
        for command: PodcastCommand in [
            .create(id: show, name: "Show", at: at), .changeThumbnailDefaults(first), .setDefaultOverlay(Fixture.image("first")),
        ] {
            _ = try library.run(.podcast(show, command)).get()
        }
        _ = try library.run(.episode(id, podcast: show, .create(id: id, title: "Pilot", at: at))).get()
        #expect(library.state.episode(id).live?.thumbnailSettings == first)

        // When the podcast's defaults and overlay change
        let changes = try library.run(.podcast(show, .changeThumbnailDefaults(later))).get()
            + library.run(.podcast(show, .setDefaultOverlay(Fixture.image("later")))).get()

        // Then the podcast holds the new ones, the existing episode keeps those it was created with, and
        // an episode created now takes the new ones
        #expect(changes.map(\.type) == [PodcastThumbnailDefaultsChanged.type, PodcastDefaultOverlaySet.type])
        #expect(library.state.podcast(show).live?.thumbnailDefaults == later)
        #expect(library.state.episode(id).live?.thumbnailSettings == first)
        #expect(library.state.episode(id).live?.overlay == Fixture.image("first"))
        let next = Fixture.otherEpisode
        _ = try library.run(.episode(next, podcast: show, .create(id: next, title: "Second", at: at))).get()
        #expect(library.state.episode(next).live?.thumbnailSettings == later)
        #expect(library.state.episode(next).live?.overlay == Fixture.image("later"))
    }

    // MARK: light fields

    @Test("retitle, renumber, describe and publish-date change a field, or nothing when it is the same")
    func lightFields() {
        let given = Given(podcast, episode: [Fixture.episodeCreated()])
        given.when(.retitle("Second take")).then([.episodeRetitled(EpisodeRetitled(episodeID: id, title: "Second take"))])
        given.when(.retitle(" Pilot")).thenNothingHappens()
        given.when(.retitle("\n")).thenRefused(.blank(.episodeTitle))
        given.when(.renumber(2)).then([.episodeRenumbered(EpisodeRenumbered(episodeID: id, number: 2))])
        given.when(.renumber(1)).thenNothingHappens()
        given.numbers([2: Fixture.otherEpisode]).when(.renumber(2)).thenRefused(.episodeNumberTaken(2, by: Fixture.otherEpisode))
        given.numbers([1: id]).when(.renumber(1)).thenNothingHappens()
        given.when(.renumber(0)).thenRefused(.episodeNumberOutOfRange(0))
        given.when(.describe("Notes")).then([.episodeDescribed(EpisodeDescribed(episodeID: id, description: "Notes"))])
        given.when(.describe(" ")).thenNothingHappens()
        given.when(.setPublishDate(Fixture.tuesday)).then([.episodePublishDateChanged(EpisodePublishDateChanged(episodeID: id, publishDate: Fixture.tuesday))])
        given.when(.setPublishDate(nil)).thenNothingHappens()
        given.when(.delete).then([.episodeDeleted(EpisodeDeleted(episodeID: id))])
    }

    // MARK: transcript and subtitles

    @Test("a transcript is imported, then replaced; the same one again changes nothing; clear removes it")
    func transcript() {
        let text = Array(Fixture.transcriptText.utf8)
        Given(podcast, episode: [Fixture.episodeCreated()]).when(.importTranscript(bytes: text, ref: Fixture.transcript))
            .then([.transcriptImported(TranscriptImported(episodeID: id, transcript: Fixture.transcript, warnings: []))])
        let given = Given(podcast, episode: Fixture.withTranscript)
        given.when(.importTranscript(bytes: text, ref: Fixture.transcript)).thenNothingHappens()
        let newer = Array("00:00:02\nHost\nHello again.\n".utf8)
        let newerRef = Fixture.blob("00:00:02\nHost\nHello again.\n")
        given.when(.importTranscript(bytes: newer, ref: newerRef))
            .then([.transcriptReplaced(TranscriptReplaced(episodeID: id, transcript: newerRef, warnings: []))])
        given.when(.clearTranscript).then([.transcriptCleared(TranscriptCleared(episodeID: id))])
        Given(podcast, episode: [Fixture.episodeCreated()]).when(.clearTranscript).thenNothingHappens()
    }

    @Test("a transcript must be UTF-8, not blank, at most 10 MB, and the size its reference says")
    func transcriptRules() {
        let given = Given(podcast, episode: [Fixture.episodeCreated()])
        let latin1: [UInt8] = [0x43, 0x61, 0x66, 0xE9]  // "Café" in Latin-1
        given.when(.importTranscript(bytes: latin1, ref: BlobRef(sha256: Fixture.transcript.sha256, byteCount: 4)!))
            .thenRefused(.transcriptNotUTF8)
        for blank in ["", " \n\t", "\u{FEFF}\n"] {
            let bytes = Array(blank.utf8)
            given.when(.importTranscript(bytes: bytes, ref: BlobRef(sha256: Fixture.transcript.sha256, byteCount: bytes.count)!))
                .thenRefused(.transcriptEmpty)
        }
        let huge = [UInt8](repeating: UInt8(ascii: "a"), count: DomainError.transcriptLimit + 1)
        given.when(.importTranscript(bytes: huge, ref: BlobRef(sha256: Fixture.transcript.sha256, byteCount: huge.count)!))
            .thenRefused(.transcriptTooLarge(bytes: huge.count))
        given.when(.importTranscript(bytes: Array("abc".utf8), ref: Fixture.transcript))
            .thenRefused(.transcriptSizeMismatch(declared: Fixture.transcript.byteCount, actual: 3))
    }

    @Test("a transcript checked ahead is taken for the same content and strictness only; otherwise the decider checks it")
    func transcriptCheckedAhead() throws {
        // Given a transcript with defects, which a lenient import reads past and a strict one refuses
        let text = "Show notes\n00:00:10\nHost\nHello.\n\n00:00:05\nGuest\nEarlier?\n"
        let (bytes, ref) = (Array(text.utf8), Fixture.blob(text))
        let lenient = TranscriptCheck(bytes, ref, strict: false)
        let warnings = try lenient.outcome.get()
        #expect(warnings.map(\.kind) == [.header, .timeOutOfOrder])
        let given = Given(podcast, episode: [Fixture.episodeCreated()])
        let imported = [DomainEvent.transcriptImported(TranscriptImported(episodeID: id, transcript: ref, warnings: warnings))]

        // Then its lenient check is taken by a lenient import, as the decider's own would be
        given.checked(lenient).when(.importTranscript(bytes: bytes, ref: ref)).then(imported)
        given.when(.importTranscript(bytes: bytes, ref: ref)).then(imported)
        // and not by a strict one, which the decider checks, and refuses
        guard case .failure(let refusal) = TranscriptCheck(bytes, ref, strict: true).outcome else {
            Issue.record("a strict check passed a transcript with defects")
            return
        }
        given.checked(lenient).when(.importTranscript(bytes: bytes, ref: ref, strict: true)).thenRefused(refusal)
        // nor by an import of other content
        let clean = "00:00:01\nHost\nHello.\n"
        given.checked(lenient).when(.importTranscript(bytes: Array(clean.utf8), ref: Fixture.blob(clean)))
            .then([.transcriptImported(TranscriptImported(episodeID: id, transcript: Fixture.blob(clean), warnings: []))])
    }

    @Test("subtitles are recorded only from the current transcript, and go out of date when it changes")
    func subtitles() {
        let srt = SubtitlesRef(blob: Fixture.blob("srt"), cueCount: 1, transcript: Fixture.transcript)
        Given(podcast, episode: [Fixture.episodeCreated()]).when(.recordSubtitles(srt)).thenRefused(.noTranscript)
        let given = Given(podcast, episode: Fixture.withTranscript)
        given.when(.recordSubtitles(srt)).then([.srtGenerated(SRTGenerated(episodeID: id, subtitles: srt))])
        given.when(.recordSubtitles(SubtitlesRef(blob: Fixture.blob("srt"), cueCount: 1, transcript: Fixture.blob("old"))))
            .thenRefused(.subtitlesFromAnotherTranscript)
        for cues in [0, -5] {
            given.when(.recordSubtitles(SubtitlesRef(blob: Fixture.blob("srt"), cueCount: cues, transcript: Fixture.transcript)))
                .thenRefused(.noCues)
        }

        let generated = Fixture.withTranscript + [.srtGenerated(SRTGenerated(episodeID: id, subtitles: srt))]
        Given(podcast, episode: generated).when(.recordSubtitles(srt)).thenNothingHappens()
        #expect(EpisodeDecider.fold(generated).live?.subtitlesOutdated == false)
        let replaced = generated + [.transcriptReplaced(TranscriptReplaced(episodeID: id, transcript: Fixture.blob("newer"), warnings: []))]
        #expect(EpisodeDecider.fold(replaced).live?.subtitlesOutdated == true)
        let cleared = generated + [.transcriptCleared(TranscriptCleared(episodeID: id))]
        #expect(EpisodeDecider.fold(cleared).live?.hasTranscript == false)
        #expect(EpisodeDecider.fold(cleared).live?.subtitlesOutdated == true)
    }

    // MARK: thumbnail

    @Test("background and overlay are set and cleared; settings and text change")
    func thumbnailInputs() {
        let given = Given(podcast, episode: [Fixture.episodeCreated()])
        let background = Fixture.image("bg")
        given.when(.setBackground(background)).then([.thumbnailBackgroundSet(ThumbnailBackgroundSet(episodeID: id, background: background))])
        given.when(.setBackground(Fixture.image("bg", 0, 10))).thenRefused(.imageSizeOutOfRange(width: 0, height: 10))
        given.when(.setOverlay(Fixture.image("ov"))).then([.thumbnailOverlaySet(ThumbnailOverlaySet(episodeID: id, overlay: Fixture.image("ov")))])
        given.when(.clearOverlay).thenNothingHappens()
        Given(podcast, episode: [Fixture.episodeCreated(overlay: Fixture.image("ov"))]).when(.clearOverlay)
            .then([.thumbnailOverlayCleared(ThumbnailOverlayCleared(episodeID: id))])
        var settings = ThumbnailSettings.defaults
        settings.backgroundScaling = .aspectFit
        given.when(.changeThumbnailSettings(settings)).then([.thumbnailSettingsChanged(ThumbnailSettingsChanged(episodeID: id, settings: settings))])
        given.when(.changeThumbnailSettings(ThumbnailSettings(fontSize: 500))).thenRefused(
            .settingOutOfRange(setting: "fontSize", value: "500.0", allowed: "12.0 to 200.0"))
        given.when(.changeThumbnailText(.custom(" Episode one "))).then([.thumbnailTextChanged(ThumbnailTextChanged(episodeID: id, text: .custom("Episode one")))])
        given.when(.changeThumbnailText(.custom(""))).thenNothingHappens()
        given.when(.changeThumbnailText(.custom("EP 1\nThe pilot"))).then([.thumbnailTextChanged(ThumbnailTextChanged(episodeID: id, text: .custom("EP 1\nThe pilot")))])
        given.when(.changeThumbnailSettings(ThumbnailSettings(fontName: "Inter\nBold"))).thenRefused(.multipleLines(.fontName))
        #expect(EpisodeDecider.fold([Fixture.episodeCreated(number: 42)]).live?.effectiveThumbnailText == "EP 42")
    }

    @Test("a thumbnail that says the title follows it; a new episode starts from the podcast's default text")
    func thumbnailTextFollowsTheTitle() {
        let given = Given(podcast, episode: Fixture.withBackground)
        given.when(.changeThumbnailText(.title)).then([.thumbnailTextChanged(ThumbnailTextChanged(episodeID: id, text: .title))])
        given.when(.changeThumbnailText(.custom(" "))).thenNothingHappens()
        var history = Fixture.withBackground + [.thumbnailTextChanged(ThumbnailTextChanged(episodeID: id, text: .title))]
        let title = EpisodeDecider.fold(history).live?.title
        #expect(title != nil && EpisodeDecider.fold(history).live?.effectiveThumbnailText == title)
        history.append(.thumbnailRendered(ThumbnailRendered(episodeID: id, thumbnail: Fixture.render(of: history))))
        history.append(.episodeRetitled(EpisodeRetitled(episodeID: id, title: "Keeper of lights")))
        let retitled = EpisodeDecider.fold(history).live
        #expect(retitled?.effectiveThumbnailText == "Keeper of lights" && retitled?.thumbnailInputs?.text == "Keeper of lights")
        #expect(retitled?.thumbnailOutdated == true)

        let saysTitles = podcast + [.podcastDefaultTextChanged(PodcastDefaultTextChanged(podcastID: Fixture.podcast, text: .title))]
        Given(saysTitles, episode: []).when(.create(id: id, title: "Pilot", at: at))
            .then([.episodeCreated(EpisodeCreated(
                episodeID: id, podcastID: Fixture.podcast, title: "Pilot", number: 1, createdAt: at, thumbnailSettings: .defaults,
                thumbnailText: .title))])
    }

    @Test("a render needs a background and the current inputs, stored at most 1024 px, in the format the renderer chose")
    func render() {
        Given(podcast, episode: [Fixture.episodeCreated()])
            .when(.recordThumbnail(Fixture.render(of: Fixture.withBackground))).thenRefused(.renderNeedsBackground)
        let given = Given(podcast, episode: Fixture.withBackground)
        let render = Fixture.render(of: Fixture.withBackground)
        given.when(.recordThumbnail(render)).then([.thumbnailRendered(ThumbnailRendered(episodeID: id, thumbnail: render))])

        var stale = render
        stale.inputs.title = "Old title"
        given.when(.recordThumbnail(stale)).thenRefused(.renderFromOutdatedInputs)
        var big = render
        big.image = Fixture.image("thumb", 1920, 1080)
        #expect((try? given.when(.recordThumbnail(big)).result.get()) == nil)
        // The renderer chooses the format from the pixels (PNG for transparency): either is recorded as given.
        var png = render
        png.format = .png
        given.when(.recordThumbnail(png)).then([.thumbnailRendered(ThumbnailRendered(episodeID: id, thumbnail: png))])
        let rendered = Fixture.withBackground + [.thumbnailRendered(ThumbnailRendered(episodeID: id, thumbnail: render))]
        Given(podcast, episode: rendered).when(.recordThumbnail(render)).thenNothingHappens()
    }

    @Test("thumbnailOutdated: false after a render, true after a retitle, false again after a new render")
    func thumbnailOutdated() {
        var history = Fixture.withBackground
        history.append(.thumbnailRendered(ThumbnailRendered(episodeID: id, thumbnail: Fixture.render(of: history))))
        #expect(EpisodeDecider.fold(history).live?.thumbnailOutdated == false)
        for change in [
            DomainEvent.episodeRetitled(EpisodeRetitled(episodeID: id, title: "New")),
            .episodeRenumbered(EpisodeRenumbered(episodeID: id, number: 9)),
            .thumbnailTextChanged(ThumbnailTextChanged(episodeID: id, text: .custom("Nine"))),
            .thumbnailSettingsChanged(ThumbnailSettingsChanged(episodeID: id, settings: ThumbnailSettings(fontSize: 20))),
            .thumbnailBackgroundSet(ThumbnailBackgroundSet(episodeID: id, background: Fixture.image("bg2"))),
            .thumbnailOverlaySet(ThumbnailOverlaySet(episodeID: id, overlay: Fixture.image("ov"))),
        ] {
            #expect(EpisodeDecider.fold(history + [change]).live?.thumbnailOutdated == true, "\(change.type)")
        }
        history.append(.episodeRetitled(EpisodeRetitled(episodeID: id, title: "New")))
        history.append(.thumbnailRendered(ThumbnailRendered(episodeID: id, thumbnail: Fixture.render(of: history))))
        #expect(EpisodeDecider.fold(history).live?.thumbnailOutdated == false)
    }

    // MARK: unknown and deleted

    @Test("commands on an unknown or deleted episode are refused", arguments: [
        EpisodeCommand.retitle("T"), .renumber(2), .describe("d"), .setPublishDate(nil), .delete,
        .importTranscript(bytes: Array(Fixture.transcriptText.utf8), ref: Fixture.transcript), .clearTranscript,
        .recordSubtitles(SubtitlesRef(blob: Fixture.blob("s"), cueCount: 1, transcript: Fixture.transcript)),
        .setBackground(Fixture.image("b")), .setOverlay(Fixture.image("o")), .clearOverlay,
        .changeThumbnailSettings(.defaults), .changeThumbnailText(.custom("x")), .recordThumbnail(Fixture.render(of: Fixture.withBackground)),
    ])
    func unknownOrDeleted(command: EpisodeCommand) {
        Given(podcast, episode: []).when(command).thenRefused(.episodeNotFound)
        Given(podcast, episode: [Fixture.episodeCreated(), .episodeDeleted(EpisodeDeleted(episodeID: id))])
            .when(command).thenRefused(.episodeDeleted(id))
    }
}
