// swift-tools-version: 6.1
// Fuzz targets for the log and index readers and the payload decoder, built apart from the main package so that its build never
// needs libFuzzer (which each target's `main` hands over to):
//
//   swift build --package-path fuzz -Xswiftc -sanitize=fuzzer
//   fuzz/.build/debug/fuzz-log-reader fuzz/corpus/log-reader -dict=fuzz/log-reader.dict
//
// tools/fuzz runs both for a bounded time; see fuzz/README.md.
import Foundation
import PackageDescription

// The main package, by path: its identity is the name of its folder, whatever the checkout is called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
let eventLog = Target.Dependency.product(name: "EventLog", package: root)
let eventCodec = Target.Dependency.product(name: "EventCodec", package: root)
let podcastDomain = Target.Dependency.product(name: "PodcastDomain", package: root)

let package = Package(
    name: "EpisodicFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        // What both targets share: a scratch library on /dev/shm, inputs split into files, the seeds.
        .target(name: "FuzzSupport", dependencies: [eventLog]),
        // libFuzzer's driver, which each target's `main` calls.
        .target(name: "FuzzDriver"),
        // Segment files (frames, envelope lines), then everything a reader and a writer do with them.
        .executableTarget(name: "fuzz-log-reader", dependencies: ["FuzzSupport", "FuzzDriver", eventLog], path: "Sources/LogReader"),
        // index/streams.sorted and index/streams.tail over a valid log: reads must match the log exactly.
        .executableTarget(name: "fuzz-index-reader", dependencies: ["FuzzSupport", "FuzzDriver", eventLog], path: "Sources/IndexReader"),
        // An event's payload, and a kept fold's state: the payload decoder's JSON, whatever the bytes.
        .executableTarget(
            name: "fuzz-payload-decoder", dependencies: ["FuzzSupport", "FuzzDriver", eventCodec, podcastDomain], path: "Sources/PayloadDecoder"),
    ],
    swiftLanguageModes: [.v6]
)
