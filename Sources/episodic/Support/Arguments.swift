import ArgumentParser
import CoreValues
import Episodic
import Foundation
import PodcastDomain

extension Identifier: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

extension Timestamp {
    /// The current time: the shell's clock, which commands carry into the domain.
    static var now: Timestamp { Timestamp(Date())! }
}

/// Dates as people write them and read them.
enum Dates {
    /// `2026-11-21` (midnight UTC), or a full ISO 8601 time such as `2026-11-21T18:30:00Z`.
    static func parse(_ text: String) -> Timestamp? { LogBound.time(text) }

    /// The day part, `2026-11-21`.
    static func day(_ time: Timestamp) -> String { String(time.text.prefix(10)) }
}
