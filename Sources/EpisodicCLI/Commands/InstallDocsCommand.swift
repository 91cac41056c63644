import ArgumentParser
import Episodic
import Foundation

/// `episodic install-docs`: `man episodic` and tab completion, from the binary alone.
struct InstallDocsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install-docs",
        abstract: "Install `man episodic` and tab completion (bash, zsh, fish) for the current user.",
        discussion: """
            The pages and scripts are written from the commands' own help, so this binary is all it needs. \
            Into the data folder ($XDG_DATA_HOME, else ~/.local/share): a man page per command in man/man1 \
            (`man episodic`, `man episodic.thumbnail.text`), bash completion in bash-completion/completions \
            (which bash-completion loads on demand), zsh's in zsh/site-functions (add it to fpath) and fish's \
            in fish/vendor_completions.d. Pages of commands that no longer exist are removed. Run it again \
            after an upgrade.

            Examples:
              episodic install-docs
              episodic install-docs --prefix /usr/local/share   for everyone (as root)
              episodic install-docs --json
            """)
    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("The data folder to install into (default: $XDG_DATA_HOME, else ~/.local/share).", valueName: "folder"))
    var prefix: String?

    /// What was installed where, for `--json`.
    struct Installed: Encodable {
        var manPages: Int
        var manFolder: String
        var completions: [String: String]
    }

    func run() throws {
        try Session.run(global) { session in
            let data = prefix ?? GlobalOptions.dataHome
            let installed = try Self.install(into: data)
            if global.json { return session.printJSON(installed) }
            Terminal.say(TerminalText("Installed \(Amount.count(installed.manPages, "man page")) in \(installed.manFolder)."))
            for shell in installed.completions.keys.sorted() {
                Terminal.say(TerminalText("Installed \(shell) completion as \(installed.completions[shell]!)."))
            }
            if prefix == nil {
                Terminal.say(TerminalText("`man episodic` finds the pages when ~/.local/bin (holding episodic, or a link to it) is on PATH; "
                    + "else MANPATH=\"\(data)/man:\" man episodic."))
            }
        }
    }

    /// Writes the pages and scripts under `data`, each file whole (a temporary file renamed into place).
    static func install(into data: String) throws -> Installed {
        let man = data + "/man/man1"
        let scripts: [(CompletionShell, String)] = [
            (.bash, data + "/bash-completion/completions/episodic"),
            (.zsh, data + "/zsh/site-functions/_episodic"),
            (.fish, data + "/fish/vendor_completions.d/episodic.fish"),
        ]
        let pages = ManualPages.pages(of: try ManualPages.command(fromDump: helpDump()), version: "episodic \(Library.version)")
        for folder in [man] + scripts.map({ ($0.1 as NSString).deletingLastPathComponent }) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw InputError(path: folder, reason: "it cannot be made (\(error.localizedDescription)). Check the folder and its permissions, or give --prefix.")
            }
        }
        let current = Set(pages.map(\.name))
        for old in (try? FileManager.default.contentsOfDirectory(atPath: man)) ?? []
        where (old == "episodic.1" || old.hasPrefix("episodic.")) && old.hasSuffix(".1") && !current.contains(old) {
            try? FileManager.default.removeItem(atPath: man + "/" + old)
        }
        for page in pages { try Files.write(Array(page.text.utf8), to: man + "/" + page.name) }
        // With the line end `--generate-completion-script` prints after it.
        for (shell, path) in scripts { try Files.write(Array((EpisodicTool.completionScript(for: shell) + "\n").utf8), to: path) }
        return Installed(
            manPages: pages.count, manFolder: man,
            completions: Dictionary(uniqueKeysWithValues: scripts.map { ($0.0.rawValue, $0.1) }))
    }

    /// ArgumentParser's description of every command, as this very program prints it when asked.
    private static func helpDump() throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = ["--experimental-dump-help"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ValidationError("episodic could not describe its own commands (exit \(process.terminationStatus)).")
        }
        return data
    }
}
