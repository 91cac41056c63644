import ArgumentParser
import Episodic

/// What a thumbnail says, as `thumbnail text` takes it: the words as its argument, or one of these flags.
struct ThumbnailTextChoice: ParsableArguments {
    @Flag(help: "Draw the episode's title, following it when it changes.")
    var fromTitle = false

    @Flag(name: .customLong("default"), help: "Draw the default text, EP <number>.")
    var useDefault = false

    /// The choice `words` and the flags make: exactly one of them is given.
    func text(_ words: String?) throws -> ThumbnailText {
        let refusal = ValidationError("Give one of the text, --from-title and --default.")
        guard let text = try Self.choice(words: words, fromTitle: fromTitle, number: useDefault, else: refusal) else { throw refusal }
        return text
    }

    /// The one of `words`, the title or the number that is given, or nil for none; `conflict` when more are.
    static func choice(words: String?, fromTitle: Bool, number: Bool, else conflict: ValidationError) throws -> ThumbnailText? {
        let given = [words.map(ThumbnailText.custom), fromTitle ? .title : nil, number ? .episodeNumber : nil].compactMap { $0 }
        guard given.count <= 1 else { throw conflict }
        return given.first
    }
}
