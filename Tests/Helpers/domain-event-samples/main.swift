// Prints a sample of every domain event type, made by the real deciders, one JSON object per line:
//
//   {"type":"EpisodeCreated","schemaVersion":2,"payload":{...the EventCoding.encode bytes...}}
//
// A scripted studio session drives PodcastDecider.decide / EpisodeDecider.decide with the facts a shell
// would read, folds every event with evolve, and asks Inverses.of for the types only undo produces.
// Ids and times are fixed, so the output is the same on every run.
//
// Exits 1, naming them, when a type of DomainEvent.payloadTypes got no sample, when a command is refused
// or gives other events than the script expects, or when a sample does not survive an
// EventCoding.encode/decode round trip. tools/check-schemas validates the lines against schemas/events.
import CoreValues
import EventCodec
import Foundation
import PodcastDomain

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("domain-event-samples: \(message)\n".utf8))
    exit(1)
}

// MARK: Fixed inputs

/// A UUID given in uppercase, to show that events write it in lowercase.
func uuid(_ n: Int) -> UUID {
    let digits = String(n)
    return UUID(uuidString: "C0FFEE00-DEAD-4BEE-8F00-" + String(repeating: "0", count: 12 - digits.count) + digits)!
}

/// A blob reference: the hash is made up from `seed` (the domain never hashes), the size is real.
func blob(_ seed: String, bytes: Int) -> BlobRef {
    let hex = Array(seed.utf8).map { byte -> String in
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }.joined()
    return BlobRef(sha256: String((hex + String(repeating: "0", count: 64)).prefix(64)), byteCount: bytes)!
}

func image(_ seed: String, _ width: Int, _ height: Int, bytes: Int = 250_000) -> ImageRef {
    ImageRef(blob: blob(seed, bytes: bytes), width: width, height: height)
}

/// A transcript's bytes and their reference.
func transcript(_ seed: String, _ text: String) -> (bytes: [UInt8], ref: BlobRef) {
    let bytes = Array(text.utf8)
    return (bytes, blob(seed, bytes: bytes.count))
}

let monday = Timestamp(text: "2026-11-16T09:00:00.000Z")!
/// `monday` plus `minutes`.
func at(_ minutes: Int64) -> Timestamp { Timestamp(rawValue: monday.rawValue + minutes * 60_000)! }

let podcastID = PodcastID(uuid(1))
let otherPodcastID = PodcastID(uuid(2))
let pilotID = EpisodeID(uuid(101))
let secondID = EpisodeID(uuid(102))

// MARK: The studio: streams folded with the deciders' evolve, facts read from them as a shell would

struct SampleSession {
    var state = LibraryState()
    /// Every event, in order, with the step that produced it.
    var samples: [(step: String, event: DomainEvent)] = []

    var podcasts: [PodcastID: PodcastState] { state.podcasts }
    var episodes: [EpisodeID: EpisodeState] { state.episodes }
    var fonts: FontLibraryState { state.fonts }
    func podcast(_ id: PodcastID) -> PodcastState { state.podcast(id) }
    func episode(_ id: EpisodeID) -> EpisodeState { state.episode(id) }

    func podcastFacts(for id: PodcastID) -> PodcastFacts {
        var names: [PodcastID: String] = [:]
        for (other, state) in podcasts where other != id {
            if let live = state.live { names[other] = live.name }
        }
        let live = episodes.values.compactMap(\.live).filter { $0.podcastID == id }.map(\.id)
        return PodcastFacts(otherPodcastNames: names, liveEpisodes: live)
    }

    func episodeFacts(for id: EpisodeID, in podcast: PodcastID) -> EpisodeFacts {
        var numbers: [Int: EpisodeID] = [:]
        for episode in episodes.values.compactMap(\.live) where episode.podcastID == podcast && episode.id != id {
            numbers[episode.number] = episode.id
        }
        return EpisodeFacts(podcast: self.podcast(podcast), otherNumbers: numbers)
    }

    /// Folds `events` into the streams they name and records them as samples.
    mutating func apply(_ events: [DomainEvent], step: String) {
        for event in events {
            samples.append((step, event))
            guard event.stream == event.aggregate.streamName else {
                fail("\(step): event \(event.type) names stream \(event.stream), not its aggregate's \(event.aggregate.streamName)")
            }
            state.evolve(event)
        }
    }

    static func check(_ events: [DomainEvent], _ expected: [String], _ step: String) {
        let types = events.map(\.type)
        guard types == expected else { fail("\(step): expected \(expected), the domain gave \(types)") }
    }

    /// Decides a podcast command with the facts of the moment, folds the events, and checks their types.
    mutating func podcast(_ id: PodcastID, _ command: PodcastCommand, expect expected: [String]) {
        let step = "podcast \(command)"
        do {
            let events = try PodcastDecider.decide(command, podcast(id), podcastFacts(for: id))
            Self.check(events, expected, step)
            apply(events, step: step)
        } catch {
            fail("\(step) was refused: \(error)")
        }
    }

    /// Decides an episode command with the facts of the moment, folds the events, and checks their types.
    mutating func episode(_ id: EpisodeID, of podcast: PodcastID, _ command: EpisodeCommand, expect expected: [String]) {
        let step = "episode \(command)"
        do {
            let events = try EpisodeDecider.decide(command, episode(id), episodeFacts(for: id, in: podcast))
            Self.check(events, expected, step)
            apply(events, step: step)
        } catch {
            fail("\(step) was refused: \(error)")
        }
    }

    /// Decides a font command, folds the events, and checks their types.
    mutating func font(_ command: FontCommand, facts: FontFacts = FontFacts(), expect expected: [String]) {
        let step = "font \(command)"
        do {
            let events = try FontDecider.decide(command, fonts, facts)
            Self.check(events, expected, step)
            apply(events, step: step)
        } catch {
            fail("\(step) was refused: \(error)")
        }
    }

    /// Decides an episode command and returns the undo of its single event, without applying either:
    /// the undo of a first set is the clear that no command produces.
    func inverse(of command: EpisodeCommand, on id: EpisodeID, of podcast: PodcastID, expect expected: [String]) -> [DomainEvent] {
        let step = "undo of episode \(command)"
        do {
            let before = episode(id)
            let events = try EpisodeDecider.decide(command, before, episodeFacts(for: id, in: podcast))
            guard events.count == 1 else { fail("\(step): expected one event to undo, got \(events.map(\.type))") }
            let inverse = Inverses.of(events[0], before: before)
            Self.check(inverse, expected, step)
            return inverse
        } catch {
            fail("\(step) was refused: \(error)")
        }
    }

    /// Renders (as a shell would) from the episode's current inputs and records the thumbnail.
    mutating func render(_ id: EpisodeID, of podcast: PodcastID, seed: String) {
        guard let inputs = episode(id).live?.thumbnailInputs else { fail("render: the episode has no inputs") }
        let longest = max(inputs.settings.canvasWidth, inputs.settings.canvasHeight)
        let scale = min(1, Double(EpisodeDecider.storedThumbnailSide) / Double(longest))
        let width = max(1, Int((Double(inputs.settings.canvasWidth) * scale).rounded()))
        let height = max(1, Int((Double(inputs.settings.canvasHeight) * scale).rounded()))
        let thumbnail = RenderedThumbnail(
            image: image(seed, width, height, bytes: 180_000), format: inputs.overlay == nil ? .jpeg : .png, inputs: inputs,
            inputsDigest: String(repeating: "5d", count: 32))
        episode(id, of: podcast, .recordThumbnail(thumbnail), expect: ["ThumbnailRendered"])
    }
}

// MARK: The script

var studio = SampleSession()

// Two podcasts; names are unique among live podcasts.
studio.podcast(otherPodcastID, .create(id: otherPodcastID, name: "Octo Talk", at: at(0)), expect: ["PodcastCreated"])
studio.podcast(
    podcastID,
    .create(id: podcastID, name: "  Merge Conflict ", description: "Two developers argue about code.", at: at(1)),
    expect: ["PodcastCreated"])
studio.podcast(podcastID, .rename("Merge Conflict FM"), expect: ["PodcastRenamed"])
studio.podcast(podcastID, .describe("Weekly: two developers, one diff, no agreement."), expect: ["PodcastDescribed"])
studio.podcast(podcastID, .describe("   "), expect: ["PodcastDescribed"])  // blank removes it
studio.podcast(podcastID, .describe("Weekly: two developers, one diff."), expect: ["PodcastDescribed"])

// An episode made before the podcast has artwork or a default background starts without a background;
// one set and undone clears it. It is deleted again, so that the podcast's deletion below takes two.
let earlyID = EpisodeID(uuid(103))
let background = image("background", 16_384, 1)
studio.episode(earlyID, of: podcastID, .create(id: earlyID, title: "Before the artwork", number: 7, at: at(5)), expect: ["EpisodeCreated"])
let backgroundCleared = studio.inverse(of: .setBackground(background), on: earlyID, of: podcastID, expect: ["ThumbnailBackgroundCleared"])
studio.episode(earlyID, of: podcastID, .setBackground(background), expect: ["ThumbnailBackgroundSet"])
studio.apply(backgroundCleared, step: "undo of the first ThumbnailBackgroundSet")
studio.episode(earlyID, of: podcastID, .delete, expect: ["EpisodeDeleted"])

// Artwork, the default overlay and the default background.
studio.podcast(podcastID, .setArtwork(image("artwork-1", 3000, 3000)), expect: ["PodcastArtworkSet"])
studio.podcast(podcastID, .clearArtwork, expect: ["PodcastArtworkCleared"])
studio.podcast(podcastID, .setArtwork(image("artwork-2", 1400, 1400)), expect: ["PodcastArtworkSet"])
studio.podcast(podcastID, .setDefaultOverlay(image("overlay-default", 1920, 1080)), expect: ["PodcastDefaultOverlaySet"])
studio.podcast(podcastID, .setDefaultBackground(image("background-default", 1920, 1080)), expect: ["PodcastDefaultBackgroundSet"])
studio.podcast(
    podcastID,
    .changeThumbnailDefaults(ThumbnailSettings(
        fontName: "Inter Bold", fontSize: 96, textPositionX: 0.25, textPositionY: 0.8, horizontalPadding: 64,
        verticalPadding: 0, canvasWidth: 1280, canvasHeight: 720, backgroundScaling: .aspectFit,
        fontColorHex: HexColor(rawValue: "#ffcc00")!, outlineEnabled: false, outlineColorHex: HexColor(rawValue: "#1E1E2E")!)),
    expect: ["PodcastThumbnailDefaultsChanged"])
studio.podcast(podcastID, .changeDefaultThumbnailText(.title), expect: ["PodcastDefaultTextChanged"])

// The pilot: everything optional given; it copies the defaults, the default overlay, the default
// background and the default text (its title).
studio.episode(
    pilotID, of: podcastID,
    .create(id: pilotID, title: "Pilot: why we argue", description: "Where it all began.", publishDate: at(7 * 24 * 60), at: at(10)),
    expect: ["EpisodeCreated"])

// A second episode, after the default overlay and background are gone (it starts on the artwork) and the
// defaults are back to the app's own.
studio.podcast(podcastID, .clearDefaultOverlay, expect: ["PodcastDefaultOverlayCleared"])
studio.podcast(podcastID, .clearDefaultBackground, expect: ["PodcastDefaultBackgroundCleared"])
studio.podcast(podcastID, .changeThumbnailDefaults(.defaults), expect: ["PodcastThumbnailDefaultsChanged"])
studio.podcast(podcastID, .changeDefaultThumbnailText(.custom("  Merge Conflict  ")), expect: ["PodcastDefaultTextChanged"])
studio.episode(secondID, of: podcastID, .create(id: secondID, title: "Octo stuff", number: 42, at: at(20)), expect: ["EpisodeCreated"])

// The pilot's light fields.
studio.episode(pilotID, of: podcastID, .retitle("Pilot: why we still argue"), expect: ["EpisodeRetitled"])
studio.episode(pilotID, of: podcastID, .renumber(2_147_483_647), expect: ["EpisodeRenumbered"])
studio.episode(pilotID, of: podcastID, .renumber(1), expect: ["EpisodeRenumbered"])
studio.episode(pilotID, of: podcastID, .describe(nil), expect: ["EpisodeDescribed"])
studio.episode(pilotID, of: podcastID, .describe("Where it all began, again."), expect: ["EpisodeDescribed"])
studio.episode(pilotID, of: podcastID, .setPublishDate(nil), expect: ["EpisodePublishDateChanged"])
studio.episode(pilotID, of: podcastID, .setPublishDate(at(14 * 24 * 60)), expect: ["EpisodePublishDateChanged"])

// Transcripts and subtitles.
let first = transcript("transcript-1", "00:00:01\nAna\nHello and welcome.\n00:00:04\nBo\nThanks for having me.\n")
// A title above the first timestamp: read past, with a warning the events record.
let second = transcript("transcript-2", "Pilot, take two\n00:00:01\nAna\nHello, and welcome back.\n")
studio.episode(pilotID, of: podcastID, .importTranscript(bytes: first.bytes, ref: first.ref), expect: ["TranscriptImported"])
let srtDiscarded = studio.inverse(
    of: .recordSubtitles(SubtitlesRef(blob: blob("srt-1", bytes: 96), cueCount: 2, transcript: first.ref)),
    on: pilotID, of: podcastID, expect: ["SRTDiscarded"])
studio.episode(
    pilotID, of: podcastID, .recordSubtitles(SubtitlesRef(blob: blob("srt-1", bytes: 96), cueCount: 2, transcript: first.ref)),
    expect: ["SRTGenerated"])
studio.apply(srtDiscarded, step: "undo of the first SRTGenerated")
studio.episode(
    pilotID, of: podcastID, .recordSubtitles(SubtitlesRef(blob: blob("srt-1", bytes: 96), cueCount: 2, transcript: first.ref)),
    expect: ["SRTGenerated"])
studio.episode(pilotID, of: podcastID, .importTranscript(bytes: second.bytes, ref: second.ref), expect: ["TranscriptReplaced"])
studio.episode(pilotID, of: podcastID, .clearTranscript, expect: ["TranscriptCleared"])
studio.episode(pilotID, of: podcastID, .importTranscript(bytes: second.bytes, ref: second.ref), expect: ["TranscriptImported"])
studio.episode(
    pilotID, of: podcastID, .recordSubtitles(SubtitlesRef(blob: blob("srt-2", bytes: 48), cueCount: 1, transcript: second.ref)),
    expect: ["SRTGenerated"])

// The thumbnail: background, overlay, settings, text, renders.
studio.episode(pilotID, of: podcastID, .setBackground(background), expect: ["ThumbnailBackgroundSet"])
studio.episode(pilotID, of: podcastID, .setBackground(image("background-2", 1920, 1080)), expect: ["ThumbnailBackgroundSet"])
studio.episode(pilotID, of: podcastID, .setOverlay(image("overlay-pilot", 1, 16_384)), expect: ["ThumbnailOverlaySet"])
studio.episode(
    pilotID, of: podcastID,
    .changeThumbnailSettings(ThumbnailSettings(
        fontSize: 200, textPositionX: 0, textPositionY: 1, horizontalPadding: 200, verticalPadding: 12.5,
        canvasWidth: 16, canvasHeight: 8192, backgroundScaling: .stretch, textFit: .wrap, overlayPlacement: .original,
        overlayScale: 0.05, overlayPositionX: 1, overlayPositionY: 0)),
    expect: ["ThumbnailSettingsChanged"])
studio.episode(
    pilotID, of: podcastID,
    .changeThumbnailSettings(ThumbnailSettings(fontName: "Menlo", fontSize: 12, canvasWidth: 3840, canvasHeight: 2160)),
    expect: ["ThumbnailSettingsChanged"])
studio.episode(pilotID, of: podcastID, .changeThumbnailText(.custom("  Why we argue  ")), expect: ["ThumbnailTextChanged"])
guard let inputs = studio.episode(pilotID).live?.thumbnailInputs else { fail("the pilot has no thumbnail inputs") }
let pngRender = RenderedThumbnail(image: image("thumb-1", 1024, 576), format: .png, inputs: inputs)
let thumbnailDiscarded = studio.inverse(of: .recordThumbnail(pngRender), on: pilotID, of: podcastID, expect: ["ThumbnailDiscarded"])
studio.render(pilotID, of: podcastID, seed: "thumb-1")
studio.apply(thumbnailDiscarded, step: "undo of the first ThumbnailRendered")
studio.episode(pilotID, of: podcastID, .clearOverlay, expect: ["ThumbnailOverlayCleared"])
studio.episode(pilotID, of: podcastID, .changeThumbnailText(.episodeNumber), expect: ["ThumbnailTextChanged"])
studio.render(pilotID, of: podcastID, seed: "thumb-2")  // JPEG now: no overlay
studio.episode(pilotID, of: podcastID, .setOverlay(image("overlay-pilot-2", 1920, 1080)), expect: ["ThumbnailOverlaySet"])
studio.episode(pilotID, of: podcastID, .changeThumbnailText(.custom("EP 1: the pilot")), expect: ["ThumbnailTextChanged"])
studio.render(pilotID, of: podcastID, seed: "thumb-3")  // PNG again; the episode now has every field

// The second episode is deleted and the deletion undone.
let secondBefore = studio.episode(secondID)
studio.episode(secondID, of: podcastID, .delete, expect: ["EpisodeDeleted"])
guard let secondDeleted = studio.samples.last?.event else { fail("no EpisodeDeleted") }
let secondRestored = Inverses.of(secondDeleted, before: secondBefore)
SampleSession.check(secondRestored, ["EpisodeRestored"], "undo of EpisodeDeleted")
studio.apply(secondRestored, step: "undo of EpisodeDeleted")

// A podcast without episodes is deleted and the deletion undone: a PodcastRestored with no optional field.
let otherBefore = studio.podcast(otherPodcastID)
studio.podcast(otherPodcastID, .delete, expect: ["PodcastDeleted"])
guard let otherDeleted = studio.samples.last?.event else { fail("no PodcastDeleted") }
let otherRestored = Inverses.of(otherDeleted, before: otherBefore)
SampleSession.check(otherRestored, ["PodcastRestored"], "undo of PodcastDeleted")
studio.apply(otherRestored, step: "undo of PodcastDeleted")

// The podcast, now with every field, is deleted with its episodes in one commit, then everything is
// brought back.
studio.podcast(podcastID, .setDefaultOverlay(image("overlay-default-2", 1280, 720)), expect: ["PodcastDefaultOverlaySet"])
studio.podcast(podcastID, .setDefaultBackground(image("background-default-2", 1280, 720)), expect: ["PodcastDefaultBackgroundSet"])
let podcastBefore = studio.podcast(podcastID)
let episodesBefore = studio.episodes
studio.podcast(podcastID, .delete, expect: ["PodcastDeleted", "EpisodeDeleted", "EpisodeDeleted"])
let cascade = studio.samples.suffix(3).map { $0.event }
var undo: [DomainEvent] = []
for event in cascade.reversed() {
    switch event {
    case .podcastDeleted: undo += Inverses.of(event, before: podcastBefore)
    case .episodeDeleted(let e): undo += Inverses.of(event, before: episodesBefore[e.episodeID] ?? EpisodeDecider.initial)
    default: fail("unexpected \(event.type) in the delete's commit")
    }
}
SampleSession.check(undo, ["EpisodeRestored", "EpisodeRestored", "PodcastRestored"], "undo of PodcastDeleted")
studio.apply(undo, step: "undo of PodcastDeleted")
guard studio.podcast(podcastID) == podcastBefore, studio.episodes == episodesBefore else {
    fail("undoing the podcast's deletion did not bring back the podcast and its episodes as they were")
}

// The library's fonts: the ones the settings above name are imported, one is removed, and the removal
// is undone (the undo of a FontRemoved is a FontImported of the same blob).
studio.font(.import(name: "  Inter Bold ", font: blob("font-inter-bold", bytes: 310_000)), expect: ["FontImported"])
studio.font(.import(name: "Menlo", font: blob("font-menlo", bytes: 420_000)), expect: ["FontImported"])
let fontsBefore = studio.fonts
studio.font(.remove(name: "MENLO"), expect: ["FontRemoved"])
guard let menloRemoved = studio.samples.last?.event else { fail("no FontRemoved") }
let menloBack = Inverses.of(menloRemoved, before: fontsBefore)
SampleSession.check(menloBack, ["FontImported"], "undo of FontRemoved")
studio.apply(menloBack, step: "undo of FontRemoved")
guard studio.fonts == fontsBefore else { fail("undoing the font's removal did not bring it back as it was") }

// Removed by force while the pilot's thumbnail, drawn in it, is current: the thumbnail becomes outdated,
// and undoing that brings back the thumbnail as it was.
guard let pilotBefore = studio.episode(pilotID).live, pilotBefore.hasThumbnail, !pilotBefore.thumbnailOutdated else {
    fail("the pilot has no current thumbnail drawn in Menlo")
}
studio.font(
    .remove(name: "Menlo", force: true), facts: FontFacts(episodesUsing: ["Night Shift/1"], thumbnailsDrawnIn: [pilotID]),
    expect: ["FontRemoved", "ThumbnailFontRemoved"])
guard case .thumbnailFontRemoved = studio.samples.last?.event, studio.episode(pilotID).live?.thumbnailOutdated == true else {
    fail("the forced removal did not mark the pilot's thumbnail outdated")
}
let thumbnailBack = Inverses.of(studio.samples.last!.event, before: EpisodeState.active(pilotBefore))
SampleSession.check(thumbnailBack, ["ThumbnailRendered"], "undo of ThumbnailFontRemoved")
studio.apply(thumbnailBack, step: "undo of ThumbnailFontRemoved")
guard studio.episode(pilotID).live == pilotBefore else { fail("undoing ThumbnailFontRemoved did not bring the thumbnail back") }

// The log's own stream: a loss accepted, as `log repair --accept-loss` records it.
do {
    let loss = LossAccepted(
        lostFrom: 41, lostThrough: 42, witness: "the library's head record (HEAD)",
        recordedHash: "9f2c7a4e01b35d6c8e7f90a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5",
        setAside: ["quarantine/00000003.seg-1712-1763294400000.torn"])
    let events = try LogDecider.decide(.acceptLoss(loss), LogDecider.initial)
    SampleSession.check(events, ["LossAccepted"], "log accept loss")
    studio.apply(events, step: "log accept loss")
} catch {
    fail("accepting a loss was refused: \(error)")
}

// MARK: Output

var problems: [String] = []
for (step, event) in studio.samples {
    let bytes = EventCoding.encode(event)
    do {
        let decoded = try EventCoding.decode(type: event.type, schemaVersion: event.schemaVersion, payload: bytes)
        if decoded != event { problems.append("\(step): \(event.type) reads back as another event: \(decoded)") }
    } catch {
        problems.append("\(step): \(event.type) does not read back: \(error)")
    }
    print(#"{"type":"\#(event.type)","schemaVersion":\#(event.schemaVersion),"payload":\#(String(decoding: bytes, as: UTF8.self))}"#)
}

let produced = Set(studio.samples.map { $0.event.type })
let missing = DomainEvent.payloadTypes.map { $0.type }.filter { !produced.contains($0) }
if !missing.isEmpty { problems.append("no sample for \(missing.joined(separator: ", "))") }
if !problems.isEmpty { fail(problems.joined(separator: "\n")) }
