import ArgumentParser
import Episodic
import Foundation

extension Identifier: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

/// `srt`, `vtt` or `json`, as the file extensions are written.
extension SubtitleFileFormat: ExpressibleByArgument {}
