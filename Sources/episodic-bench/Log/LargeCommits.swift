import EventLog

/// Durable commits of 1,000 events, as an import or a batch edit makes them.
struct LargeCommits {
    static let eventsPerCommit = 1_000
    static let commitsPerRound = 10

    let log: EventLog
    let rounds: Int

    func run(studio: inout GeneratedCommits, report: Report) throws {
        var rates: [Double] = []
        for _ in 0..<rounds {
            let commits = (0..<Self.commitsPerRound).map { _ in studio.commit(of: Self.eventsPerCommit) }
            let seconds = try timed {
                try log.write { writer in
                    for commit in commits { try writer.append(commit) }
                }
            }
            rates.append(Double(Self.commitsPerRound) / seconds)
        }
        let rate = rates.median, events = rate * Double(Self.eventsPerCommit)
        report.line(
            "1,000-event rounds",
            "\(rounds) x \(Self.commitsPerRound) commits, one lock each: "
                + rates.map { $0.grouped(decimals: 1) }.joined(separator: " ") + " commits/s")
        report.line("1,000-event commits", "\(rate.grouped(decimals: 1)) commits/s (\(events.grouped()) events/s)")
        report.value("thousandEventCommitsPerSecond", rate)
        report.value("thousandEventCommitEventsPerSecond", events)
    }
}
