import EventLog
import Foundation

/// What the log must hold for the results commands printed (`--json`): at each result's positions, the
/// events of its command.
enum Acknowledged {
    /// Each result of `results` that committed events but whose positions do not hold its command in
    /// `events`, described.
    static func missing(_ results: [[String: Any]], in events: [RecordedEvent]) -> [String] {
        var missing: [String] = []
        // A command that changed nothing (a retitle to the title it has) commits nothing: no positions.
        for result in results where (result["events"] as? [Any])?.isEmpty != true {
            guard let commandID = result["commandID"] as? String, let positions = result["positions"] as? [String: Int],
                let first = positions["first"], let last = positions["last"]
            else {
                missing.append("an acknowledged result without its command and positions: \(result)")
                continue
            }
            for position in first...last where position > events.count || events[position - 1].commandID.description != commandID {
                missing.append("position \(position) of command \(commandID) is not in the log")
            }
        }
        return missing
    }

    /// The result lines of `output` (`submit --json`) that were printed whole: a kill may cut the last
    /// one short, and a line never printed whole was never acknowledged.
    static func results(in output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }
}
