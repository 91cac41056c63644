import CoreValues
import Episodic
import EventCodec
import Foundation
import TestSupport
import Testing

@testable import EventLog
@testable import PodcastDomain

/// Text that reaches a terminal cannot drive it. New text with control characters is refused (exit 65,
/// nothing written); text an older log already holds is printed escaped by every command that prints
/// for people, and exactly by `--json`.
@Suite("Control characters on the command line")
struct ControlCharacterCLITests {
    // What an older build let through: an OSC window title ended by BEL and by ST, CSI sequences written
    // with ESC [ and with the C1 CSI, NUL, DEL, NEL, and line breaks where there should be none.
    static let podcastName = "Evil \u{1B}]0;owned\u{7} show"
    static let podcastDescription = "First \u{1B}[31mred\u{1B}[0m\r\nsecond \u{9B}2J line\u{0}end"
    static let episodeTitle = "Pilot \u{1B}[2J\u{1B}[H\u{7F}"
    static let episodeDescription = "Desc\u{85}next \u{9D}0;x\u{9C} tab\there"
    static let thumbnailText = "EP \u{1B}[5m1"
    static let fontName = "Font\u{1B}]2;x\u{1B}\\"
    static let actor = "mallory\u{1B}]0;owned\u{7}\n\u{9B}2J"
    static let transcript = "00:00:01\nHost\nHello \u{1B}]0;owned\u{7} and welcome to the show.\n"

    static let podcast = PodcastID(UUID(uuidString: "00000000-0000-4000-8000-0000000000a1")!)
    static let episode = EpisodeID(UUID(uuidString: "00000000-0000-4000-8000-0000000000b1")!)

    /// A library whose log holds control characters in every free-text field and in an actor, written
    /// straight through the log as a build before the rule wrote them. Returns the CLI and the command
    /// id of the rename that the last (mallory's) commit renames again.
    func oldLibrary() throws -> (CLI, rename: CommandID) {
        let cli = CLI()
        try cli.must("init")
        let log = try EventLog(at: cli.library)
        let time = TestClock.start
        var settings = ThumbnailSettings.defaults
        settings.fontName = Self.fontName
        settings.fontSize = 1e300  // out of any range: printing it must not trap either
        let transcript = try log.blobs.put(Array(Self.transcript.utf8))
        let font = try log.blobs.put(Array("not really a font".utf8))
        let rename = CommandID(UUID())
        let commits: [(CommandID, [DomainEvent])] = [
            (CommandID(UUID()), [.podcastCreated(PodcastCreated(
                podcastID: Self.podcast, name: "Placeholder", description: Self.podcastDescription, createdAt: time,
                thumbnailDefaults: .defaults))]),
            (rename, [.podcastRenamed(PodcastRenamed(podcastID: Self.podcast, name: Self.podcastName))]),
            (CommandID(UUID()), [.episodeCreated(EpisodeCreated(
                episodeID: Self.episode, podcastID: Self.podcast, title: Self.episodeTitle, number: 1,
                description: Self.episodeDescription, publishDate: nil, createdAt: time, thumbnailSettings: .defaults, overlay: nil))]),
            (CommandID(UUID()), [.thumbnailTextChanged(ThumbnailTextChanged(episodeID: Self.episode, text: .custom(Self.thumbnailText)))]),
            (CommandID(UUID()), [.thumbnailSettingsChanged(ThumbnailSettingsChanged(episodeID: Self.episode, settings: settings))]),
            (CommandID(UUID()), [.transcriptImported(TranscriptImported(episodeID: Self.episode, transcript: transcript, warnings: []))]),
            (CommandID(UUID()), [.fontImported(FontImported(name: Self.fontName, font: font))]),
            // Mallory's: the actor is put in afterwards, as the log refuses it now.
            (CommandID(UUID()), [.podcastRenamed(PodcastRenamed(podcastID: Self.podcast, name: Self.podcastName + " again"))]),
        ]
        let placeholder = "placeholder-actor"
        for (commandID, events) in commits {
            try log.write { writer in
                try writer.append(Commit(
                    events: events.map(ProposedEvent.init(domain:)), commandID: commandID,
                    actor: commandID == commits.last!.0 ? placeholder : "ana", timestamp: time))
            }
        }
        try SegmentEdits.replace(json(placeholder), with: json(Self.actor), inFrame: .last, of: cli.library + "/log/00000001.seg")
        // An older build kept no head record, which would show the last commit changed.
        try FileManager.default.removeItem(atPath: cli.library + "/HEAD")
        return (cli, rename)
    }

    /// `text` as a JSON string, quotes included.
    func json(_ text: String) -> [UInt8] { Self.json(text) }
    static func json(_ text: String) -> [UInt8] { Array(try! JSONEncoder().encode(text)) }

    /// Every scalar of what the run printed is printable, or a line feed between lines.
    func expectPrintable(_ run: CLI.Run, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for (stream, text) in [("stdout", run.out), ("stderr", run.err)] {
            let controls = text.unicodeScalars.filter { ControlCharacter.contains($0) && $0 != "\n" }
            #expect(controls.isEmpty, "\(what) printed \(controls.map { ControlCharacter.name($0) }) on \(stream)", sourceLocation: sourceLocation)
            #expect(!text.unicodeScalars.contains("\u{FFFD}"), "\(what) printed bytes that are not UTF-8 on \(stream)", sourceLocation: sourceLocation)
        }
    }

    @Test("every command that prints for people escapes what an older log holds, and --json gives it back exactly")
    func olderLog() throws {
        let (cli, rename) = try oldLibrary()
        let podcast = Self.podcast.description, episode = Self.episode.description

        let human: [[String]] = [
            ["podcast", "list"], ["episode", "list", podcast], ["episode", "list", podcast, "--search", "pilot"],
            ["episode", "show", episode], ["font", "list"], ["projections", "status"], ["history", podcast],
            ["history", episode], ["log"], ["log", "--actor", Self.actor], ["log", "verify"], ["search", "welcome"],
            ["search", "pilot"], ["show", podcast], ["show", episode], ["show", episode, "--as-of", "3"],
            ["undo", "--last", "--dry-run"], ["podcast", "list", "--quiet"],
        ]
        for arguments in human {
            let run = try cli.run(arguments)
            #expect(run.status == 0, "\(arguments): \(run.err)")
            expectPrintable(run, arguments.joined(separator: " "))
        }

        // What people see: the escapes, never the characters.
        #expect(try cli.must("podcast", "list").out.contains(#"Evil \u{1B}]0;owned\u{7} show again"#))
        let sheet = try cli.must("episode", "show", episode).out
        #expect(sheet.contains(#"Pilot \u{1B}[2J\u{1B}[H\u{7F}"#))
        #expect(sheet.contains(#"Desc\u{85}next \u{9D}0;x\u{9C} tab\there"#))
        #expect(sheet.contains(#"EP \u{1B}[5m1"#))
        #expect(sheet.contains(#"Font\u{1B}]2;x\u{1B}\\ 1e+300 pt"#))
        let shown = try cli.must("show", podcast).out
        #expect(shown.contains(#"First \u{1B}[31mred\u{1B}[0m"#) && shown.contains(#"second \u{9B}2J line\u{0}end"#),
            "a description's lines stay lines, each escaped")
        #expect(try cli.must("log").out.contains(#"mallory\u{1B}]0;owned\u{7}\n\u{9B}2J"#))
        #expect(try cli.must("font", "list").out.contains(#"Font\u{1B}]2;x\u{1B}\\"#))
        #expect(try cli.must("search", "welcome").out.contains(#"\u{1B}]0;owned\u{7}"#))

        // Tables measure the escaped text: every line of the list is as wide as its header's columns say.
        let table = try cli.must("episode", "list", podcast).out.split(separator: "\n")
        let idColumn = try #require(table.first?.range(of: "ID")).lowerBound.utf16Offset(in: table[0])
        #expect(table[1].count >= idColumn + 8 && table[1].dropFirst(idColumn).hasPrefix(episode.prefix(8)))

        // An undo refused over mallory's later rename quotes mallory, escaped.
        let refused = try cli.run("undo", rename.description)
        #expect(refused.status == 65)
        #expect(refused.err.contains(#"by mallory\u{1B}]0;owned\u{7}\n\u{9B}2J at"#), "\(refused.err)")
        expectPrintable(refused, "undo refused")

        // Scripts get the text exactly.
        let podcasts = try cli.list("podcast", "list")
        #expect(podcasts.first?["name"] as? String == Self.podcastName + " again")
        let asOf = try cli.object("show", podcast)
        #expect((asOf["podcast"] as? [String: Any])?["description"] as? String == Self.podcastDescription)
        let detail = try cli.object("episode", "show", episode)
        #expect(detail["title"] as? String == Self.episodeTitle)
        #expect(detail["description"] as? String == Self.episodeDescription)
        #expect(detail["thumbnailText"] as? String == Self.thumbnailText)
        #expect((detail["thumbnailSettings"] as? [String: Any])?["fontName"] as? String == Self.fontName)
        #expect(try cli.list("font", "list").first?["name"] as? String == Self.fontName)
        #expect(try cli.list("search", "welcome").first?["title"] as? String == Self.episodeTitle)
        #expect(try cli.must("log", "--json").jsonLines().last?["actor"] as? String == Self.actor)
        #expect(try cli.list("history", podcast).last?["actor"] as? String == Self.actor)
    }

    @Test("text typed on the command line is escaped where a message quotes it")
    func typedText() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        let typed = "Show\u{1B}]0;owned\u{7}\u{9B}2J"
        for arguments in [
            ["episode", "list", typed], ["episode", "show", typed + "/1"], ["history", typed], ["log", "--podcast", typed],
            ["episode", "list", "Show", "--sort", typed], ["episode", "list", "Show", "--limit", typed],
            ["log", "--since", typed],
        ] {
            let run = try cli.run(arguments)
            #expect(run.status != 0, "\(arguments)")
            #expect(run.err.contains(#"\u{1B}]0;owned\u{7}\u{9B}2J"#), "\(arguments): \(run.err)")
            expectPrintable(run, arguments.joined(separator: " "))
        }
    }

    @Test("an actor with a control character is refused by every command that records one, before anything is written")
    func actorFromTheEnvironment() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        try cli.must("episode", "create", "Show", "One")
        let log = cli.library + "/log/00000001.seg"
        let before = try Data(contentsOf: URL(fileURLWithPath: log))
        let evil = ["EPISODIC_ACTOR": "ana\u{1B}]0;owned\u{7}"]
        for arguments in [
            ["podcast", "create", "Other"], ["episode", "retitle", "Show/1", "Two"], ["thumbnail", "text", "Show/1", "EP"],
            ["undo", "--last"], ["submit"],
        ] {
            let run = try cli.run(arguments, input: #"{"command":"podcast.create","name":"Scripted"}"# + "\n", environment: evil)
            #expect(run.status == 65, "\(arguments): \(run.err)")
            #expect(run.err.contains("the actor holds the control character U+001B (ESC)"), "\(arguments): \(run.err)")
            expectPrintable(run, arguments.joined(separator: " "))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before, "nothing was written")
        // Reading records no actor: it is not asked for.
        #expect(try cli.run(["podcast", "list"], environment: evil).status == 0)
        #expect(try cli.run(["undo", "--last", "--dry-run"], environment: evil).status == 0)
    }
}
