import Foundation
import Testing
@testable import PodcastDomain

/// Reading a transcript takes time in proportion to its length, whatever it holds: adversarial tags
/// (unclosed, nested, repeated), entities, voices, one endless word or line, a character of a
/// thousand combining marks, thousands of turns at one time, blank lines, text outside cues. Each
/// pattern, in every layout, is converted at a size that takes a measurable time and at sixteen times
/// that size: a linear reader takes about sixteen times as long, a quadratic one 256. The bound,
/// 64 times, lies halfway between the two on a log scale, and the time is the thread's own CPU time,
/// so that other tests running beside these (as under CI) do not count; and a debug build's reading of a normal transcript (breaking its cues weighs every way to cut
/// them) takes about 20 ms a kilobyte, so no case may take more than 50.
@Suite("Subtitle conversion takes time linear in the transcript's length", .serialized)
struct SubtitleLinearTimeTests {
    /// How a layout frames speech: the text before the first words, and a turn of its own for `text`.
    struct Layout: CustomStringConvertible, Sendable {
        var description: String
        var header: String
        var turn: @Sendable (String) -> String
    }

    static let layouts = [
        Layout(description: "SRT", header: "") { "1\n00:00:01,000 --> 00:00:04,000\n\($0)\n\n" },
        Layout(description: "WebVTT", header: "WEBVTT\n\n") { "00:01.000 --> 00:04.000\n\($0)\n\n" },
        Layout(description: "Zencastr", header: "") { "00:01.00\nAna\n\($0)\n\n" },
        Layout(description: "timestamp lines", header: "") { "00:00:01\nAna\n\($0)\n\n" },
        Layout(description: "time ranges", header: "") { "00:00:01 - 00:00:04 \($0)\n" },
    ]

    /// A transcript of about `bytes` bytes in `layout`.
    struct Pattern: CustomStringConvertible, Sendable {
        var description: String
        var make: @Sendable (Layout, Int) -> String
    }

    /// `unit` repeated in one turn's text (one line, unless the unit holds line breaks).
    static func inOneTurn(_ name: String, _ unit: String, closing: String = "") -> Pattern {
        Pattern(description: name) { layout, bytes in
            layout.header + layout.turn(String(repeating: unit, count: max(1, bytes / unit.utf8.count)) + closing)
        }
    }

    /// Turns of `text`, repeated.
    static func manyTurns(_ name: String, _ text: String) -> Pattern {
        Pattern(description: name) { layout, bytes in
            let turn = layout.turn(text)
            return layout.header + String(repeating: turn, count: max(1, bytes / turn.utf8.count))
        }
    }

    static let patterns: [Pattern] = [
        inOneTurn("unclosed tags", "<c.a"),
        inOneTurn("unclosed tags, then one close", "<c.a", closing: ">"),
        inOneTurn("unclosed style overrides", "{\\an8"),
        inOneTurn("nested tags", "<i><b><c.yellow>", closing: "words" + String(repeating: "</c></b></i>", count: 3)),
        inOneTurn("voices", "<v Ana>hi "),
        inOneTurn("entities", "&amp;&lt;&nbsp;"),
        inOneTurn("unfinished entities", "&am"),
        inOneTurn("opening brackets", "<"),
        inOneTurn("timing arrows", "a --> b "),
        inOneTurn("digits and colons", "1:"),
        inOneTurn("words", "so "),
        inOneTurn("one long word", "x"),
        inOneTurn("combining marks", "\u{301}", closing: " a"),
        inOneTurn("tags over lines", "<c.a\n"),
        inOneTurn("blank lines", "\n", closing: "end"),
        inOneTurn("lines without timing", "\n\nstray text", closing: "\n"),
        manyTurns("turns at one time", "Hi."),
        manyTurns("interjections at one time", "<v Bo>Oh."),
    ]

    struct Case: CustomStringConvertible, Sendable {
        var layout: Layout
        var pattern: Pattern
        var description: String { "\(pattern) in \(layout)" }
    }

    static let cases = patterns.flatMap { pattern in layouts.map { Case(layout: $0, pattern: pattern) } }

    /// The fastest of three conversions of `text`, in seconds of this thread's CPU time; a transcript
    /// refused is timed as well.
    static func seconds(_ text: String) -> Double {
        (0..<3).map { _ in
            let start = threadTime()
            _ = try? SubtitleConversion.convert(text)
            return threadTime() - start
        }.min()!
    }

    /// The CPU time this thread has used, in seconds.
    static func threadTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    @Test("sixteen times the text takes at most 64 times as long, and at most 50 ms a kilobyte", arguments: cases)
    func linear(_ example: Case) {
        // Given the pattern at a size that takes at least 20 ms (from 2 KB up to 32 KB)
        var bytes = 2_048
        var small = Self.seconds(example.pattern.make(example.layout, bytes))
        while small < 0.02, bytes < 32_768 {
            bytes *= 2
            small = Self.seconds(example.pattern.make(example.layout, bytes))
        }

        // When sixteen times as much is converted
        let text = example.pattern.make(example.layout, bytes * 16)
        let large = Self.seconds(text)

        // Then it takes about sixteen times as long, not 256
        #expect(large <= 64 * max(small, 0.001), "\(bytes) bytes: \(small) s; \(bytes * 16) bytes: \(large) s")
        #expect(large <= 0.05 * Double(text.utf8.count) / 1_024, "\(text.utf8.count) bytes: \(large) s")
    }
}
