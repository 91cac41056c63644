import EventLog
import Foundation
import Testing

/// The library's messages say what is wrong; the CLI adds what to type next, in text and in `--json`.
@Suite("Advice after an error")
struct AdviceTests {
    @Test("each refusal's message ends with the command that helps")
    func hints() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        try cli.must("episode", "create", "Show", "One")
        try cli.must("episode", "retitle", "Show/1", "Uno")
        try cli.must("episode", "retitle", "Show/1", "Eins")
        let cases: [(arguments: [String], message: String, hint: String)] = [
            (["podcast", "rename", "Nope", "X"], "a unique prefix of its id, or its name.", "`episodic podcast list` shows them."),
            (["episode", "retitle", "Show/9", "X"], "\"Show\" has only episode 1.", "`episodic episode list Show` shows them."),
            (["episode", "retitle", "Shaw/9", "X"], "Did you mean \"Show\"? Name it by its id, a unique prefix of its id, or its name.",
             "`episodic podcast list` shows them."),
            (["episode", "retitle", "zz-nope", "X"], "a unique prefix of its id, or <podcast>/<number>.", "`episodic episode list <podcast>` shows them."),
            (["transcript", "export", "Show/1"], "has no subtitles yet.", "Run `episodic transcript convert` first."),
            (["undo", "00000000-0000-4000-8000-000000000009"], "no command 00000000-0000-4000-8000-000000000009 in the log.",
             "`episodic log` lists commands with their ids."),
        ]
        for (arguments, message, hint) in cases {
            let run = try cli.run(arguments)
            #expect(run.status == 65, "\(arguments)")
            #expect(run.err.contains(message + " " + hint), "\(arguments): \(run.err)")
            let json = try cli.run(arguments + ["--json"])
            let error = try JSONSerialization.jsonObject(with: Data(json.err.utf8)) as? [String: [String: String]]
            #expect(error?["error"]?["message"]?.hasSuffix(message + " " + hint) == true, "\(arguments): \(json.err)")
        }
    }
}
