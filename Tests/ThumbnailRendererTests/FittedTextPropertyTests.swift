import PodcastDomain
import PropertyBased
import Testing
import ThumbnailRenderer

/// Random titles, sizes, canvases, paddings and positions: fitted text never reaches into the padding.
@Suite("Fitted text under random settings")
struct FittedTextPropertyTests {
    @Test("under shrink and wrap every pixel of text lies inside the padded area, or the render refuses")
    func inkStaysInside() async {
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
            } catch ThumbnailError.textDoesNotFit {
                return  // refused, saying why
            } catch {
                Issue.record("\(error) for \(title.debugDescription) with \(settings)")
                return
            }

            // Then every pixel not of that colour is inside the padding, at a size the fit allows, on at
            // most three lines
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
