import ArgumentParser
import Episodic
import Foundation

extension Identifier: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

/// Dates as people write them and read them.
enum Dates {
    /// The day part, `2026-11-21`.
    static func day(_ time: Timestamp) -> String { String(time.text.prefix(10)) }
}

/// `srt`, `vtt` or `json`, as the file extensions are written.
extension SubtitleFileFormat: ExpressibleByArgument {}
