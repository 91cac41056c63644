/// What a generated library holds: how many events, shows and episodes, and how large its blobs are.
/// Its text is written beside a kept library, so that a later run reuses the library only when it
/// asked for the same one.
struct LibraryPlan: CustomStringConvertible {
    /// At least this many events (the last decision may add one or two more).
    var events: Int
    var podcasts = 50
    /// The podcast whose list is measured: always this many live episodes.
    var bigPodcastEpisodes = 10_000
    /// Episodes of each other podcast.
    var otherEpisodes: ClosedRange<Int> = 60...200
    var transcripts: Int
    var transcriptBytes: ClosedRange<Int>
    /// Images are this many times their usual size.
    var imageScale: Int
    var images: Int
    /// Decisions (commands, or a command and its follow-up) grouped into one commit.
    var decisionsPerCommit: Int
    var seed: UInt64

    /// The library of figures 1 to 4: a million events, 2,000 transcripts of 50 to 100 KB.
    static func main(events: Int, transcripts: Int, decisionsPerCommit: Int) -> LibraryPlan {
        LibraryPlan(
            events: events, transcripts: transcripts, transcriptBytes: 50 * 1_024...100 * 1_024, imageScale: 1,
            images: 40, decisionsPerCommit: decisionsPerCommit, seed: 0x9D_0CA5)
    }

    /// The library of figure 5: the same shows and the same 10,000-episode podcast, transcripts and
    /// images ten times larger, fewer of them, and fewer events (list latency must not depend on either).
    static func tenfold(events: Int, transcripts: Int, decisionsPerCommit: Int) -> LibraryPlan {
        LibraryPlan(
            events: events, transcripts: transcripts, transcriptBytes: 500 * 1_024...1_000 * 1_024, imageScale: 10,
            images: 10, decisionsPerCommit: decisionsPerCommit, seed: 0x9D_0CA5)
    }

    /// The library the search projector is rebuilt from: 2,000 episodes of 10 shows, transcripts as
    /// in the main library. A rebuild of search reads every current transcript once per batch of
    /// 100,000 events, at some 30 MB/s: on the million-event library that is over five minutes.
    static func search(events: Int, transcripts: Int, decisionsPerCommit: Int) -> LibraryPlan {
        LibraryPlan(
            events: events, podcasts: 10, bigPodcastEpisodes: 1_000, otherEpisodes: 50...150, transcripts: transcripts,
            transcriptBytes: 50 * 1_024...100 * 1_024, imageScale: 1, images: 10, decisionsPerCommit: decisionsPerCommit,
            seed: 0x5EA_4C4)
    }

    /// The events the log's own benchmarks append, in commits of any size: the same shows, few and small
    /// transcripts and images (they are stored, but a commit's cost does not depend on them).
    static func log(seed: UInt64) -> LibraryPlan {
        LibraryPlan(
            events: 0, transcripts: 20, transcriptBytes: 5 * 1_024...10 * 1_024, imageScale: 1, images: 4,
            decisionsPerCommit: 1, seed: seed)
    }

    var description: String {
        "plan 2: events \(events), podcasts \(podcasts), big podcast \(bigPodcastEpisodes), "
            + "other episodes \(otherEpisodes), transcripts \(transcripts) of \(transcriptBytes) bytes, "
            + "images x\(imageScale) (\(images)), decisions per commit \(decisionsPerCommit), seed \(seed)"
    }
}
