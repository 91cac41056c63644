import CoreValues
import Testing

@testable import PodcastDomain

@Suite("Podcast decider")
struct PodcastDeciderTests {
    let id = Fixture.podcast
    let at = Fixture.monday

    // MARK: create

    @Test("create trims the name and description and starts from the default thumbnail settings")
    func create() {
        Given().when(.create(id: id, name: "  Merge Conflict \n", description: "  weekly  ", at: at))
            .then([.podcastCreated(PodcastCreated(
                podcastID: id, name: "Merge Conflict", description: "weekly", createdAt: at, thumbnailDefaults: .defaults))])
    }

    @Test("create refuses a blank, multi-line or overlong name")
    func createBadNames() {
        Given().when(.create(id: id, name: " \t ", at: at)).thenRefused(.blank(.podcastName))
        Given().when(.create(id: id, name: "Two\nlines", at: at)).thenRefused(.multipleLines(.podcastName))
        Given().when(.create(id: id, name: String(repeating: "x", count: 201), at: at)).thenRefused(.tooLong(.podcastName, limit: 200))
        // Lengths count Unicode scalars, as JSON Schema does: 100 flags are 200 scalars, 101 are too many.
        Given().when(.create(id: id, name: String(repeating: "🇫🇷", count: 100), at: at))
            .then([.podcastCreated(PodcastCreated(podcastID: id, name: String(repeating: "🇫🇷", count: 100), description: nil, createdAt: at, thumbnailDefaults: .defaults))])
        Given().when(.create(id: id, name: String(repeating: "🇫🇷", count: 101), at: at)).thenRefused(.tooLong(.podcastName, limit: 200))
    }

    @Test("create refuses a name another podcast has, ignoring case and surrounding spaces")
    func createTakenName() {
        Given().facts(otherPodcastNames: [Fixture.otherPodcast: "Merge Conflict"])
            .when(.create(id: id, name: "  merge CONFLICT ", at: at))
            .thenRefused(.podcastNameTaken("merge CONFLICT", by: Fixture.otherPodcast))
    }

    @Test("create refuses an id that is already taken, even by a deleted podcast")
    func createTwice() {
        Given([Fixture.created()]).when(.create(id: id, name: "Other", at: at)).thenRefused(.podcastAlreadyExists(id))
        Given([Fixture.created(), .podcastDeleted(PodcastDeleted(podcastID: id))])
            .when(.create(id: id, name: "Other", at: at)).thenRefused(.podcastAlreadyExists(id))
    }

    // MARK: rename, describe

    @Test("rename changes the name; the same name again changes nothing")
    func rename() {
        Given([Fixture.created()]).when(.rename(" Merge Conflict 2 "))
            .then([.podcastRenamed(PodcastRenamed(podcastID: id, name: "Merge Conflict 2"))])
        Given([Fixture.created()]).when(.rename("Merge Conflict  ")).thenNothingHappens()
    }

    @Test("rename may change the case of the podcast's own name, but not take another's")
    func renameUniqueness() {
        let given = Given([Fixture.created()]).facts(otherPodcastNames: [Fixture.otherPodcast: "Release Notes", id: "Merge Conflict"])
        given.when(.rename("MERGE conflict")).then([.podcastRenamed(PodcastRenamed(podcastID: id, name: "MERGE conflict"))])
        given.when(.rename("release notes")).thenRefused(.podcastNameTaken("release notes", by: Fixture.otherPodcast))
        given.when(.rename("")).thenRefused(.blank(.podcastName))
    }

    @Test("describe sets, keeps, and clears the description")
    func describe() {
        Given([Fixture.created()]).when(.describe(" A show ")).then([.podcastDescribed(PodcastDescribed(podcastID: id, description: "A show"))])
        let described = [Fixture.created(), .podcastDescribed(PodcastDescribed(podcastID: id, description: "A show"))]
        Given(described).when(.describe("A show")).thenNothingHappens()
        Given(described).when(.describe("   ")).then([.podcastDescribed(PodcastDescribed(podcastID: id, description: nil))])
        Given(described).when(.describe(nil)).then([.podcastDescribed(PodcastDescribed(podcastID: id, description: nil))])
        Given([Fixture.created()]).when(.describe(nil)).thenNothingHappens()
        Given([Fixture.created()]).when(.describe(String(repeating: "d", count: 5001))).thenRefused(.tooLong(.description, limit: 5000))
    }

    // MARK: images

    @Test("artwork can be set, replaced and cleared; clearing nothing changes nothing")
    func artwork() {
        let art = Fixture.image("art", 3000, 3000)
        Given([Fixture.created()]).when(.setArtwork(art)).then([.podcastArtworkSet(PodcastArtworkSet(podcastID: id, artwork: art))])
        let withArt = [Fixture.created(), .podcastArtworkSet(PodcastArtworkSet(podcastID: id, artwork: art))]
        Given(withArt).when(.setArtwork(art)).thenNothingHappens()
        Given(withArt).when(.clearArtwork).then([.podcastArtworkCleared(PodcastArtworkCleared(podcastID: id))])
        Given([Fixture.created()]).when(.clearArtwork).thenNothingHappens()
        Given([Fixture.created()]).when(.setArtwork(Fixture.image("huge", 20000, 20000)))
            .thenRefused(.imageSizeOutOfRange(width: 20000, height: 20000))
        Given([Fixture.created()]).when(.setArtwork(Fixture.image("empty", 0, 0))).thenRefused(.imageSizeOutOfRange(width: 0, height: 0))
    }

    @Test("the default overlay can be set and cleared")
    func defaultOverlay() {
        let overlay = Fixture.image("overlay")
        Given([Fixture.created()]).when(.setDefaultOverlay(overlay))
            .then([.podcastDefaultOverlaySet(PodcastDefaultOverlaySet(podcastID: id, overlay: overlay))])
        let withOverlay = [Fixture.created(), .podcastDefaultOverlaySet(PodcastDefaultOverlaySet(podcastID: id, overlay: overlay))]
        Given(withOverlay).when(.setDefaultOverlay(overlay)).thenNothingHappens()
        Given(withOverlay).when(.clearDefaultOverlay).then([.podcastDefaultOverlayCleared(PodcastDefaultOverlayCleared(podcastID: id))])
        Given([Fixture.created()]).when(.clearDefaultOverlay).thenNothingHappens()
        Given([Fixture.created()]).when(.setDefaultOverlay(Fixture.image("wide", 16385, 10)))
            .thenRefused(.imageSizeOutOfRange(width: 16385, height: 10))
    }

    @Test("the default background can be set and cleared")
    func defaultBackground() {
        let background = Fixture.image("background")
        Given([Fixture.created()]).when(.setDefaultBackground(background))
            .then([.podcastDefaultBackgroundSet(PodcastDefaultBackgroundSet(podcastID: id, background: background))])
        let withBackground = [Fixture.created(), .podcastDefaultBackgroundSet(PodcastDefaultBackgroundSet(podcastID: id, background: background))]
        Given(withBackground).when(.setDefaultBackground(background)).thenNothingHappens()
        Given(withBackground).when(.clearDefaultBackground)
            .then([.podcastDefaultBackgroundCleared(PodcastDefaultBackgroundCleared(podcastID: id))])
        Given([Fixture.created()]).when(.clearDefaultBackground).thenNothingHappens()
        Given([Fixture.created()]).when(.setDefaultBackground(Fixture.image("tall", 10, 16385)))
            .thenRefused(.imageSizeOutOfRange(width: 10, height: 16385))
    }

    @Test("the default thumbnail text is the number until changed; words are trimmed, blank ones mean the number")
    func defaultThumbnailText() {
        func changed(_ text: ThumbnailText) -> DomainEvent { .podcastDefaultTextChanged(PodcastDefaultTextChanged(podcastID: id, text: text)) }
        let given = Given([Fixture.created()])
        given.when(.changeDefaultThumbnailText(.episodeNumber)).thenNothingHappens()
        given.when(.changeDefaultThumbnailText(.title)).then([changed(.title)])
        given.when(.changeDefaultThumbnailText(.custom("  LIVE \n"))).then([changed(.custom("LIVE"))])
        Given([Fixture.created(), changed(.title)]).when(.changeDefaultThumbnailText(.custom("   "))).then([changed(.episodeNumber)])
        Given([Fixture.created(), changed(.title)]).when(.changeDefaultThumbnailText(.title)).thenNothingHappens()
        given.when(.changeDefaultThumbnailText(.custom(String(repeating: "x", count: 101)))).thenRefused(.tooLong(.thumbnailText, limit: 100))
        #expect(PodcastDecider.fold([Fixture.created(), changed(.title)]).live?.defaultThumbnailText == .title)
    }

    // MARK: thumbnail defaults

    @Test("thumbnail defaults change within their ranges; a blank font name means the default font")
    func thumbnailDefaults() {
        var settings = ThumbnailSettings.defaults
        settings.fontSize = 200
        settings.canvasWidth = 1080
        settings.canvasHeight = 1080
        settings.fontName = "  "
        settings.fontColorHex = HexColor(rawValue: "#ff8800")!
        var stored = settings
        stored.fontName = nil
        Given([Fixture.created()]).when(.changeThumbnailDefaults(settings))
            .then([.podcastThumbnailDefaultsChanged(PodcastThumbnailDefaultsChanged(podcastID: id, thumbnailDefaults: stored))])
        Given([Fixture.created()]).when(.changeThumbnailDefaults(.defaults)).thenNothingHappens()
        #expect(stored.fontColorHex.rawValue == "#FF8800")
    }

    @Test(
        "thumbnail defaults out of range are refused, naming the setting and the allowed range",
        arguments: [
            ("fontSize", 11.9), ("fontSize", 200.1), ("fontSize", .nan), ("textPositionX", -0.01),
            ("textPositionY", 1.01), ("horizontalPadding", 201), ("verticalPadding", -1),
        ] as [(String, Double)])
    func settingsOutOfRange(name: String, value: Double) {
        let settable: [String: WritableKeyPath<ThumbnailSettings, Double>] = [
            "fontSize": \.fontSize, "textPositionX": \.textPositionX, "textPositionY": \.textPositionY,
            "horizontalPadding": \.horizontalPadding, "verticalPadding": \.verticalPadding,
        ]
        var settings = ThumbnailSettings.defaults
        settings[keyPath: settable[name]!] = value
        let result = Given([Fixture.created()]).when(.changeThumbnailDefaults(settings)).result
        guard case .failure(.settingOutOfRange(let refused, _, let allowed)) = result else {
            Issue.record("expected a refusal, got \(result)")
            return
        }
        #expect(refused == name)
        #expect(allowed.contains(" to "))
    }

    @Test("canvas sides outside 16 to 8192 pixels are refused; colours must be #RRGGBB")
    func canvasAndColours() {
        for (width, height) in [(15, 1080), (1920, 8193), (0, 0)] {
            var settings = ThumbnailSettings.defaults
            settings.canvasWidth = width
            settings.canvasHeight = height
            let result = Given([Fixture.created()]).when(.changeThumbnailDefaults(settings)).result
            #expect((try? result.get()) == nil, "\(width) x \(height)")
        }
        for text in ["FFFFFF", "#FFF", "#GGGGGG", "#FFFFFF0", ""] { #expect(HexColor(rawValue: text) == nil, "\(text)") }
    }

    // MARK: delete

    @Test("delete deletes the podcast and each of its live episodes, in one decision")
    func deleteCascades() {
        Given([Fixture.created()]).facts(liveEpisodes: [Fixture.otherEpisode, Fixture.episode])
            .when(.delete)
            .then([
                .podcastDeleted(PodcastDeleted(podcastID: id)),
                .episodeDeleted(EpisodeDeleted(episodeID: Fixture.episode)),
                .episodeDeleted(EpisodeDeleted(episodeID: Fixture.otherEpisode)),
            ])
    }

    @Test("commands on an unknown or deleted podcast are refused", arguments: [
        PodcastCommand.rename("X"), .describe("x"), .setArtwork(Fixture.image("a")), .clearArtwork,
        .setDefaultOverlay(Fixture.image("o")), .clearDefaultOverlay, .changeThumbnailDefaults(.defaults), .changeDefaultThumbnailText(.title), .delete,
    ])
    func unknownOrDeleted(command: PodcastCommand) {
        Given().when(command).thenRefused(.podcastNotFound)
        Given([Fixture.created(), .podcastDeleted(PodcastDeleted(podcastID: id))]).when(command).thenRefused(.podcastDeleted(id))
    }

    @Test("evolve ignores other streams' events, and a restore brings the podcast back whole")
    func evolve() {
        let renamed = PodcastDecider.fold([Fixture.created(), .podcastRenamed(PodcastRenamed(podcastID: id, name: "B"))])
        #expect(PodcastDecider.evolve(renamed, Fixture.episodeCreated()) == renamed)
        let deleted = PodcastDecider.evolve(renamed, .podcastDeleted(PodcastDeleted(podcastID: id)))
        #expect(deleted.live == nil)
        #expect(PodcastDecider.evolve(deleted, .podcastRestored(PodcastRestored(podcast: renamed.live!))) == renamed)
    }
}
