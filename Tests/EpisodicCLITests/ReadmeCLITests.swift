import Foundation
import Testing
import TestSupport

/// The README cannot drift from the CLI: every `console` block is run, command by command, in a fresh
/// home folder (its library the default one), and must print what the README shows, ids, times and
/// paths masked; every command line of a `sh` block must name commands and options that exist.
/// `EPISODIC_UPDATE_README=1 swift test --filter ReadmeCLITests` writes what the commands print into
/// the README instead.
@Suite("The README's examples")
struct ReadmeCLITests {
    /// A command of a `console` block, and what the README shows it printing.
    struct Step {
        var command: String
        var shown: [String]
    }

    /// The `console` blocks' steps, with the line each command is on and the indent of its block (a
    /// block may sit in a list item).
    static func consoleSteps(in lines: [String]) -> [(line: Int, indent: Int, step: Step)] {
        var steps: [(line: Int, indent: Int, step: Step)] = []
        var indent: Int?
        for (number, line) in lines.enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") {
                indent = trimmed == "```console" ? line.count - trimmed.count : nil
                continue
            }
            guard let indent else { continue }
            let text = String(line.dropFirst(min(indent, line.count - trimmed.count)))
            if text.hasPrefix("$ ") {
                steps.append((number, indent, Step(command: String(text.dropFirst(2)), shown: [])))
            } else if !steps.isEmpty, !(text.isEmpty && steps[steps.count - 1].step.shown.isEmpty) {
                steps[steps.count - 1].step.shown.append(text)
            }
        }
        // The blank line that separates a step from the next is no part of its output.
        for index in steps.indices { while steps[index].step.shown.last == "" { steps[index].step.shown.removeLast() } }
        return steps
    }

    /// Output with what changes from run to run masked: the home folder, ids and hash prefixes, times
    /// and dates, durations, relative times and sizes.
    static func masked(_ lines: [String], home: String) -> [String] {
        lines.map { line in
            var text = line.replacingOccurrences(of: home, with: "/home/you")
            text = text.replacing(#/\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2} (UTC|[+-]\d{2}:\d{2}))?/#, with: "<time>")
            text = text.replacing(#/\b[0-9a-f]{64}\b/#, with: "<hash>")
            text = text.replacing(#/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/#, with: "<uuid>")
            text = text.replacing(#/\b[0-9a-f]{8}\b/#, with: "<id>")
            text = text.replacing(#/\d+(\.\d+)? s\b/#, with: "<seconds>")
            // Sizes of what holds times and ids: the log compresses them differently every run.
            text = text.replacing(#/\d+(\.\d+)? (KB|MB|bytes)\b/#, with: "<size>")
            text = text.replacing(#/just now|\d+ seconds? ago|a minute ago|\d+ minutes ago/#, with: "<ago>")
            return String(text.reversed().drop { $0 == " " }.reversed())
        }
    }

    @Test("every console example prints what the README shows; every sh example names commands and options that exist")
    func examples() throws {
        let path = RepositoryFiles.path("README.md")
        var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        let steps = Self.consoleSteps(in: lines)
        #expect(steps.count >= 10, "the README has a tour")

        // Each block runs in a home folder of its own, where Tests/ is the repository's, so that
        // examples name fixtures as they are in a checkout.
        let folder = TemporaryFolder("episodic-readme")
        let home = folder.path + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: home + "/Tests", withDestinationPath: RepositoryFiles.path("Tests"))
        let bin = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().path
        let update = ProcessInfo.processInfo.environment["EPISODIC_UPDATE_README"] == "1"
        var printed: [Int: [String]] = [:]
        for (line, _, step) in steps {
            let run = try Self.shell(step.command, in: home, path: bin)
            let output = (run.out + run.err).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let actual = Array(output.reversed().drop { $0.isEmpty }.reversed())
            printed[line] = actual
            if !update {
                #expect(Self.masked(actual, home: home) == Self.masked(step.shown, home: home), "README line \(line + 1): $ \(step.command)")
            }
        }
        if update {
            // Each step's shown lines replaced by what it printed, the home folder as the README names it;
            // a step that printed what is shown, ids and times aside, is left as it is.
            for (line, indent, step) in steps.reversed()
            where Self.masked(printed[line]!, home: home) != Self.masked(step.shown, home: home) {
                let margin = String(repeating: " ", count: indent)
                let shown = printed[line]!.map { $0.isEmpty ? "" : margin + $0.replacingOccurrences(of: home, with: "/home/you") }
                lines.replaceSubrange((line + 1)..<(line + 1 + step.shown.count), with: shown)
            }
            try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }

        // And the sh blocks' command lines are true to the command tree.
        let root = try HelpExamplesCLITests.tree()
        var inSh = false
        for line in lines {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") {
                inSh = trimmed == "```sh"
                continue
            }
            guard inSh else { continue }
            // ArgumentParser's own options of the root command are no subcommand's.
            for words in HelpExamplesCLITests.invocations(in: line) where !["--generate-completion-script", "--version"].contains(words.dropFirst().first) {
                #expect(HelpExamplesCLITests.problem(words, root: root) == nil, "README: \(line)")
            }
        }
    }

    /// `command` run by bash in `folder`, with `path` first on PATH and the home and time zone of a
    /// fresh user: the library is the default one.
    static func shell(_ command: String, in folder: String, path: String) throws -> CLI.Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.environment = [
            "PATH": path + ":/usr/bin:/bin", "HOME": folder, "TZ": "UTC", "EPISODIC_ACTOR": "ana", "LANG": "C.UTF-8",
        ]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return CLI.Running(process: process, out: out, err: err).finish()
    }
}
