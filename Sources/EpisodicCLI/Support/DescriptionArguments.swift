import ArgumentParser

/// The `[text] | --clear` choice of `describe`: text sets, `--clear` removes, neither shows.
enum DescriptionArguments {
    static func validate(text: String?, clear: Bool) throws {
        if text != nil && clear { throw ValidationError("Give a description, or --clear to remove it, not both.") }
    }

    /// The description for people (`–` when there is none), or `{"description"}` under `--json`.
    static func show(_ description: String?, session: Session) {
        if session.options.json { return session.printJSON(["description": description]) }
        Terminal.say(TerminalText(description ?? "–", keepingLineBreaks: true))
    }
}
