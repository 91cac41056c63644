import Foundation
import Testing

/// `episodic install-docs` gives someone with only the binary its man pages and tab completion.
@Suite("Installing the docs")
struct InstallDocsCLITests {
    /// `man` reading `page` as a file, at 100 columns: what it prints, and what it (or groff) complains of.
    static func man(_ page: String) throws -> (out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/man")
        process.arguments = ["-l", page]
        process.environment = ["MANWIDTH": "160", "MAN_KEEP_FORMATTING": "0", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let out = Pipe(), err = Pipe()
        (process.standardOutput, process.standardError) = (out, err)
        try process.run()
        let printed = out.fileHandleForReading.readDataToEndOfFile(), complaints = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        // Formatted for a terminal, bold and underline are overstrikes: keep the characters.
        let text = String(decoding: printed, as: UTF8.self).replacing(#/.\x08/#, with: "")
        return (text, String(decoding: complaints, as: UTF8.self))
    }

    @Test("a page per command, read by man without a warning, saying what --help says; completion scripts for three shells")
    func installs() throws {
        // Given a data folder with a page of a command that no longer exists
        let cli = CLI()
        let data = cli.folder + "/share"
        try FileManager.default.createDirectory(atPath: data + "/man/man1", withIntermediateDirectories: true)
        try Data("stale".utf8).write(to: URL(fileURLWithPath: data + "/man/man1/episodic.gone.1"))

        // When the docs are installed there (as $XDG_DATA_HOME)
        let run = try cli.run(["install-docs", "--json"], environment: ["XDG_DATA_HOME": data])
        #expect(run.status == 0, "\(run.err)")
        let installed = try #require(JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])

        // Then every command has its page, and the stale one is gone
        let pages = try FileManager.default.contentsOfDirectory(atPath: data + "/man/man1")
        #expect(installed["manPages"] as? Int == pages.count && pages.count > 60, "\(pages.count) pages")
        for page in ["episodic.1", "episodic.thumbnail.text.1", "episodic.podcast.defaults.1", "episodic.log.verify.1"] {
            #expect(pages.contains(page), "\(page)")
        }
        #expect(!pages.contains("episodic.gone.1"))

        // And man reads a page whole, with its options, their help and the examples, without a complaint
        let text = try Self.man(data + "/man/man1/episodic.thumbnail.text.1")
        #expect(text.err.isEmpty, "\(text.err)")
        for words in ["episodic thumbnail text - Set the text drawn", "--from-title", "Draw the episode's title",
                      "--library <path>", "episodic thumbnail text \"Night Shift/3\" --from-title", "printf 'The caller\\nPart two'"] {
            #expect(text.out.contains(words), "\(words) in\n\(text.out)")
        }
        let root = try Self.man(data + "/man/man1/episodic.1")
        #expect(root.err.isEmpty && root.out.contains("install-docs") && root.out.contains("episodic.podcast(1)"), "\(root.out)")

        // And each shell's completion is the script the binary prints
        let completions = try #require(installed["completions"] as? [String: String])
        #expect(Set(completions.keys) == ["bash", "zsh", "fish"])
        for (shell, path) in completions {
            let script = try String(contentsOfFile: path, encoding: .utf8)
            #expect(script == (try cli.must("--generate-completion-script", shell).out), "\(shell)")
        }
        #expect(completions["bash"] == data + "/bash-completion/completions/episodic")
    }

    @Test("a folder that cannot be written is refused with its path, and nothing is installed")
    func unwritable() throws {
        let cli = CLI()
        let blocked = cli.folder + "/blocked"
        try Data("a file where a folder should be".utf8).write(to: URL(fileURLWithPath: blocked))
        let run = try cli.run("install-docs", "--prefix", blocked + "/share")
        #expect(run.status != 0 && run.err.contains(blocked), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: blocked + "/share"))
    }
}
