import CoreValues
import PodcastDomain
import Testing
import ThumbnailRenderer

/// Text fitted into the padded area: what each fit draws, the size and lines a thumbnail reports, line
/// breaks, alignment, and refusals whose numbers are right.
@Suite("Text fitting")
struct TextFitTests {
    let longTitle = "Night Shift 42: the last train home, and everyone who rides it after midnight"

    @Test("text that fits is drawn the same under every fit, at its size, on one line")
    func fittingTextUnchanged() throws {
        // Given the golden scene's text, which fits
        let drawn = try TextFit.allCases.map { fit in
            var settings = TestImages.settings(.bottomLeft)
            settings.textFit = fit
            return try render(TestImages.text, settings, on: TestImages.background)
        }

        // Then every fit draws the same pixels, and reports the set size and one line
        #expect(Set(try drawn.map { try $0.encoded(as: .png) }).count == 1)
        #expect(drawn.allSatisfy { ($0.fontSize, $0.lineCount) == (24, 1) })
    }

    @Test("a long title: shrink draws it smaller inside the padding; none draws it at its size, cut at the canvas")
    func shrinkAndNone() throws {
        // Given a long title at 48 points
        let shrunk = try render(longTitle, TestImages.fitted(.shrink, size: 48))
        let uncut = try render(longTitle, TestImages.fitted(.none, size: 48))

        // Then shrink makes it smaller, on at most three lines, clear of the padding
        #expect(shrunk.fontSize < 48 && shrunk.fontSize >= ThumbnailSettings.smallestFittedFontSize)
        #expect((2...3).contains(shrunk.lineCount))
        let ink = try #require(Ink(shrunk).bounds)
        #expect(ink.left >= 12 && ink.right < 240 - 12 && ink.top >= 10 && ink.bottom < 135 - 10)

        // And none keeps the size and the one line, which runs off both sides
        #expect((uncut.fontSize, uncut.lineCount) == (48, 1))
        let cut = try #require(Ink(uncut).bounds)
        #expect(cut.left == 0 && cut.right == 239)
    }

    @Test("shrink takes the largest whole size that fits: wrap draws at it, and refuses one point more")
    func largestSize() throws {
        // Given a long title shrunk from 48 points
        let shrunk = try render(longTitle, TestImages.fitted(.shrink, size: 48))

        // When it is wrapped at the size shrink chose, and at one point more
        let wrapped = try render(longTitle, TestImages.fitted(.wrap, size: shrunk.fontSize))

        // Then the first draws the same lines, and the second does not fit
        #expect(wrapped.lineCount == shrunk.lineCount)
        #expect(throws: ThumbnailError.self) { try render(longTitle, TestImages.fitted(.wrap, size: shrunk.fontSize + 1)) }
    }

    @Test("a word wider than the room: shrink draws it smaller on one line, wrap refuses naming it")
    func wideWord() throws {
        // Given one word too wide for the room at 40 points
        let word = "Supercalifragilistic"

        // When it is shrunk, and wrapped
        let shrunk = try render(word, TestImages.fitted(.shrink, size: 40))
        let misfit = try refusal(word, TestImages.fitted(.wrap, size: 40))

        // Then shrink draws it whole on one line, smaller
        #expect(shrunk.lineCount == 1 && shrunk.fontSize < 40)
        // And wrap names the word and its width (as wide as it draws at 40 points, its outline
        // included, give or take FreeType's estimate), and the size shrink found as the largest that fits
        let drawnWidth = try #require(Ink(try render(word, wideCanvas(size: 40))).bounds).width
        guard case .word(let named, let width) = misfit.problem else { Issue.record("\(misfit.problem)"); return }
        #expect(named == word)
        #expect(width > 216 && width >= drawnWidth && width <= drawnWidth + 8, "\(width) for \(drawnWidth) drawn")
        #expect(misfit.remedy == .smallerSize(shrunk.fontSize))
        #expect(misfit.description == "at 40 pt the word \"\(word)\" needs \(width) pixels across, more than the 216 pixels "
            + "between the paddings. Use a smaller size (up to \(Int(shrunk.fontSize)) pt fits), or --fit shrink.")
    }

    @Test("more lines of its own than are drawn is refused under shrink and wrap, and drawn under none")
    func tooManyOwnLines() throws {
        let text = "EP 42\nPilot\nPart one\nPart two"
        for fit in [TextFit.shrink, .wrap] {
            let misfit = try refusal(text, TestImages.fitted(fit, size: 20))
            #expect(misfit.problem == .lines(count: 4))
            #expect(misfit.description == "the text has 4 lines, but at most 3 are drawn. Join some of them.")
        }
        #expect(try render(text, TestImages.fitted(.none, size: 20)).lineCount == 4)
    }

    @Test("too long at the smallest size: the lines it needs and the lines that fit, and a length that fits")
    func tooLongAtSmallest() throws {
        // Given words each too wide to share a line with another at 12 points on the golden canvas, but
        // narrow enough for one (checked: two of them wrap onto two lines)
        let word = "ABCDEFGHIJ"
        var settings = TestImages.settings()
        settings.fontSize = 12
        settings.textFit = .wrap
        #expect(try render("\(word) \(word)", settings, on: TestImages.background).lineCount == 2)

        // When five of them are shrunk
        settings.textFit = .shrink
        let misfit = try refusal(Array(repeating: word, count: 5).joined(separator: " "), settings)

        // Then the text needs five lines at 12 points, three fit in 144 x 78 pixels
        #expect(misfit.problem == .wrapped(needed: 5, fitting: 3))
        #expect((misfit.fontSize, misfit.roomWidth, misfit.roomHeight) == (12, 144, 78))
        #expect(misfit.description.hasPrefix("the text needs 5 lines at 12 pt, but 3 fit in 144 x 78 pixels. "))
        #expect(ThumbnailError.textDoesNotFit(misfit).kind == .refused)
    }

    @Test("the length a refusal suggests fits")
    func suggestedLength() throws {
        // Given a long title that does not fit the golden canvas at 12 points
        var settings = TestImages.settings()
        settings.textFit = .shrink
        let title = Array(repeating: longTitle, count: 3).joined(separator: " ")
        let misfit = try refusal(title, settings)

        // When it is cut to the suggested length, at a space
        guard case .shorterText(let characters?) = misfit.remedy else { Issue.record("\(misfit.remedy)"); return }
        #expect(misfit.description.hasSuffix("Shorten it to about \(characters) characters, or make the padding smaller."))
        let cut = title.prefix(characters).split(separator: " ").dropLast().joined(separator: " ")

        // Then it renders
        #expect(try render(cut, settings, on: TestImages.background).lineCount <= 3)
    }

    @Test("wrap refuses a size too large, telling the largest that fits, which does")
    func wrapTooLarge() throws {
        // Given a long title wrapped at 160 points on full HD
        var settings = ThumbnailSettings.defaults
        settings.textFit = .wrap
        settings.fontSize = 160

        // When it is rendered
        let misfit = try refusal(longTitle, settings, on: TestImages.plain)

        // Then it needs more lines than fit in 1840 x 1000 pixels, and names a smaller size that fits,
        // one point under the smallest that does not
        guard case .wrapped(let needed, let fitting) = misfit.problem, case .smallerSize(let size) = misfit.remedy else {
            Issue.record("\(misfit)")
            return
        }
        #expect(needed > fitting && fitting <= 3)
        #expect(misfit.description == "at 160 pt the text needs \(needed) lines, but \(fitting) fit in 1840 x 1000 pixels. "
            + "Use a smaller size (up to \(Int(size)) pt fits), or --fit shrink.")
        settings.fontSize = size
        #expect(try render(longTitle, settings, on: TestImages.plain).fontSize == size)
        settings.fontSize = size + 1
        #expect(throws: ThumbnailError.self) { try render(longTitle, settings, on: TestImages.plain) }
    }

    @Test("no line fits at the smallest size: the room is too short")
    func noRoom() throws {
        // Given padding that leaves 10 pixels of height
        var settings = TestImages.settings()
        settings.verticalPadding = 40

        // When the text is shrunk
        let misfit = try refusal(TestImages.text, settings)

        // Then not even one line fits
        #expect(misfit.problem == .wrapped(needed: 1, fitting: 0))
        #expect(misfit.description
            == "the text needs 1 line at 12 pt, but none fits in 144 x 10 pixels. Make the padding smaller, or the canvas larger.")
    }

    @Test("line breaks make lines in every fit; \\r\\n and \\r are one break each, blank lines at the ends none")
    func lineBreaks() throws {
        for fit in TextFit.allCases {
            let settings = TestImages.fitted(fit, size: 20)
            let drawn = try ["EP 42\nPilot", "EP 42\r\nPilot", "EP 42\rPilot", "\n EP 42 \nPilot\n\n"].map { text in
                try render(text, settings)
            }
            #expect(Set(try drawn.map { try $0.encoded(as: .png) }).count == 1, "\(fit)")
            #expect(drawn.allSatisfy { $0.lineCount == 2 }, "\(fit)")
            #expect(try render("EP 42 Pilot", settings).lineCount == 1, "\(fit)")
            // A blank line between keeps its room
            let spaced = try render("EP 42\n\nPilot", settings)
            #expect(spaced.lineCount == 3)
            #expect(try #require(Ink(spaced).bounds).height > #require(Ink(drawn[0]).bounds).height)
        }
    }

    @Test("no text, or blank text, draws nothing: no lines, at the set size")
    func blankText() throws {
        for text in ["", "  ", "\n \r\n"] {
            let thumbnail = try render(text, TestImages.fitted(.shrink, size: 30))
            #expect((thumbnail.fontSize, thumbnail.lineCount) == (30, 0))
            #expect(Ink(thumbnail).bounds == nil)
        }
    }

    @Test("lines are 1.2 times the size apart, baseline to baseline")
    func lineSpacing() throws {
        // Given the same line twice, at 30 points, without an outline
        let thumbnail = try render("EP 42\nEP 42", TestImages.fitted(.none, size: 30, outline: false))

        // Then its two copies are 36 pixels apart
        let lines = Ink(thumbnail).bands
        #expect(lines.count == 2)
        #expect(lines[1].top - lines[0].top == 36)
    }

    @Test("lines line up towards the side they are placed at: left edges at the left, right edges at the right")
    func alignment() throws {
        // Given two lines of different widths, without an outline (so that each line is its own band of
        // ink), at positions in each third of the canvas
        let cases: [(x: Double, side: String)] = [(0, "left"), (0.2, "left"), (0.5, "centre"), (0.8, "right"), (1, "right")]
        for (x, side) in cases {
            var settings = TestImages.fitted(.wrap, size: 20, outline: false)
            settings.textPositionX = x

            // When they are drawn
            let lines = Ink(try render("EP 42\nThe last train", settings)).bands

            // Then the side's edges line up within a couple of pixels
            #expect(lines.count == 2)
            guard lines.count == 2 else { continue }
            let (first, second) = (lines[0], lines[1])
            #expect(first.right - first.left < second.right - second.left - 20, "the lines differ in width")
            switch side {
            case "left": #expect(abs(first.left - second.left) <= 2, "at \(x)")
            case "right": #expect(abs(first.right - second.right) <= 2, "at \(x)")
            default: #expect(abs((first.left + first.right) - (second.left + second.right)) <= 4, "at \(x)")
            }
        }
    }

    private func render(
        _ text: String, _ settings: ThumbnailSettings, on background: [UInt8] = TestImages.plain
    ) throws(ThumbnailError) -> Thumbnail {
        try ThumbnailRenderer.render(background: background, overlay: nil, settings: settings, text: text, font: TestImages.font)
    }

    /// The misfit a render of `text` refuses with; records an issue when it renders.
    private func refusal(
        _ text: String, _ settings: ThumbnailSettings, on background: [UInt8] = TestImages.plain
    ) throws(ThumbnailError) -> TextMisfit {
        do {
            _ = try render(text, settings, on: background)
        } catch .textDoesNotFit(let misfit) {
            return misfit
        }
        Issue.record("\"\(text)\" rendered")
        throw ThumbnailError.textNotDrawn(reason: "it rendered")
    }

    /// Wide enough for any word at `size` on one line, drawn as it is.
    private func wideCanvas(size: Double) -> ThumbnailSettings {
        var settings = TestImages.fitted(.none, size: size)
        settings.canvasWidth = 2000
        return settings
    }
}
