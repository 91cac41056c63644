import ArgumentParser

/// Throughput figures of Episodic's storage on this machine's disk: the README's numbers, and a way to
/// catch regressions before users do.
@main
struct EpisodicBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "episodic-bench",
        abstract: "Measures Episodic's storage on this machine.",
        subcommands: [
            LogBenchmark.self, SRTBenchmark.self, ProjectionsBenchmark.self, CLIBenchmark.self, FootprintBenchmark.self, ThumbnailBenchmark.self,
            CodecBenchmark.self, PostgresBenchmark.self, SubmitBenchmark.self, ChangesBenchmark.self,
            RebuildChild.self,
        ])
}
