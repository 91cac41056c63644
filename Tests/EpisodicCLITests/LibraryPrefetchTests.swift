import Episodic
@testable import EpisodicCLI
import Foundation
import Testing

/// The library a command line names is opened on a second thread while the command line is parsed;
/// the session takes it only if it is the library the parsed options name, and opening ahead never
/// changes the library.
@Suite("Opening the library while the command line is parsed")
struct LibraryPrefetchTests {
    /// The library whose read models are opened ahead for `words`; nil when none is.
    func path(_ words: String...) -> String? { LibraryPrefetch.libraryPath(words) }

    /// A library with one podcast, "Night Shift".
    func nightShift() throws -> CLI {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift")
        return cli
    }

    @Test("The library is the one --library names, before or after the subcommand, else the default")
    func libraryNamed() {
        let byDefault = GlobalOptions.libraryPath(given: nil)
        #expect(path("episode", "retitle", "Show/1", "New title", "--library", "/a") == "/a")
        #expect(path("--library", "/a", "--json", "episode", "retitle", "Show/1", "New title") == "/a")
        #expect(path("podcast", "list", "--library=/b") == "/b")
        #expect(path("podcast", "list") == byDefault)
        // After `--`, words are arguments, whatever they look like: a title may be "--library".
        #expect(path("episode", "retitle", "Show/1", "--", "--library", "/c") == byDefault)
    }

    @Test("Nothing is opened for help, the version or completions")
    func nothingOpened() {
        #expect(path("podcast", "list", "--help") == nil)
        #expect(path("episode", "retitle", "-h") == nil)
        #expect(path("help", "podcast", "list") == nil)
        #expect(path("--version") == nil)
        #expect(path("---completion", "episode", "retitle", "--", "episode") == nil)
        #expect(path("--generate-completion-script", "bash") == nil)
        #expect(path() == nil)
    }

    @Test("A command that works on the library's files lets go of what was opened ahead before it starts")
    func letGoForFilesCommands() throws {
        // Given a library whose read models were opened ahead for a command line naming a restore
        let cli = try nightShift()
        let manifest = try FileManager.default.destinationOfSymbolicLink(atPath: cli.library + "/read.sqlite")
        let prefetch = try #require(LibraryPrefetch(["restore", "b.tar", "--library", cli.library]))
        #expect(prefetch.wait() != nil)
        // (they claim the live generation: a remover, which must get the file's lock, would leave it)
        #expect(!Self.canLockExclusively(cli.library + "/" + manifest))

        // When the command lets them go, as every `LibraryFilesCommand` does before its own work
        prefetch.discard()

        // Then nothing of this process holds the generation's files any more, and nothing is left to take
        #expect(Self.canLockExclusively(cli.library + "/" + manifest))
        #expect(prefetch.take(path: cli.library) == nil)
    }

    /// Whether an exclusive `flock` on `path` is granted at once: no claim (a shared `flock`) holds it.
    static func canLockExclusively(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return flock(fd, LOCK_EX | LOCK_NB) == 0
    }

    @Test("The session takes the read models opened ahead only for the library they are of, and once")
    func taken() throws {
        // Given two libraries, one with a podcast
        let cli = try nightShift()
        let path = cli.library
        let other = CLI()
        try other.must("init")

        // When a command line naming the first is read
        let prefetch = try #require(LibraryPrefetch(["podcast", "list", "--library", path]))

        // Then a session for another library opens its own,
        #expect(prefetch.take(path: other.library) == nil)
        // and one for this library takes them, once,
        let files = try #require(prefetch.take(path: path))
        #expect(prefetch.take(path: path) == nil)
        // the other library refusing them, this one answering from them.
        #expect(try !Library(at: other.library).openReadModels(from: files))
        let library = try Library(at: path)
        #expect(try library.openReadModels(from: files))
        #expect(try library.podcasts().map(\.name) == ["Night Shift"])
    }

    @Test("Read models that need a rebuild are left as they are, for the session to rebuild")
    func leftForTheSession() throws {
        // Given a library whose read models are gone
        let cli = try nightShift()
        let path = cli.library
        try FileManager.default.removeItem(atPath: path + "/read.sqlite")
        let before = try Self.files(path)

        // When they are opened ahead, then with the log
        let prefetch = try #require(LibraryPrefetch(["podcast", "list", "--library", path]))
        let files = try #require(prefetch.take(path: path))
        let library = try Library(at: path)
        #expect(try !library.openReadModels(from: files))

        // Then nothing in the library changed,
        #expect(try Self.files(path) == before)
        // until the session opens them, rebuilding them from the log.
        try library.openReadModels()
        #expect(try library.podcasts().map(\.name) == ["Night Shift"])
        #expect(FileManager.default.fileExists(atPath: path + "/read.sqlite"))
    }

    @Test("A change takes the read models opened ahead once it holds the writer lock")
    func takenUnderTheLock() throws {
        // Given a library, and its read models opened ahead for a change, handed to the library unfinished
        let cli = try nightShift()
        let path = cli.library
        let prefetch = try #require(LibraryPrefetch(["episode", "create", "Night Shift", "Pilot", "--library", path]))
        let library = try Library(at: path)
        let lockHeldWhenTaken = Flag()
        library.openReadModels(atFirstUse: {
            lockHeldWhenTaken.value = !Self.canLockExclusively(path + "/LOCK")
            return prefetch.take(path: path)
        })

        // When a change is made
        let report = try library.submit([Submission(.createEpisode(in: .text("Night Shift"), .create(id: EpisodeID(UUID()), title: "Pilot", at: .now)))], actor: "test")

        // Then the read models were taken with the lock held, and answer with the change
        #expect(report.results.count == 1 && (try? report.results[0].get()) != nil)
        #expect(lockHeldWhenTaken.value)
        #expect(try library.episodes(EpisodeQuery(podcast: library.podcasts()[0].id)).map(\.title) == ["Pilot"])
    }

    @Test("A change whose read models opened ahead need a rebuild lets the lock go, rebuilds them, and is made")
    func rebuiltOutsideTheLock() throws {
        // Given a library whose read models are gone, opened ahead for a change and handed over unfinished
        let cli = try nightShift()
        let path = cli.library
        try FileManager.default.removeItem(atPath: path + "/read.sqlite")
        let prefetch = try #require(LibraryPrefetch(["episode", "create", "Night Shift", "Pilot", "--library", path]))
        let library = try Library(at: path)
        library.openReadModels(atFirstUse: { prefetch.take(path: path) })

        // When a change is made
        let report = try library.submit([Submission(.createEpisode(in: .text("Night Shift"), .create(id: EpisodeID(UUID()), title: "Pilot", at: .now)))], actor: "test")

        // Then it was made, on read models rebuilt from the log
        #expect(report.results.count == 1 && (try? report.results[0].get()) != nil)
        #expect(FileManager.default.fileExists(atPath: path + "/read.sqlite"))
        #expect(try library.episodes(EpisodeQuery(podcast: library.podcasts()[0].id)).map(\.title) == ["Pilot"])
        #expect(try library.verify().isClean)
    }

    /// Written by the opening's hand-over, read once the change returned.
    final class Flag: @unchecked Sendable {
        var value = false
    }

    @Test("A command line refused by the parser waits for the opening, and leaves the library as it was")
    func refusedCommand() throws {
        // Given a library with an episode
        let cli = try nightShift()
        try cli.must("episode", "create", "Night Shift", "Pilot")
        let before = try Self.files(cli.library)

        // When a retitle without its title is run (the library is opened while it is parsed)
        let run = try cli.run("episode", "retitle", "Night Shift/1")

        // Then it is a usage error, and the library's files are as they were
        #expect(run.status == 64)
        #expect(run.err.contains("Missing expected argument"))
        #expect(try Self.files(cli.library) == before)
    }

    /// Every file under `folder` and its size, but SQLite's shared-memory indexes, which any reader
    /// writes: what a change to the library would change.
    static func files(_ folder: String) throws -> [String: Int] {
        var files: [String: Int] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            guard !name.hasSuffix("-shm") else { continue }
            let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + name)
            files[name] = (attributes[.size] as? Int) ?? -1
        }
        return files
    }
}
