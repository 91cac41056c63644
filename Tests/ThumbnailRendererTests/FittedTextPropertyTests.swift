import Foundation
import PodcastDomain
import PropertyBased
import Testing
import ThumbnailRenderer

/// Random titles, sizes, canvases, paddings and positions: fitted text never reaches into the padding,
/// and a render refuses only text that does not fit.
@Suite("Fitted text under random settings")
struct FittedTextPropertyTests {
    @Test("under shrink and wrap every pixel of text lies inside the padded area, or the render refuses text that does not fit, saying what does not")
    func inkStaysInside() async {
        let tally = Tally()
        await propertyCheck(
            count: 150, input: Gen.int(in: 0...Int(Int32.max)).array(of: 1...10), Gen.int(in: 24...400),
            Gen.int(in: 64...640), Gen.int(in: 64...640), Gen.int(in: 0...Int(Int32.max)).array(of: 6)
        ) { words, halfPoints, width, height, choices in
            // Given a title, a size from 12 to 200 points (under wrap, a quarter as far above 12, or it
            // would seldom fit), a canvas, paddings up to a quarter of its sides, a position, and a fit
            let title = Self.title(words), wrap = choices[3] % 3 == 0, size = Double(halfPoints) / 2
            var settings = ThumbnailSettings(
                fontSize: wrap ? 12 + (size - 12) / 4 : size, horizontalPadding: Double(choices[0] % (width / 2 + 1)) / 2,
                verticalPadding: Double(choices[1] % (height / 2 + 1)) / 2, canvasWidth: width, canvasHeight: height,
                outlineEnabled: choices[2] % 4 != 0, textFit: wrap ? .wrap : .shrink)
            if choices[4] % 2 == 0 {
                settings.placeText(at: TextPosition.allCases[choices[5] % TextPosition.allCases.count])
            } else {
                (settings.textPositionX, settings.textPositionY) = (Double(choices[5] % 101) / 100, Double(choices[4] % 101) / 100)
            }

            // When it is drawn on one colour
            let thumbnail: Thumbnail
            do {
                thumbnail = try ThumbnailRenderer.render(
                    background: TestImages.plain, overlay: nil, settings: settings, text: title, font: TestImages.font)
            } catch ThumbnailError.textDoesNotFit(let misfit) {
                // refused: only where what it says does not fit truly does not
                tally.add(rendered: false)
                Self.expectJustified(misfit, title: title, settings: settings)
                return
            } catch {
                Issue.record("\(error) for \(title.debugDescription) with \(settings)")
                return
            }

            // Then every pixel not of that colour is inside the padding, at a size the fit allows, on at
            // most three lines
            tally.add(rendered: true)
            let ink = Ink(thumbnail)
            let left = Int(settings.horizontalPadding.rounded()), top = Int(settings.verticalPadding.rounded())
            if let box = ink.bounds {
                #expect(
                    box.left >= left && box.right < width - left && box.top >= top && box.bottom < height - top,
                    "ink at \(box) for \(title.debugDescription) with \(settings)")
            }
            #expect((1...ThumbnailSettings.mostFittedLines).contains(thumbnail.lineCount))
            switch settings.textFit {
            case .wrap: #expect(thumbnail.fontSize == settings.fontSize)
            default: #expect((ThumbnailSettings.smallestFittedFontSize...settings.fontSize).contains(thumbnail.fontSize))
            }
        }
        // And many cases are drawn: about two in three of these titles, sizes and canvases fit (91 to 101
        // of 150 in three runs), so fewer than one in three drawn means refusals of text that fits
        #expect(tally.rendered * 3 >= tally.cases, "\(tally.rendered) of \(tally.cases) cases drawn")
    }

    /// Records an issue unless the refusal holds: the text's own lines are too many; the word it names is
    /// in the text and wider than the room when drawn alone; the smaller size it offers fits; and in any
    /// case the text drawn unfitted, a line per line of its own at the size the refusal names, does not
    /// fit the room with pixels to spare. `slack` pixels cover the fitting's estimates and margin.
    static func expectJustified(_ misfit: TextMisfit, title: String, settings: ThumbnailSettings, slack: Int = 6) {
        let context = "\(misfit) for \(title.debugDescription) with \(settings)"
        let ownLines = title.unicodeScalars.filter { $0 == "\n" }.count + 1
        switch misfit.problem {
        case .lines(let count):
            #expect(count == ownLines && count > ThumbnailSettings.mostFittedLines, "\(context)")
            return
        case let .word(word, _):
            let words = title.split(whereSeparator: \.isWhitespace)
            #expect(words.contains { $0 == word }, "\(context)")
            let alone = unfittedInk(word, at: misfit.fontSize, settings: settings, room: (misfit.roomWidth, misfit.roomHeight))
            #expect(alone.map { $0.width + slack > misfit.roomWidth } ?? false, "the word alone inks \(String(describing: alone)): \(context)")
        case .wrapped(let needed, let fitting):
            #expect(needed > fitting && fitting <= ThumbnailSettings.mostFittedLines, "\(context)")
        }
        if case .smallerSize(let size) = misfit.remedy {
            var smaller = settings
            smaller.fontSize = size
            #expect(throws: Never.self, "the smaller size it offers: \(context)") {
                try ThumbnailRenderer.render(background: TestImages.plain, overlay: nil, settings: smaller, text: title, font: TestImages.font)
            }
        }
        let ink = unfittedInk(title, at: misfit.fontSize, settings: settings, room: (misfit.roomWidth, misfit.roomHeight))
        let fitsAnyway = ink.map { $0.width + slack <= misfit.roomWidth && $0.height + slack <= misfit.roomHeight } ?? false
        #expect(ownLines > ThumbnailSettings.mostFittedLines || !fitsAnyway, "unfitted, the text inks \(String(describing: ink)): \(context)")
    }

    /// Where `text` inks, drawn without fitting at `size` (its own line breaks only) in the middle of a
    /// canvas 64 pixels larger than `room` each way; nil when nothing is drawn.
    static func unfittedInk(_ text: some StringProtocol, at size: Double, settings: ThumbnailSettings, room: (width: Int, height: Int)) -> Ink.Box? {
        var unfitted = settings
        (unfitted.textFit, unfitted.fontSize, unfitted.horizontalPadding, unfitted.verticalPadding) = (.none, size, 0, 0)
        (unfitted.canvasWidth, unfitted.canvasHeight) = (room.width + 64, room.height + 64)
        unfitted.placeText(at: .center)
        let drawn = try? ThumbnailRenderer.render(
            background: TestImages.plain, overlay: nil, settings: unfitted, text: String(text), font: TestImages.font)
        return drawn.flatMap { Ink($0).bounds }
    }

    /// How many cases were drawn, of how many.
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private var counts = (cases: 0, rendered: 0)
        func add(rendered: Bool) { lock.withLock { counts = (counts.cases + 1, counts.rendered + (rendered ? 1 : 0)) } }
        var cases: Int { lock.withLock { counts.cases } }
        var rendered: Int { lock.withLock { counts.rendered } }
    }

    /// One word a number: 1 to 12 letters (capitals, descenders and accents among them) picked by its
    /// bits, followed by a space, or now and then a line break ("\n" or "\r\n") or two spaces.
    static func title(_ words: [Int]) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzAWMQgjpqyÉÅÇ0123456789:,!?'&")
        var title = ""
        for (index, number) in words.enumerated() {
            var bits = UInt64(number) &* 0x9E37_79B9_7F4A_7C15
            for _ in 0...(number % 12) {
                title.append(letters[Int(bits % UInt64(letters.count))])
                bits = bits / UInt64(letters.count) &+ 0x2545_F491_4F6C_DD1D &* UInt64(index + 1)
            }
            guard index < words.count - 1 else { break }
            switch number / 12 % 16 {
            case 0: title += "\n"
            case 1: title += "\r\n"
            case 2: title += "  "
            default: title += " "
            }
        }
        return title
    }
}
