import ArgumentParser
import EventLog
import Foundation
import PodcastDomain
import ThumbnailRenderer

/// `episodic-bench thumbnail`: the time to render a 1920 x 1080 thumbnail with a background, an overlay
/// and outlined text, then shrink, encode and write it into a blob store on the disk (synced, as the
/// CLI stores each render; a fresh store each round, since the same bytes are stored once); once from a
/// background of the canvas's size (target: under 150 ms) and once from a camera-sized one (4000 x 3000,
/// target: under 200 ms). Then the time of full-size exports. Median and p99 over rounds. Beside render +
/// store, in the same rounds, the codecs' share, which no renderer avoids: decoding the two images as
/// the render decodes them, and encoding the stored image.
struct ThumbnailBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Measures thumbnail rendering at 1920 x 1080: render, stored encoding, and export.")

    @Option(help: "A folder to work in, on the disk under test, which must not exist yet. (default: ./.bench/thumbnail-<pid>; removed at the end)")
    var library: String?

    @Option(help: "Renders timed for each background (one more runs first, untimed).")
    var rounds = 20

    @Option(help: "The larger background's size in pixels, WIDTHxHEIGHT; a 1920 x 1080 one is measured first (the canvas stays 1920 x 1080).")
    var background = "4000x3000"

    @Option(help: "The text drawn.")
    var text = "EP 42"

    @Option(help: "The text's size in points (12 to 200).")
    var fontSize = ThumbnailSettings.defaults.fontSize

    @Flag(help: "Also print the figures as one JSON object, alone on stdout (the readable lines go to stderr).")
    var json = false

    func validate() throws {
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1.") }
        guard backgroundSize != nil else { throw ValidationError("--background takes WIDTHxHEIGHT, such as 3840x2160.") }
    }

    private var backgroundSize: (width: Int, height: Int)? {
        let sides = background.split(separator: "x").compactMap { Int($0) }
        guard sides.count == 2, sides.allSatisfy({ (1...ImageProbe.largestSide).contains($0) }) else { return nil }
        return (sides[0], sides[1])
    }

    /// One background measured: its size, the target for render + store in milliseconds, and the prefix
    /// of its JSON keys.
    private struct Case {
        let width: Int
        let height: Int
        let target: Double
        let key: String
    }

    /// Milliseconds, one value a round.
    private struct Timings {
        var render: [Double] = [], store: [Double] = [], exportPNG: [Double] = [], exportJPEG: [Double] = []
        var decode: [Double] = [], encodeStored: [Double] = []
        var renderAndStore: [Double] { zip(render, store).map { $0 + $1 } }
        var codecs: [Double] { zip(decode, encodeStored).map { $0 + $1 } }
    }

    func run() throws {
        let report = Report(jsonOutput: json)
        guard let size = backgroundSize else { throw BenchFailure("--background: not a size") }
        let folder = try BenchFolder.create(at: library ?? ".bench/thumbnail-\(getpid())")
        defer { folder.remove() }
        report.folder(folder.root, kept: false)
        var settings = ThumbnailSettings.defaults
        settings.placeText(at: .bottomRight)
        settings.fontSize = fontSize
        let font = try ThumbnailFont.defaultBold()
        let cases = [
            Case(width: 1_920, height: 1_080, target: 150, key: ""),
            Case(width: size.width, height: size.height, target: 200, key: "large"),
        ]
        var exports = Timings()
        for (index, measured) in cases.enumerated() {
            let scene = try ThumbnailScene.make(background: (measured.width, measured.height), overlay: (1_920, 1_080), seed: 0x7_4B)
            report.line(
                "inputs", "background \(measured.width) x \(measured.height), \(kilobytes(scene.background)) KB JPEG; "
                    + "overlay 1920 x 1080, \(kilobytes(scene.overlay)) KB PNG; \"\(text)\" at \(fontSize.grouped()) pt, outlined")
            let (timings, stored) = try self.measure(scene, settings, font: font, in: folder.root + "/\(index)")
            let total = timings.renderAndStore
            figure(
                "render + store", total, key: key(measured, "total"), report,
                " (target < \(measured.target.grouped()) ms) -- \(total.median < measured.target ? "met" : "MISSED")")
            let codecs = timings.codecs
            figure(
                "  codecs alone", codecs, key: key(measured, "codecs"), report,
                " (decode both images, encode the stored one: the floor; render + store is "
                    + "\((total.median / codecs.median).grouped(decimals: 2))x it)")
            figure("  render", timings.render, key: key(measured, "render"), report, " (decode both images, compose, draw the text)")
            figure(
                "  store", timings.store, key: key(measured, "store"), report,
                " (shrink to \(stored.width) x \(stored.height), \(stored.format.rawValue.uppercased()) \(kilobytes(stored.bytes)) KB, "
                    + "written into a blob store and synced)")
            report.value(key(measured, "storedBytes"), stored.bytes.count)
            report.value(key(measured, "storedFormat"), stored.format.rawValue)
            if index == 0 { exports = timings }
        }
        figure("export PNG", exports.exportPNG, key: "exportPNG", report, " (full size, 1920 x 1080 background)")
        figure("export JPEG", exports.exportJPEG, key: "exportJPEG", report, " (full size, quality 80)")
        report.finish()
    }

    /// The JSON key of `name` for `measured`: `total` for the first background, `largeTotal` for the other.
    private func key(_ measured: Case, _ name: String) -> String {
        measured.key.isEmpty ? name : measured.key + name.prefix(1).uppercased() + name.dropFirst()
    }

    /// Renders `rounds` + 1 times, timing every step but in the first round; returns the last stored
    /// result. Each round stores into a blob store of its own under `folder`.
    private func measure(
        _ scene: ThumbnailScene, _ settings: ThumbnailSettings, font: ThumbnailFont, in folder: String
    ) throws -> (Timings, StoredThumbnail) {
        var timings = Timings()
        var thumbnail: Thumbnail?, stored: StoredThumbnail?
        for round in 0...rounds {
            let render = try timed {
                thumbnail = try ThumbnailRenderer.render(
                    background: scene.background, overlay: scene.overlay, settings: settings, text: text, font: font)
            }
            guard let thumbnail else { throw BenchFailure("thumbnail: no render ran") }
            let blobs = BlobStore(directory: folder + "/round-\(round)")
            try FileManager.default.createDirectory(atPath: blobs.directory, withIntermediateDirectories: true)
            let store = try timed {
                let small = try thumbnail.stored()
                try blobs.put(small.bytes)
                stored = small
            }
            guard let written = stored, blobs.contains(BlobStore.reference(for: written.bytes)) else {
                throw BenchFailure("thumbnail: the stored thumbnail is not in \(blobs.directory)")
            }
            let decode = try timed {
                try ThumbnailRenderer.decodeOnly(background: scene.background, overlay: scene.overlay, settings: settings)
            }
            let small = try thumbnail.shrunkForStorage()
            let encodeStored = try timed { _ = try small.encodedForStorage() }
            let exportPNG = try timed { _ = try thumbnail.encoded(as: .png) }
            let exportJPEG = try timed { _ = try thumbnail.encoded(as: .jpeg) }
            guard round > 0 else { continue }
            timings.render.append(render * 1_000)
            timings.store.append(store * 1_000)
            timings.exportPNG.append(exportPNG * 1_000)
            timings.exportJPEG.append(exportJPEG * 1_000)
            timings.decode.append(decode * 1_000)
            timings.encodeStored.append(encodeStored * 1_000)
        }
        guard let stored else { throw BenchFailure("thumbnail: nothing stored") }
        return (timings, stored)
    }

    private func figure(_ label: String, _ milliseconds: [Double], key: String, _ report: Report, _ note: String) {
        let median = milliseconds.median, p99 = milliseconds.nearestRank(99)
        report.line(
            label, "median \(median.grouped(decimals: 1)) ms, p99 \(p99.grouped(decimals: 1)) ms over \(rounds) runs\(note)")
        report.value(key + "MedianMilliseconds", median)
        report.value(key + "P99Milliseconds", p99)
    }

    private func kilobytes(_ bytes: [UInt8]) -> String { (Double(bytes.count) / 1_024).grouped() }
}
