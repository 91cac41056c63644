"""Writes BENCHMARKS.md from one run of tools/benchmarks, and the README's headline table.

usage: python3 tools/benchmarks_report.py RESULTS_FOLDER --out FILE [--readme README.md]

RESULTS_FOLDER holds, for each benchmark that ran, NAME.command (how it was run), NAME.json (its
figures, as `episodic-bench NAME --json` prints them) and NAME.txt (its readable lines); peer-*.txt for
the peer comparison; machine.txt for the commit, the date and the machine. Every figure in the report
comes from those files: nothing here is typed in by hand but what each figure covers.
"""
import argparse
import json
import os
import re
import sys

README_START = "<!-- headline figures: written by tools/benchmarks; do not edit by hand -->"
README_END = "<!-- end of headline figures -->"

# What each benchmark covers, in the order the report shows them.
BENCHMARKS = [
    ("log", "The event log on this machine's disk: single-event commits, each fsynced, against write+fsync of "
            "records of the same size to a plain file in alternating rounds; commits of 1,000 events; a log of "
            "events made by the real deciders (500 a commit) read in order, every envelope, payloads not parsed, "
            "against `lz4 -dc` of the same segments; compaction of its sealed segments against `lz4 -9` of the "
            "whole log as one frame."),
    ("srt", "A Zencastr transcript converted to SRT (breaks weighed over each turn, reading times), a single "
            "turn as long, an hour of talk, and the fixtures, each beside reading the transcript into turns "
            "alone in the same rounds: the part any converter pays."),
    ("projections", "Rebuilds of the read models from a generated library, each in a child process: sidebar and "
                    "episode-detail (two of the three read models; search is rebuilt apart, from its own "
                    "library, and all three together are timed by `footprint`), beside a plain read of the "
                    "same log; where a rebuild's time goes; the episode list of a 10,000-episode podcast."),
    ("footprint", "The whole commands on the projections' library: `episodic projections rebuild --all` (all three "
                  "read models, transcripts read from the blobs) and `episodic log verify`, spawn to exit, with "
                  "their peak memory through GNU time; the read models' size against the log's and the blobs'; "
                  "searches."),
    ("cli", "`episodic episode retitle`, spawn to exit, on a small and a large library, beside `episodic --help` "
            "(a process that opens no library) in the same loop; an episode created in the large library's "
            "big podcast; the retitle of an episode with a transcript."),
    ("thumbnail", "A 1920 x 1080 thumbnail with a PNG overlay and outlined text rendered, then stored: shrunk to "
                  "1024 x 576, encoded in the stored format and written into a blob store on the disk, synced "
                  "(a fresh store each round). Once from a background of the canvas's size, once from a camera's. "
                  "Beside it, in the same rounds, the codecs' share: decoding both images as the render does, "
                  "and encoding the stored one."),
    ("codec", "The event codec against Foundation's `JSONEncoder` and `JSONDecoder` on the same payloads made by "
              "the deciders, rounds alternating; before timing, both encoders are checked to write the same bytes "
              "and both decoders to read back the same events."),
    ("submit", "`episodic submit` of scripts like the peer comparison's, one process alone and four at once on "
               "one library, and the cores one process keeps busy (the ceiling on four); then single commands, "
               "one worker and four."),
    ("postgres", "A shared library on a temporary PostgreSQL server of the run's own (fsync on): appends by 1, 4 "
                 "and 16 clients, push, catch-up and clone, and one CLI write against a library of one's own."),
]


def load(folder):
    """Every result file of the run, by name."""
    runs = {}
    for name, _ in BENCHMARKS:
        command = os.path.join(folder, name + ".command")
        if not os.path.exists(command):
            continue
        text = read(os.path.join(folder, name + ".txt"))
        try:
            figures = json.loads(read(os.path.join(folder, name + ".json")) or "null") or {}
        except json.JSONDecodeError:
            figures = {}
        runs[name] = {"command": read(command).strip(), "text": text, "figures": figures}
    return runs


def read(path):
    if not os.path.exists(path):
        return ""
    with open(path, encoding="utf-8") as file:
        return file.read()


def machine(folder):
    facts = {}
    for line in read(os.path.join(folder, "machine.txt")).splitlines():
        key, _, value = line.partition(" ")
        facts[key] = value
    return facts


def grouped(number, decimals=0):
    return f"{number:,.{decimals}f}"


def peer_run(folder, policy):
    """A peer-compare run: its rounds' lines and the medians and ratio of its last line."""
    text = read(os.path.join(folder, f"peer-{policy}.txt"))
    match = re.search(r"median commands/s: episodic ([\d,]+), eventsourcing ([\d,]+); ratio ([\d.]+)", text)
    if not match:
        return None
    ours, theirs, ratio = (float(group.replace(",", "")) for group in match.groups())
    return {"text": text.strip(), "command": read(os.path.join(folder, f"peer-{policy}.command")).strip(),
            "episodic": ours, "peer": theirs, "ratio": ratio}


def peer_syncs(folder):
    counts = {}
    for line in read(os.path.join(folder, "peer-syncs.txt")).splitlines():
        key, _, value = line.partition(" ")
        if value.strip().isdigit():
            counts[key] = int(value)
    return counts


def headline(runs, folder):
    """The rows of the headline table: figure, ratio (and absolute), what it covers. A row whose
    benchmark did not run, or did not print the figure, says so."""
    def figure(name, *keys):
        values = [runs.get(name, {}).get("figures", {}).get(key) for key in keys]
        return None if any(value is None for value in values) else values

    rows = []

    def row(label, values, render, covers):
        rows.append((label, render(*values) if values else "not measured in this run", covers))

    row("Durable commits", figure("log", "commitToRawPercent", "singleEventCommitsPerSecond", "rawFsyncOpsPerSecond"),
        lambda p, c, r: f"{grouped(p, 1)} % of raw write+fsync ({grouped(c)} against {grouped(r)} a second)",
        "single-event commits, each fsynced, against write+fsync of records of their size to a plain file")
    row("Reading the log", figure("log", "scanJSONMegabytesPerSecond", "scanLz4MegabytesPerSecond", "scanEventsPerSecond"),
        lambda ours, lz4, events: f"{grouped(ours / lz4, 2)}x `lz4 -dc` ({grouped(events)} events/s, {grouped(ours)} MB/s of JSON)",
        "every envelope of the log in order, payloads not parsed, against `lz4 -dc` of the same segments")
    row("Compaction", figure("log", "compactionRatio", "lz4OneFrameRatio"),
        lambda ours, lz4: f"{grouped(ours, 2)}x JSON to disk (`lz4 -9` of the whole log as one frame: {grouped(lz4, 2)}x)",
        "sealed segments recompressed into LZ4-HC frames of the log's own format")
    row("Rebuild, two read models", figure("projections", "rebuildEventsPerSecond", "plainScanEventsPerSecond", "events"),
        lambda rate, scan, events: f"{grouped(100 * rate / scan)} % of a plain read of the log ({grouped(rate)} events/s of {grouped(events)})",
        "sidebar and episode-detail only, in a child process: search is not in this figure")
    row("Rebuild, all three", figure("footprint", "rebuildAllEventsPerSecond", "rebuildSeconds", "events"),
        lambda rate, seconds, events: f"{grouped(seconds, 1)} s for {grouped(events)} events ({grouped(rate)} events/s)",
        "`episodic projections rebuild --all`, spawn to exit: sidebar, episode-detail and search")
    row("Verify", figure("footprint", "verifySeconds", "rebuildSeconds"),
        lambda verify, rebuild: f"{grouped(verify / rebuild, 2)}x the rebuild ({grouped(verify, 1)} s)",
        "`episodic log verify` of the same library: chain, checksums, blobs, read models against a replay")
    row("Read models on disk", figure("footprint", "readModelBytes", "logBytes", "blobBytes"),
        lambda models, log, blobs: f"{grouped(models / (log + blobs), 2)}x the compacted log and blobs ({grouped(models / 1e6, 1)} MB)",
        "`read/` and `read.sqlite`, WALs included")
    row("Subtitles", figure("srt", "generatedMedianMilliseconds", "generatedReadingMedianMilliseconds", "generatedKilobytes"),
        lambda ms, reading, kb: f"{grouped(ms / reading, 1)}x reading the transcript alone ({grouped(ms, 1)} ms for {grouped(kb)} KB)",
        "a generated Zencastr transcript converted to SRT")
    row("Thumbnail", figure("thumbnail", "totalMedianMilliseconds", "codecsMedianMilliseconds", "storedBytes"),
        lambda total, codecs, size: f"{grouped(total / codecs, 2)}x the codecs alone ({grouped(total, 1)} ms; stored {grouped(size / 1024)} KB)",
        "render and store (shrink, encode, write the blob, sync) of a 1920 x 1080 thumbnail with an overlay, from a 1920 x 1080 JPEG")
    row("Event codec", figure("codec", "encodeRatio", "decodeRatio"),
        lambda encode, decode: f"encode {grouped(encode, 2)}x, decode {grouped(decode, 2)}x Foundation's",
        "the same payloads, both sides' output checked equal before timing")
    row("A command", figure("cli", "largeOverHelp", "largeP50Milliseconds"),
        lambda ratio, ms: f"{grouped(ratio, 2)}x `episodic --help` ({grouped(ms, 2)} ms p50)",
        "`episodic episode retitle` on the large library, spawn to exit")
    row("Four writers", figure("submit", "togetherOverAlone", "ceilingOverAlone"),
        lambda ratio, ceiling: f"{grouped(ratio, 2)}x one process (ceiling on this machine {grouped(ceiling, 2)}x)",
        "four `episodic submit` at once on one library, against one alone")
    row("Shared log", figure("postgres", "catchUpEventsPerSecond", "cloneSeconds"),
        lambda rate, clone: f"catch-up {grouped(rate)} events/s; clone {grouped(clone, 2)} s",
        "a machine catching up with the server, and a fresh clone, on a local PostgreSQL server")
    syncs = peer_syncs(folder)
    for policy, label, policy_text in [
        ("group", "Against eventsourcing", "Episodic as it runs: `submit` shares one fsync of the log among a group's commits, and syncs each transcript's blob file"),
        ("sync-each", "Against eventsourcing, like for like", "Episodic with `submit --sync-each`: a sync for each command, as the peer"),
    ]:
        run = peer_run(folder, policy)
        counted = ""
        if f"episodic-{policy}" in syncs and "eventsourcing" in syncs:
            counted = (f" ({syncs[f'episodic-{policy}']:,} syncs against the peer's {syncs['eventsourcing']:,} "
                       f"for {syncs.get('commands', 0):,} commands)")
        rows.append((label,
                     f"{grouped(run['ratio'], 2)}x ({grouped(run['episodic'])} against {grouped(run['peer'])} commands/s)" if run
                     else "not measured in this run",
                     policy_text + counted + "; the peer, Python's eventsourcing on SQLite, commits each command and keeps no read model"))
    return rows


def table(rows):
    lines = ["| figure | on this machine | what it covers |", "|---|---|---|"]
    lines += [f"| {label} | {value} | {covers} |" for label, value, covers in rows]
    return "\n".join(lines)


def report(folder, runs, facts):
    mode = facts.get("mode", "full")
    changed = facts.get("changed", "0").strip()
    out = ["# Benchmarks", ""]
    out += ["Written by `tools/benchmarks` from one run; every figure below is what a benchmark printed in it. "
            "To bring it up to date, run `tools/benchmarks` again on a quiet machine: do not edit it by hand.", ""]
    if mode == "quick":
        out += ["**A quick run** (`--quick`: small sizes, few rounds), to check that the benchmarks run: "
                "its figures are not to be quoted.", ""]
    out += [
        f"- commit: `{facts.get('commit', '?')}` ({facts.get('subject', '')})"
        + ("" if changed in ("", "0") else f", with {changed} files changed and not committed"),
        f"- date: {facts.get('date', '?')}",
        f"- machine: {facts.get('cores', '?')} cores ({facts.get('cpu', '?')}), {facts.get('memory', '?')}, "
        f"Linux {facts.get('kernel', '?')}, {facts.get('disk', '?')}; load average {facts.get('load', '?')} at the end",
        f"- build: {facts.get('build', '?')} ({facts.get('swift', '')})",
    ]
    if facts.get("failed", "").strip():
        out.append(f"- **failed**: {facts['failed'].strip()} (their output is in the run's folder)")
    out += ["", "Absolute figures move by a third between machines; the ratios, each measured against its "
            "peer in the same run, are what to compare.", "", "## Headline ratios", "", table(headline(runs, folder)), ""]

    for name, covers in BENCHMARKS:
        out += [f"## `{name}`", "", covers, ""]
        if name not in runs:
            out += ["Not run.", ""]
            continue
        out += [f"`{runs[name]['command']}`", "", "```", runs[name]["text"].rstrip(), "```", ""]

    out += ["## Against a peer", ""]
    out += ["`peer-compare` (beside this repository, in `shared/bench/`) runs the same commands (50 podcasts, a "
            "tenth episode creations, then retitles and, one in five, a transcript import) through "
            "`episodic submit`, one commit per command with the three read models current at the end, and "
            "through Python's `eventsourcing` 9.5.6 on SQLite, which keeps no read model, alternating rounds.", ""]
    syncs = peer_syncs(folder)
    if syncs:
        def count(key):
            return f"{syncs[key]:,}" if key in syncs else "?"
        out += [f"Syncs counted by `strace -f -c` (fsync and fdatasync, every thread) on {count('commands')} "
                f"of those commands: Episodic {count('episodic-group')} as it runs (a group of up to 10,000 "
                f"commits shares one sync of the log and one of each blob folder, and each transcript's blob "
                f"file is synced as it is written), "
                f"{count('episodic-sync-each')} with `--sync-each`; eventsourcing "
                f"{count('eventsourcing')} (a SQLite transaction committed per command).", ""]
    elif os.path.exists(os.path.join(folder, "peer-syncs.missing")):
        out += [read(os.path.join(folder, "peer-syncs.missing")).strip(), ""]
    for policy, title in [("group", "Episodic's own policy: one fsync a group"),
                          ("sync-each", "Like for like: Episodic syncing each command (`submit --sync-each`)")]:
        run = peer_run(folder, policy)
        out += [f"### {title}", ""]
        if run:
            out += [f"`{run['command']}`", "", "```", run["text"], "```", ""]
        elif os.path.exists(os.path.join(folder, "peer.missing")):
            out += [read(os.path.join(folder, "peer.missing")).strip() + ".", ""]
        else:
            out += ["Not run, or it printed no medians.", ""]
    return "\n".join(out).rstrip() + "\n"


def update_readme(path, rows, facts):
    text = read(path)
    start, end = text.find(README_START), text.find(README_END)
    if start < 0 or end < start:
        sys.exit(f"{path} has no headline table between {README_START!r} and {README_END!r}")
    body = (f"{README_START}\n\nFrom the run of {facts.get('date', '?')} on {facts.get('cores', '?')} cores, "
            f"commit `{facts.get('commit', '?')[:8]}`; [BENCHMARKS.md](BENCHMARKS.md) has every figure and "
            f"how each was taken.\n\n{table(rows)}\n\n")
    with open(path, "w", encoding="utf-8") as file:
        file.write(text[:start] + body + text[end:])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("results")
    parser.add_argument("--out", required=True)
    parser.add_argument("--readme")
    arguments = parser.parse_args()
    runs, facts = load(arguments.results), machine(arguments.results)
    os.makedirs(os.path.dirname(arguments.out) or ".", exist_ok=True)
    with open(arguments.out, "w", encoding="utf-8") as file:
        file.write(report(arguments.results, runs, facts))
    if arguments.readme:
        update_readme(arguments.readme, headline(runs, arguments.results), facts)


if __name__ == "__main__":
    main()
