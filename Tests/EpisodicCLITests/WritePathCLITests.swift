import Foundation
import Testing

/// `undo` and `submit` share the write path: what one says after the append, the other says too.
@Suite("One write path, through the binary")
struct WritePathCLITests {
    @Test("a read model that cannot be updated after the append: undo warns as submit does, exits 0, and the append stays")
    func readModelBehindAfterUndo() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        try cli.must("podcast", "rename", "Show", "Renamed")
        // While `run` runs, SQLite refuses every change to the sidebar's podcasts; the log still takes the events.
        let sqlite = DamagedReadModelTests().sqlite
        let generation = try LibraryFiles.liveFile(cli.library, of: "sidebar")
        let events = ["insert", "update", "delete"]
        func refusing(_ arguments: String...) throws -> CLI.Run {
            _ = try sqlite(generation, events.map {
                "CREATE TRIGGER refuse_\($0) BEFORE \($0.uppercased()) ON sidebar_podcasts BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;"
            }.joined())
            defer { _ = try? sqlite(generation, events.map { "DROP TRIGGER refuse_\($0);" }.joined()) }
            return try cli.run(arguments)
        }
        let warning = "warning: the commands were saved, but the read models could not be updated"

        let undo = try refusing("undo", "--last")
        #expect(undo.status == 0, "\(undo.err)")
        #expect(undo.err.contains(warning) && undo.err.contains("refused by the test"), "\(undo.err)")
        #expect(try cli.list("podcast", "list").map { $0["name"] as? String } == ["Show"])

        let submit = try refusing("podcast", "rename", "Show", "Again")
        #expect(submit.status == 0, "\(submit.err)")
        #expect(submit.err.contains(warning) && submit.err.contains("refused by the test"), "\(submit.err)")
        #expect(try cli.list("podcast", "list").map { $0["name"] as? String } == ["Again"])
    }
}
