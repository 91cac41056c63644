import Foundation
import Testing

/// Every number the command line takes is range-checked as it is parsed: a value out of range, huge,
/// negative, `nan` or `inf` exits 64 with the range it should be in, never a crash, and writes nothing.
@Suite("Numbers on the command line")
struct NumberOptionTests {
    /// The values every option is tried with, as `--option=value` so that `-1` is not read as an option.
    static let bad = ["1e18", "-1", "nan", "inf", "-inf", "1e400", "99999999999999999999", "12abc"]

    /// A command that takes a number, where the value goes, and words of the range its refusal gives.
    struct Option: CustomStringConvertible, Sendable {
        var arguments: @Sendable (String) -> [String]
        var range: String
        var name: String
        var description: String { name }
    }

    static let options: [Option] = [
        Option(arguments: { ["podcast", "list", "--lock-timeout=\($0)"] }, range: "from 0 to 86400 seconds", name: "--lock-timeout (read)"),
        Option(arguments: { ["podcast", "create", "New", "--lock-timeout=\($0)"] }, range: "from 0 to 86400 seconds", name: "--lock-timeout (write)"),
        Option(arguments: { ["episode", "list", "Show", "--limit=\($0)"] }, range: "from 0 to 9223372036854775807", name: "episode list --limit"),
        Option(arguments: { ["episode", "list", "Show", "--offset=\($0)"] }, range: "from 0 to 9223372036854775807", name: "episode list --offset"),
        Option(arguments: { ["search", "one", "--limit=\($0)"] }, range: "from 1 to 9223372036854775807", name: "search --limit"),
        Option(arguments: { ["episode", "create", "Show", "Two", "--number=\($0)"] }, range: "from 1 to 2147483647", name: "episode create --number"),
        Option(arguments: { ["episode", "renumber", "Show/1", "--", $0] }, range: "from 1 to 2147483647", name: "episode renumber <number>"),
        Option(arguments: { ["thumbnail", "settings", "Show/1", "--font-size=\($0)"] }, range: "from 12 to 200 points", name: "--font-size"),
        Option(arguments: { ["podcast", "defaults", "Show", "--font-size=\($0)"] }, range: "from 12 to 200 points", name: "defaults --font-size"),
        Option(arguments: { ["thumbnail", "settings", "Show/1", "--text-x=\($0)"] }, range: "from 0 to 1", name: "--text-x"),
        Option(arguments: { ["thumbnail", "settings", "Show/1", "--text-y=\($0)"] }, range: "from 0 to 1", name: "--text-y"),
        Option(arguments: { ["thumbnail", "settings", "Show/1", "--horizontal-padding=\($0)"] }, range: "from 0 to 200 pixels", name: "--horizontal-padding"),
        Option(arguments: { ["podcast", "defaults", "Show", "--vertical-padding=\($0)"] }, range: "from 0 to 200 pixels", name: "--vertical-padding"),
        Option(arguments: { ["thumbnail", "settings", "Show/1", "--canvas=\($0)x1080"] }, range: "from 16 to 8192 pixels", name: "--canvas width"),
        Option(arguments: { ["podcast", "defaults", "Show", "--canvas=1920x\($0)"] }, range: "from 16 to 8192 pixels", name: "--canvas height"),
        Option(arguments: { ["log", "--since=\($0)"] }, range: "from 0 to 18446744073709551615", name: "log --since"),
        Option(arguments: { ["log", "--until=\($0)"] }, range: "from 0 to 18446744073709551615", name: "log --until"),
        Option(arguments: { ["show", "Show", "--as-of=\($0)"] }, range: "from 0 to 18446744073709551615", name: "show --as-of"),
        Option(arguments: { ["log", "--limit=\($0)"] }, range: "from 0 to 9223372036854775807", name: "log --limit"),
        Option(arguments: { ["log", "-n", $0] }, range: "from 0 to 9223372036854775807", name: "log -n"),
        Option(arguments: { ["log", "compact", "--level=\($0)"] }, range: "from 3 to 12", name: "log compact --level"),
        Option(arguments: { ["thumbnail", "settings", "Show/1", "--overlay-scale=\($0)"] }, range: "from 0.05 to 10", name: "--overlay-scale"),
    ]

    /// `arguments` with the option and its value as two words, `--lock-timeout -1`, as people type
    /// them (a value starting with `-` was read as an option, "Missing value"). A positional number
    /// is left after `--`, where it is not taken for an option.
    static func separated(_ arguments: [String], _ value: String) -> [String] {
        arguments.flatMap { argument -> [String] in
            guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "="),
                  argument[argument.index(after: equals)...].contains(value)
            else { return [argument] }
            return [String(argument[..<equals]), String(argument[argument.index(after: equals)...])]
        }
    }

    func given() throws -> CLI {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        try cli.must("episode", "create", "Show", "One")
        return cli
    }

    @Test("each numeric option refuses huge, negative, nan and inf values with its range (exit 64), writing nothing", arguments: options)
    func refused(option: Option) throws {
        let cli = try given()
        let segment = cli.library + "/log/00000001.seg"
        let before = try Data(contentsOf: URL(fileURLWithPath: segment))
        // The log's positions take any 64-bit count, so 99999999999999999999 is their only huge value; a
        // text that is no number is a time they could not read (65), as before.
        let values = option.name.contains("since") || option.name.contains("until") || option.name.contains("as-of")
            ? ["1e18", "-1", "nan", "inf", "-inf", "1e400", "18446744073709551616"] : Self.bad
        for value in values {
            for arguments in [option.arguments(value), Self.separated(option.arguments(value), value)] {
                let run = try cli.run(arguments)
                #expect(run.status == 64, "\(arguments): \(run.status) \(run.err)")
                #expect(run.err.contains(option.range), "\(arguments): \(run.err)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: segment)) == before, "\(option): nothing was written")
    }

    @Test("the ends of each range are taken")
    func bounds() throws {
        let cli = try given()
        for arguments in [
            ["podcast", "list", "--lock-timeout=0"], ["podcast", "list", "--lock-timeout=86400"],
            // -0 is 0, as two words too, before the subcommand or after it ("Missing value" before)
            ["podcast", "list", "--lock-timeout", "-0"], ["--lock-timeout", "-0", "podcast", "list"], ["log", "-n", "-0"],
            ["episode", "list", "Show", "--limit=0"], ["episode", "list", "Show", "--limit=9223372036854775807", "--offset=9223372036854775807"],
            ["search", "one", "--limit=9223372036854775807"], ["episode", "renumber", "Show/1", "2147483647"],
            ["thumbnail", "settings", "Show/2147483647", "--font-size=12", "--text-x=0", "--text-y=1", "--horizontal-padding=200",
             "--vertical-padding=0", "--canvas=16x8192"],
            ["log", "--since=0", "--until=18446744073709551615"], ["show", "Show", "--as-of=18446744073709551615"],
        ] {
            let run = try cli.run(arguments)
            #expect(run.status == 0, "\(arguments): \(run.err)")
        }
        #expect(try cli.object("episode", "show", "Show/2147483647")["number"] as? Int == 2147483647)
    }

    @Test("numbers in submit's lines never crash: out of range is refused by the domain (65), unreadable as a line (65)")
    func scriptNumbers() throws {
        let cli = try given()
        let segment = cli.library + "/log/00000001.seg"
        let before = try Data(contentsOf: URL(fileURLWithPath: segment))
        for line in [
            #"{"command":"episode.renumber","episode":"Show/1","number":1e18}"#,
            #"{"command":"episode.renumber","episode":"Show/1","number":-1}"#,
            #"{"command":"episode.renumber","episode":"Show/1","number":1e400}"#,
            #"{"command":"episode.renumber","episode":"Show/1","number":9.3e18}"#,
            #"{"command":"episode.create","podcast":"Show","title":"T","number":-9.3e18}"#,
            #"{"command":"thumbnail.settings","episode":"Show/1","settings":{"fontSize":1e308}}"#,
            #"{"command":"thumbnail.settings","episode":"Show/1","settings":{"fontSize":-1e400}}"#,
            #"{"command":"thumbnail.settings","episode":"Show/1","settings":{"textPositionX":NaN}}"#,
            #"{"command":"thumbnail.settings","episode":"Show/1","settings":{"canvasWidth":1e18}}"#,
            #"{"command":"podcast.defaults","podcast":"Show","settings":{"canvasHeight":-1,"verticalPadding":1e18}}"#,
        ] {
            let run = try cli.run(["submit"], input: line + "\n")
            #expect(run.status == 65, "\(line): \(run.status) \(run.err)")
            #expect(!run.err.isEmpty, "\(line)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: segment)) == before)
    }
}
