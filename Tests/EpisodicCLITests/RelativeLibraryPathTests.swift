import Foundation
import Testing

/// Paths as people type them: a bare folder or file name, relative to where they are.
@Suite("Relative paths without a slash")
struct RelativeLibraryPathTests {
    @Test("A library named by a bare relative folder name is created and used (no crash on a path without a slash)")
    func bareLibraryName() throws {
        let cli = CLI()
        let run = try cli.run("init", "--library", "shows")
        #expect(run.status == 0, "\(run.err)")
        #expect(try cli.run("podcast", "create", "Bare", "--library", "shows").status == 0)
        #expect(try cli.run("backup", "bare.tar", "--library", "shows").status == 0)
        #expect(FileManager.default.fileExists(atPath: cli.folder + "/bare.tar"))
    }
}
