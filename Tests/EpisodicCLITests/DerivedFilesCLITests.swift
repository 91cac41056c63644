import Foundation
import Testing

/// What is derived from the log (the read models and their link, the stream index, the segment
/// catalog, the folds kept of long streams) is never a reason to fail, whatever stands in its place:
/// a folder where a file should be, or a file where a folder should be, is set aside, kept as
/// `<name>.damaged` or as a set-aside read model is, and the file made again from the log; bytes that
/// are not what Episodic writes are read as none, and written over (a read model's, which SQLite finds
/// malformed, are set aside as a damaged read model).
@Suite("Something else in the place of a derived file")
struct DerivedFilesCLITests {
    /// A library with everything derived a library can have: a podcast "Show" of 1,000 episodes
    /// retitled thousands of times and described 1,500 times, so that the stream index has a sorted run
    /// beside its tail (more than 8,192 events), the log sealed and compacted segments (the segment
    /// catalog), and the podcast's long stream a kept fold. Made once, and copied for each test.
    static let fixture: Result<String, any Error> = Result {
        let folder = NSTemporaryDirectory() + "episodic-derived-fixture-\(getpid())"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let library = folder + "/library"
        fixtureFolder = folder
        atexit { if let folder = DerivedFilesCLITests.fixtureFolder { try? FileManager.default.removeItem(atPath: folder) } }
        var lines = [#"{"command":"podcast.create","name":"Show"}"#]
        lines += (1...1_000).map { #"{"command":"episode.create","podcast":"Show","title":"Episode \#($0)"}"# }
        lines += (1...1_500).map { #"{"command":"podcast.describe","podcast":"Show","description":"Take \#($0)"}"# }
        lines += (1...7_500).map { #"{"command":"episode.retitle","episode":"Show/\#($0 % 1_000 + 1)","title":"Retitled \#($0)"}"# }
        let cli = CLI()
        cli.environment["EPISODIC_LIBRARY"] = library
        for arguments in [["init"], ["submit"], ["podcast", "describe", "Show", "Once more"]] {
            let run = try cli.run(arguments, input: arguments == ["submit"] ? lines.joined(separator: "\n") + "\n" : nil)
            guard run.status == 0 else { throw CLI.Failed(arguments: arguments, run: run) }
        }
        for derived in ["index/streams.sorted", "index/streams.tail", "index/segments", "read.sqlite", "snapshots/incoming"] {
            guard FileManager.default.fileExists(atPath: library + "/" + derived) else { throw Missing(what: derived) }
        }
        guard try !snapshots(library).isEmpty else { throw Missing(what: "a kept fold") }
        return library
    }

    nonisolated(unsafe) static var fixtureFolder: String?

    struct Missing: Error {
        var what: String
    }

    /// The kept folds' files, by name.
    static func snapshots(_ library: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: library + "/snapshots").filter { $0.hasPrefix("s-") }
    }

    /// What is put in the place of a derived file or folder.
    enum Replacement: String, Sendable {
        /// A folder (not empty) in the place of a file.
        case folder = "a folder"
        /// A file in the place of a folder, or of the link `read.sqlite`.
        case file = "a file"
        /// The file's bytes overwritten with others.
        case garbage = "other bytes"
    }

    /// A derived file, and what is put in its place.
    struct Case: CustomStringConvertible, Sendable {
        var what: String
        /// The path in the library of what is replaced.
        var place: @Sendable (String) throws -> String
        var replacement: Replacement
        /// For a read model: the commands say that the read models were rebuilt, and the set-aside is
        /// named as a read model's is. Otherwise they say what was set aside.
        var isReadModel = false
        /// How the file made again begins (its format's tag), when it is one of the log's derived files.
        var tag: String?
        /// The kept folds are removed too, so that the next command on the podcast keeps its fold anew.
        var forgetsKeptFolds = false

        var description: String { "\(replacement.rawValue) in the place of \(what)" }
    }

    static let cases = [
        Case(what: "read.sqlite", place: { $0 + "/read.sqlite" }, replacement: .folder, isReadModel: true),
        Case(what: "read.sqlite", place: { $0 + "/read.sqlite" }, replacement: .file, isReadModel: true),
        Case(what: "the live generation's manifest", place: { try LibraryFiles.liveGeneration($0) }, replacement: .folder, isReadModel: true),
        Case(what: "the live generation's manifest", place: { try LibraryFiles.liveGeneration($0) }, replacement: .garbage, isReadModel: true),
        Case(what: "a projector's file", place: { try LibraryFiles.liveFile($0, of: "sidebar") }, replacement: .folder, isReadModel: true),
        Case(what: "a projector's file", place: { try LibraryFiles.liveFile($0, of: "sidebar") }, replacement: .garbage, isReadModel: true),
        Case(what: "a projector's WAL", place: { try LibraryFiles.liveFile($0, of: "search") + "-wal" }, replacement: .folder, isReadModel: true),
        Case(
            what: "a projector's shared-memory index", place: { try LibraryFiles.liveFile($0, of: "sidebar") + "-shm" }, replacement: .folder,
            isReadModel: true),
        Case(what: "read/", place: { $0 + "/read" }, replacement: .file, isReadModel: true),
        Case(what: "index/", place: { $0 + "/index" }, replacement: .file),
        Case(what: "the stream index's tail", place: { $0 + "/index/streams.tail" }, replacement: .folder, tag: "EPSTAIL1"),
        Case(what: "the stream index's tail", place: { $0 + "/index/streams.tail" }, replacement: .garbage, tag: "EPSTAIL1"),
        Case(what: "the stream index's sorted run", place: { $0 + "/index/streams.sorted" }, replacement: .folder, tag: "EPSINDEX"),
        Case(what: "the stream index's sorted run", place: { $0 + "/index/streams.sorted" }, replacement: .garbage, tag: "EPSINDEX"),
        Case(what: "the segment catalog", place: { $0 + "/index/segments" }, replacement: .folder, tag: "EPSEGCAT"),
        Case(what: "the segment catalog", place: { $0 + "/index/segments" }, replacement: .garbage, tag: "EPSEGCAT"),
        Case(what: "snapshots/", place: { $0 + "/snapshots" }, replacement: .file),
        Case(what: "snapshots/incoming/", place: { $0 + "/snapshots/incoming" }, replacement: .file, forgetsKeptFolds: true),
        Case(what: "a kept fold", place: { $0 + "/snapshots/" + (try snapshots($0).first!) }, replacement: .folder, tag: "{"),
        Case(what: "a kept fold", place: { $0 + "/snapshots/" + (try snapshots($0).first!) }, replacement: .garbage, tag: "{"),
    ]

    @Test("something else in the place of a derived file or folder: every command works, what was there is kept aside, the file is made again", arguments: cases)
    func setAsideAndRebuilt(_ given: Case) throws {
        // Given a copy of the library with something else in the place of a derived file
        let cli = CLI()
        try FileManager.default.copyItem(atPath: try Self.fixture.get(), toPath: cli.library)
        let place = try given.place(cli.library)
        if given.forgetsKeptFolds {
            for name in try Self.snapshots(cli.library) { try FileManager.default.removeItem(atPath: cli.library + "/snapshots/" + name) }
        }
        let relative = String(place.dropFirst(cli.library.count + 1))
        let garbage = Data((0..<4_096).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
        switch given.replacement {
        case .folder:
            try FileManager.default.removeItem(atPath: place)
            try FileManager.default.createDirectory(atPath: place + "/inside", withIntermediateDirectories: true)
        case .file:
            try FileManager.default.removeItem(atPath: place)
            #expect(FileManager.default.createFile(atPath: place, contents: Data("not a folder".utf8)))
        case .garbage:
            try garbage.write(to: URL(fileURLWithPath: place))
        }
        // (The segment catalog takes a segment only once its file has been left alone a quarter of a second.)
        usleep(400_000)

        // When commands read and write
        let runs = try [
            cli.run(["podcast", "list"]), cli.run(["episode", "retitle", "Show/2", "Renamed"]),
            cli.run(["podcast", "describe", "Show", "Described"]), cli.run(["episode", "retitle", "Show/3", "Again"]),
        ]

        // Then each works, and answers as the log says
        for run in runs { #expect(run.status == 0, "\(run.err)") }
        #expect(try cli.object("episode", "show", "Show/2")["title"] as? String == "Renamed")
        #expect(try cli.object("episode", "show", "Show/3")["title"] as? String == "Again")
        #expect((try cli.object("podcast", "show", "Show")["podcast"] as? [String: Any])?["description"] as? String == "Described")
        #expect(try cli.run("log", "verify").status == 0)
        let said = runs.map(\.err).joined()
        let aside = try Self.setAside(place, in: cli.library)

        if given.isReadModel {
            // And the read models say that they were rebuilt, and where what was in the way is kept
            #expect(said.contains("the read models were rebuilt from the log"), "\(said)")
            #expect(aside.count == 1, "\(aside)")
            if let kept = aside.first { Self.expectKeptAsItWas(kept, given.replacement, garbage) }
            // (The message names the generation's manifest, kept with the file that was in the way.)
            let named = said.components(separatedBy: "was kept as ").dropFirst().first?.components(separatedBy: ";").first
            #expect(named.map { Self.type($0) != nil } == true, "\(said)")
            if given.what == "read.sqlite" {
                #expect(Self.type(place) == .typeSymbolicLink)
            } else if given.what == "read/" {
                #expect(Self.type(place) == .typeDirectory)
            } else {
                // A read model's files are made anew under new names; the live generation names none in the way.
                #expect(try !LibraryFiles.liveGenerationFiles(cli.library).contains { place.hasPrefix(cli.library + "/read/" + $0) })
            }
        } else if given.replacement == .garbage {
            // And the file, which a power cut may leave so, is written over with what the log says, unsaid
            #expect(aside.isEmpty, "\(aside)")
            #expect(!said.contains("warning"), "\(said)")
            let made = try #require(FileManager.default.contents(atPath: place))
            #expect(made != garbage)
            #expect(made.starts(with: Data(given.tag!.utf8)))
        } else {
            // And what was in the way is kept aside as it was, said once, and the file or folder is there again
            #expect(aside == [place + ".damaged"], "\(aside)")
            let folderPlace = given.replacement == .file ? relative + "/" : relative
            let warning = "warning: \(given.replacement.rawValue) stood in the place of \(folderPlace), which is derived from the log: "
                + "it was kept as \(relative).damaged"
            #expect(said.components(separatedBy: warning).count == 2, "\(said)")
            Self.expectKeptAsItWas(place + ".damaged", given.replacement, garbage)
            #expect(Self.type(place) == (given.replacement == .folder ? .typeRegular : .typeDirectory))
            if let tag = given.tag { #expect(FileManager.default.contents(atPath: place)?.starts(with: Data(tag.utf8)) == true) }
        }
    }

    @Test("with --json, what was set aside is said as a warning object of kind derivedFileSetAside")
    func setAsideAsJSON() throws {
        // Given a library with a folder in the place of the stream index's tail
        let cli = CLI()
        try FileManager.default.copyItem(atPath: try Self.fixture.get(), toPath: cli.library)
        try FileManager.default.removeItem(atPath: cli.library + "/index/streams.tail")
        try FileManager.default.createDirectory(atPath: cli.library + "/index/streams.tail/inside", withIntermediateDirectories: true)

        // When a command writes, with --json
        let run = try cli.run(["--json", "episode", "retitle", "Show/2", "Renamed"])

        // Then it works, and stderr holds one warning object naming both places
        #expect(run.status == 0, "\(run.err)")
        let lines = run.err.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let warnings = lines.compactMap { $0?["warning"] as? [String: Any] }
        #expect(warnings.count == 1, "\(run.err)")
        #expect(warnings.first?["kind"] as? String == "derivedFileSetAside")
        let message = warnings.first?["message"] as? String ?? ""
        #expect(message.contains("index/streams.tail") && message.contains("index/streams.tail.damaged"), "\(message)")
    }

    /// What was set aside from `place`: `<place>.damaged…`, or, for a read model's file,
    /// `NNNNNN[-name].damaged….sqlite` with its companion's suffix.
    static func setAside(_ place: String, in library: String) throws -> [String] {
        let folder = (place as NSString).deletingLastPathComponent
        let name = (place as NSString).lastPathComponent
        let stem = name.components(separatedBy: ".sqlite").first!
        let companion = name.components(separatedBy: ".sqlite").dropFirst().first ?? ""
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { entry in
            entry.hasPrefix(name + ".damaged") || (name.contains(".sqlite") && entry.hasPrefix(stem + ".damaged") && entry.hasSuffix(".sqlite" + companion))
        }.sorted().map { folder + "/" + $0 }
    }

    /// Checks that `kept` is what `replacement` put in the place it was set aside from.
    static func expectKeptAsItWas(_ kept: String, _ replacement: Replacement, _ garbage: Data) {
        switch replacement {
        case .folder:
            #expect(type(kept) == .typeDirectory, "\(kept)")
            #expect(FileManager.default.fileExists(atPath: kept + "/inside"), "\(kept)")
        case .file:
            #expect(FileManager.default.contents(atPath: kept) == Data("not a folder".utf8), "\(kept)")
        case .garbage:
            #expect(FileManager.default.contents(atPath: kept) == garbage, "\(kept)")
        }
    }

    /// The type of what is at `path`, not following a link.
    static func type(_ path: String) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    }
}
