import CoreValues
import Foundation
import PodcastDomain
import TestSupport
import Testing

@testable import EventCodec

@Suite("Event evolution")
struct UpcastingTests {
    /// Log lines (as `lz4 -dc` prints them) from a library written before EpisodeCreated version 2.
    func fixtureLines() throws -> [[String: Any]] {
        let url = URL(fileURLWithPath: RepositoryFiles.path("Tests/EventCodecTests/Fixtures/version-1-events.jsonl"))
        let text = try String(contentsOf: url, encoding: .utf8)
        return try text.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    func decode(_ line: [String: Any]) throws -> DomainEvent {
        let payload = try JSONSerialization.data(withJSONObject: line["data"]!)
        return try EventCoding.decode(type: line["type"] as! String, schemaVersion: line["schema"] as! Int, payload: payload)
    }

    @Test("an EpisodeCreated of version 1 in a stored log is read as version 2: number from episodeNumber, no publish date")
    func upcastsVersionOne() throws {
        let events = try fixtureLines().map(decode)

        guard case .episodeCreated(let old) = events[1], case .episodeCreated(let new) = events[2] else {
            Issue.record("expected two EpisodeCreated, got \(events.map(\.type))")
            return
        }
        #expect(old.number == 41)
        #expect(old.publishDate == nil)
        #expect(old.title == "Octo stuff")
        #expect(new.number == 42)
        #expect(new.publishDate == Timestamp(text: "2026-11-25T00:00:00.000Z"))
        // Once read, old and new events fold the same way.
        let episode = EpisodeDecider.fold([events[1]]).live
        #expect(episode?.number == 41)
        #expect(episode?.effectiveThumbnailText == "EP 41")
        // And written again, the event has today's shape.
        #expect(String(decoding: EventCoding.encode(events[1]), as: UTF8.self).contains(#""number":41"#))
    }

    @Test("a newer schema version, an unknown type and a malformed payload are refused with a reason")
    func refusals() {
        #expect(throws: EventCoding.Failure.newerSchema(type: "EpisodeCreated", found: 6, supported: 5)) {
            try EventCoding.decode(type: "EpisodeCreated", schemaVersion: 6, payload: Data("{}".utf8))
        }
        #expect(throws: EventCoding.Failure.unknownType("EpisodeArchived")) {
            try EventCoding.decode(type: "EpisodeArchived", schemaVersion: 1, payload: Data("{}".utf8))
        }
        #expect {
            try EventCoding.decode(type: "EpisodeRetitled", schemaVersion: 1, payload: Data(#"{"episodeID":"x"}"#.utf8))
        } throws: { error in
            guard case .malformed(let type, 1, _) = error as? EventCoding.Failure else { return false }
            return type == "EpisodeRetitled"
        }
    }

    @Test("transcript events and a restored episode of version 1 are read as version 2, with no warnings")
    func upcastsTranscriptWarnings() throws {
        // Given the fixture's import, replace, delete and restore of version 1 (before transcripts were read at import)
        let events = try fixtureLines().map(decode)

        // Then each is read with an empty list of warnings, and folds as before
        guard case .transcriptImported(let imported) = events[3], case .transcriptReplaced(let replaced) = events[4],
              case .episodeRestored(let restored) = events[6]
        else {
            Issue.record("expected TranscriptImported, TranscriptReplaced and EpisodeRestored, got \(events.map(\.type))")
            return
        }
        #expect(imported.warnings.isEmpty && imported.transcript.byteCount == 66)
        #expect(replaced.warnings.isEmpty && replaced.transcript.byteCount == 41)
        #expect(restored.episode.transcriptWarnings.isEmpty && restored.episode.transcript == replaced.transcript)
        let episode = EpisodeDecider.fold(Array(events[1...1] + events[3...6])).live
        #expect(episode?.transcript?.byteCount == 41 && episode?.transcriptWarnings == [])
        #expect(String(decoding: EventCoding.encode(events[3]), as: UTF8.self).contains(#""warnings":[]"#))
    }

    @Test("events written before text fit read as what they drew: no fitting, a filling overlay, text at its size")
    func upcastsSettingsBeforeFitting() throws {
        // Given log lines of every event that held thumbnail settings, as the build before fitting wrote them
        let url = URL(fileURLWithPath: RepositoryFiles.path("Tests/EventCodecTests/Fixtures/before-fitting-events.jsonl"))
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }

        // When they are read
        let events = try lines.map(decode)

        // Then every settings they hold has fit none, a filling overlay at scale 1 in the centre, and each
        // render its text drawn at the settings' size, its font not removed
        var settings: [ThumbnailSettings] = [], renders: [RenderedThumbnail] = []
        for event in events {
            switch event {
            case .podcastCreated(let e): settings.append(e.thumbnailDefaults)
            case .podcastThumbnailDefaultsChanged(let e): settings.append(e.thumbnailDefaults)
            case .podcastRestored(let e): settings.append(e.podcast.thumbnailDefaults)
            case .episodeCreated(let e): settings.append(e.thumbnailSettings)
            case .thumbnailSettingsChanged(let e): settings.append(e.settings)
            case .thumbnailRendered(let e): renders.append(e.thumbnail)
            case .episodeRestored(let e):
                settings.append(e.episode.thumbnailSettings)
                renders += [e.episode.thumbnail].compactMap { $0 }
            default: Issue.record("unexpected \(event.type) in the fixture")
            }
        }
        #expect(settings.count == 6 && renders.count == 2)
        for setting in settings + renders.map(\.inputs.settings) {
            #expect(setting.textFit == .none && setting.overlayPlacement == .fill && setting.overlayScale == 1)
            #expect(setting.overlayPositionX == 0.5 && setting.overlayPositionY == 0.5)
        }
        for render in renders {
            #expect(render.drawnFontSize == render.inputs.settings.fontSize && !render.fontRemoved)
        }
        // And written again, each has today's shape and version
        for event in events {
            let again = try EventCoding.decode(type: event.type, schemaVersion: event.schemaVersion, payload: Data(EventCoding.encode(event)))
            #expect(again == event)
        }
    }

    @Test("events written before default backgrounds read with none: an episode created then has no background")
    func upcastsBeforeDefaultBackgrounds() throws {
        // Given an EpisodeCreated of version 3 and a PodcastRestored of version 2, as the build before wrote them
        let url = URL(fileURLWithPath: RepositoryFiles.path("Tests/EventCodecTests/Fixtures/before-default-background-events.jsonl"))
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }

        // When they are read
        let events = try lines.map(decode)

        // Then the episodes have no background, the podcast no default background, and the rest is as written
        guard case .episodeCreated(let early) = events[0], case .episodeCreated(let pilot) = events[1],
            case .podcastRestored(let restored) = events[2]
        else {
            Issue.record("unexpected events \(events.map(\.type))")
            return
        }
        #expect(early.background == nil && pilot.background == nil)
        #expect(pilot.overlay != nil && pilot.title == "Pilot: why we argue")
        #expect(restored.podcast.defaultBackground == nil && restored.podcast.name == "Octo Talk")
        #expect(EpisodeDecider.fold([events[1]]).live?.background == nil)
        // And written again, each has today's shape and version
        for event in events {
            let again = try EventCoding.decode(type: event.type, schemaVersion: event.schemaVersion, payload: Data(EventCoding.encode(event)))
            #expect(again == event && event.schemaVersion == (event.type == "EpisodeCreated" ? 5 : 4))
        }
    }

    @Test("thumbnail text written as a string or left out reads as those words or the episode's number")
    func upcastsBeforeTheThumbnailTextChoice() throws {
        // Given an EpisodeCreated of version 4, two ThumbnailTextChanged of version 1 (words, then none), an
        // EpisodeRestored of version 3 whose episode has words, and a PodcastRestored of version 3
        let url = URL(fileURLWithPath: RepositoryFiles.path("Tests/EventCodecTests/Fixtures/before-thumbnail-text-choice-events.jsonl"))
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }

        // When they are read
        let events = try lines.map(decode)

        // Then the words stay words, and what had none says its number, as it drew before
        guard case .episodeCreated(let created) = events[0], case .thumbnailTextChanged(let words) = events[1],
            case .thumbnailTextChanged(let none) = events[2], case .episodeRestored(let restored) = events[3],
            case .podcastRestored(let podcast) = events[4]
        else {
            Issue.record("unexpected events \(events.map(\.type))")
            return
        }
        #expect(created.thumbnailText == .episodeNumber)
        #expect(words.text == .custom("Why we argue") && none.text == .episodeNumber)
        #expect(restored.episode.thumbnailText == .custom("EP 1: the pilot") && restored.episode.title == "Pilot: why we still argue")
        #expect(podcast.podcast.defaultThumbnailText == .episodeNumber && podcast.podcast.artwork != nil)
        let pilot = EpisodeDecider.fold([events[0], events[1]]).live
        #expect(pilot?.effectiveThumbnailText == "Why we argue")
        #expect(EpisodeDecider.fold([events[0], events[1], events[2]]).live?.effectiveThumbnailText == "EP \(created.number)")
        // And written again, each has today's shape and version
        for event in events {
            let again = try EventCoding.decode(type: event.type, schemaVersion: event.schemaVersion, payload: Data(EventCoding.encode(event)))
            #expect(again == event)
        }
        #expect(events.map(\.schemaVersion) == [5, 2, 2, 4, 4])
    }

    @Test("every event type is registered once, under its own name, with a positive schema version")
    func registry() {
        let names = DomainEvent.payloadTypes.map { $0.type }
        #expect(Set(names).count == names.count)
        #expect(DomainEvent.payloadTypes.allSatisfy { $0.schemaVersion >= 1 })
        #expect(EpisodeCreated.schemaVersion == 5)
    }
}
