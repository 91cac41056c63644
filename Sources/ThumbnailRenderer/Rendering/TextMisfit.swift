import PodcastDomain

/// Why the text cannot be fitted into the padded area as ``TextFit/shrink`` or ``TextFit/wrap`` asks,
/// measured, and what would make it fit.
public struct TextMisfit: Hashable, Sendable, CustomStringConvertible {
    public enum Problem: Hashable, Sendable {
        /// The text's own line breaks make more lines than ``ThumbnailSettings/mostFittedLines``.
        case lines(count: Int)
        /// A word, which is never broken, needs `width` pixels across (its outline included): more than
        /// the room.
        case word(String, width: Int)
        /// Broken at its spaces, the text needs `needed` lines, and `fitting` fit: at most
        /// ``ThumbnailSettings/mostFittedLines``, fewer when the room is not tall enough for them.
        case wrapped(needed: Int, fitting: Int)
    }

    public enum Remedy: Hashable, Sendable {
        /// Under wrap: a smaller size, up to this whole number of points, fits.
        case smallerSize(Double)
        /// No size fits, so the text must be shorter: about this many characters fit at the smallest
        /// size (nil when its own line breaks, rather than its length, are what does not fit).
        case shorterText(characters: Int?)
        /// No size fits this word: it must be shorter, or split.
        case shorterWord(String)
        /// Not even one line fits at the smallest size: the room must grow.
        case moreRoom
        /// The text must have fewer line breaks.
        case fewerLines
    }

    public let problem: Problem
    public let remedy: Remedy
    /// ``TextFit/shrink`` or ``TextFit/wrap``.
    public let fit: TextFit
    /// Points: the smallest size under shrink, the set size under wrap.
    public let fontSize: Double
    /// The padded area: the canvas less the padding on each side, in pixels.
    public let roomWidth: Int
    public let roomHeight: Int

    public init(problem: Problem, remedy: Remedy, fit: TextFit, fontSize: Double, roomWidth: Int, roomHeight: Int) {
        self.problem = problem
        self.remedy = remedy
        self.fit = fit
        self.fontSize = fontSize
        self.roomWidth = roomWidth
        self.roomHeight = roomHeight
    }

    public var description: String {
        switch remedy {
        case .smallerSize, .fewerLines: "\(trouble) \(cure)"
        default:
            fit == .wrap && fontSize > smallest
                ? "\(trouble) It does not fit at \(Self.points(smallest)) pt either. \(cure)" : "\(trouble) \(cure)"
        }
    }

    private var smallest: Double { ThumbnailSettings.smallestFittedFontSize }

    /// What is wrong, with its measures.
    private var trouble: String {
        let size = Self.points(fontSize)
        switch problem {
        case .lines(let count):
            return "the text has \(count) lines, but at most \(ThumbnailSettings.mostFittedLines) are drawn."
        case let .word(word, width):
            let needs = "the word \"\(word)\" needs \(width) pixels across"
            let measure = fit == .shrink ? "\(needs) at \(size) pt" : "at \(size) pt \(needs)"
            return "\(measure), more than the \(roomWidth) pixels between the paddings."
        case let .wrapped(needed, fitting):
            let lines = needed == 1 ? "1 line" : "\(needed) lines"
            let fit = fitting == 0 ? "none fits" : fitting == 1 ? "1 fits" : "\(fitting) fit"
            let measure = self.fit == .shrink ? "the text needs \(lines) at \(size) pt" : "at \(size) pt the text needs \(lines)"
            return "\(measure), but \(fit) in \(roomWidth) x \(roomHeight) pixels."
        }
    }

    /// What would make it fit.
    private var cure: String {
        switch remedy {
        case .smallerSize(let size):
            "Use a smaller size (up to \(Self.points(size)) pt fits), or --fit shrink."
        case .shorterText(let characters?):
            "Shorten it to about \(characters) characters, or make the padding smaller."
        case .shorterText(nil):
            "Shorten its lines, or make the padding smaller."
        case .shorterWord(let word):
            "Words are not broken: shorten \"\(word)\" or split it with a space, or make the padding smaller."
        case .moreRoom:
            "Make the padding smaller, or the canvas larger."
        case .fewerLines:
            "Join some of them."
        }
    }

    /// A size as people write it: 72, or 72.5.
    private static func points(_ size: Double) -> String {
        size == size.rounded() && abs(size) < 1e6 ? "\(Int(size))" : "\(size)"
    }
}
