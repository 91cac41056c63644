import Episodic
import Foundation

/// A progress bar on stderr, redrawn in place. Silent unless stderr is a terminal and `--quiet` was
/// not given, so that scripts and logs never see it.
final class ProgressBar {
    private let label: String
    private let enabled: Bool
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private let started = ContinuousClock.now
    private var drawn = false

    init(_ label: String, quiet: Bool) {
        self.label = label
        self.enabled = !quiet && Terminal.stderrIsTerminal
    }

    /// Events replayed into a read model.
    func update(_ progress: RebuildProgress) {
        let left = progress.secondsLeft.map { String(format: ", %.0f s left", $0.rounded(.up)) } ?? ""
        draw(progress.fraction, "\(progress.done)/\(progress.total) events, \(Int(progress.rate))/s\(left)")
    }

    /// Items of a known count, with their rate and the time left at it.
    func update(done: Int, of total: Int, unit: String) {
        let seconds = (ContinuousClock.now - started).seconds
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let left = rate > 0 ? String(format: ", %.0f s left", (Double(total - done) / rate).rounded(.up)) : ""
        draw(total == 0 ? 1 : Double(done) / Double(total), "\(done)/\(total) \(unit), \(Int(rate))/s\(left)")
    }

    private func draw(_ fraction: Double, _ detail: String) {
        guard enabled else { return }
        let now = ContinuousClock.now
        guard now - lastDraw >= .milliseconds(100) || fraction >= 1 else { return }
        lastDraw = now
        // The bar gives up cells before the rate and the time left are cut, and goes on a narrow
        // terminal; the line never wraps, or it could not be redrawn in place or cleared.
        let width = max(Terminal.errorWidth - 1, 10)
        let percent = "\(Int(fraction * 100))%"
        let cells = min(24, width - label.count - percent.count - detail.count - 3)
        let full = Int((fraction * Double(max(cells, 0))).rounded(.down))
        let bar = cells >= 4 ? " " + String(repeating: "█", count: full) + String(repeating: "░", count: cells - full) : ""
        let line = TerminalText("\(label)\(bar) \(percent) \(detail)").cut(to: width)
        FileHandle.standardError.write(Data("\r\u{1B}[2K\(line)".utf8))
        drawn = true
    }

    /// Clears the bar's line, so what follows starts clean.
    func finish() {
        guard enabled, drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
        drawn = false
    }
}
