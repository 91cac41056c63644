import Episodic
import Foundation

/// A progress bar on stderr, redrawn in place. Silent unless stderr is a terminal and `--quiet` was
/// not given, so that scripts and logs never see it.
final class ProgressBar {
    private let label: String
    private let enabled: Bool
    private var lastDraw = ContinuousClock.now - .seconds(1)
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

    /// Items of a known count.
    func update(done: Int, of total: Int, unit: String) {
        draw(total == 0 ? 1 : Double(done) / Double(total), "\(done)/\(total) \(unit)")
    }

    private func draw(_ fraction: Double, _ detail: String) {
        guard enabled else { return }
        let now = ContinuousClock.now
        guard now - lastDraw >= .milliseconds(100) || fraction >= 1 else { return }
        lastDraw = now
        let cells = 24
        let full = Int((fraction * Double(cells)).rounded(.down))
        let bar = String(repeating: "█", count: full) + String(repeating: "░", count: cells - full)
        FileHandle.standardError.write(Data("\r\u{1B}[2K\(label) \(bar) \(Int(fraction * 100))% \(detail)".utf8))
        drawn = true
    }

    /// Clears the bar's line, so what follows starts clean.
    func finish() {
        guard enabled, drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
        drawn = false
    }
}
