// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Episodic",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "EventLog", targets: ["EventLog"]),
        .library(name: "PodcastDomain", targets: ["PodcastDomain"]),
        .library(name: "Projections", targets: ["Projections"]),
        .executable(name: "episodic-bench", targets: ["episodic-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    ],
    targets: [
        // liblz4 from the system (Debian: liblz4-dev).
        .systemLibrary(
            name: "CLZ4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"])]
        ),
        // The value types the log and the domain share: BlobRef (content by sha256) and Timestamp (UTC ms).
        .target(name: "CoreValues"),
        // The append-only log, its stream index and the blob store. Knows nothing of podcasts.
        .target(
            name: "EventLog",
            dependencies: [
                "CLZ4",
                "CoreValues",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The podcast production domain as pure deciders: no I/O, no clock, no randomness.
        .target(name: "PodcastDomain", dependencies: ["CoreValues"]),
        // Read models in SQLite, built from the log by projectors; a schema change is a replay.
        .target(
            name: "Projections",
            dependencies: [
                "EventLog",
                "PodcastDomain",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, to read the columns of long lists without a `Row` per value.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            resources: [.copy("Schemas")]
        ),
        // The library facade: open a library, submit commands, queries, audit, undo (issue 5 on).
        .target(name: "Episodic", dependencies: ["EventLog", "PodcastDomain", "Projections"]),
        // Prints the log's throughput figures; the README's main job until the CLI lands.
        .executableTarget(
            name: "episodic-bench",
            dependencies: [
                "EventLog",
                "Episodic",
                "PodcastDomain",
                "Projections",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A child process for the crash and concurrency tests: appends and reports what was acknowledged.
        .executableTarget(
            name: "eventlog-test-writer",
            dependencies: ["EventLog"],
            path: "Tests/Helpers/eventlog-test-writer"
        ),
        // A child process for the projection crash test: rebuilds, and gets killed doing it.
        .executableTarget(
            name: "projection-test-rebuilder",
            dependencies: ["Projections"],
            path: "Tests/Helpers/projection-test-rebuilder"
        ),
        // Prints a sample of every domain event type, made by the real deciders, for tools/check-schemas.
        .executableTarget(
            name: "domain-event-samples",
            dependencies: ["PodcastDomain"],
            path: "Tests/Helpers/domain-event-samples"
        ),
        .testTarget(
            name: "EventLogTests",
            dependencies: ["EventLog", "eventlog-test-writer"]
        ),
        // What the domain and projection tests share: an in-memory shell and random commands.
        .target(name: "DomainTestSupport", dependencies: ["PodcastDomain"], path: "Tests/Support/DomainTestSupport"),
        .testTarget(
            name: "PodcastDomainTests",
            dependencies: [
                "PodcastDomain",
                "DomainTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "ProjectionsTests",
            dependencies: [
                "Projections",
                "Episodic",
                "DomainTestSupport",
                "projection-test-rebuilder",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
