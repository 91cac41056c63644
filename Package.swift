// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Episodic",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "EventLog", targets: ["EventLog"]),
        .library(name: "PodcastDomain", targets: ["PodcastDomain"]),
        .library(name: "EventCodec", targets: ["EventCodec"]),
        .library(name: "Projections", targets: ["Projections"]),
        .library(name: "Episodic", targets: ["Episodic"]),
        .executable(name: "episodic", targets: ["EpisodicCLI"]),
        .library(name: "ThumbnailRenderer", targets: ["ThumbnailRenderer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // `swift package generate-documentation` (tools/docs): the DocC catalog in Sources/Episodic/Episodic.docc.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
        // A shared library's log on PostgreSQL: the wire protocol, without an ORM.
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        // liblz4 from the system (Debian: liblz4-dev).
        .systemLibrary(
            name: "CLZ4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"])]
        ),
        // Threads started on another CPU than their creator's, to run beside it (a GNU extension of pthreads),
        // the program's zero data faulted in before the first, which a second thread makes dearer to fault.
        .target(name: "CThreadPlacement"),
        // The value types the log and the domain share: BlobRef (content by sha256) and Timestamp (UTC ms).
        .target(name: "CoreValues"),
        // The append-only log, its stream index and the blob store. Knows nothing of podcasts.
        .target(
            name: "EventLog",
            dependencies: [
                "CLZ4",
                "CThreadPlacement",
                "CoreValues",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // A shared library's log on PostgreSQL: the versioned schema, the append, the store that keeps
        // this machine's copy of the log in step with the server.
        .target(
            name: "PostgresLog",
            dependencies: [
                "CoreValues", "EventLog",
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.copy("Schema")]
        ),
        // The podcast production domain as pure deciders: no I/O, no clock, no randomness.
        .target(name: "PodcastDomain", dependencies: ["CoreValues"]),
        // The log's JSON and the domain's events: the payload encoder and decoder (several times faster
        // than Foundation's), upcasting, and the bridge between log envelopes and domain events.
        .target(name: "EventCodec", dependencies: ["CoreValues", "EventLog", "PodcastDomain"]),
        // SQLite's connection options, which Swift cannot set itself (sqlite3_db_config is variadic).
        .systemLibrary(name: "CSQLiteConfig"),
        // libgd from the system (Debian: libgd-dev), with FreeType for text: its header for the types, the
        // library itself opened with dlopen on first use (see Sources/CGD/include/cgd.h for why).
        .target(name: "CGD", linkerSettings: [.linkedLibrary("dl")]),
        // libjpeg-turbo from the system (Debian: libjpeg62-turbo-dev), to decode JPEGs at 1/2, 1/4 or 1/8 of
        // their size: its header for the types, the library opened with dlopen on first use, as libgd is.
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("dl")]),
        // libpng from the system (Debian: libpng-dev), to write PNGs with the row filters chosen: its header
        // for the types, the library opened with dlopen on first use, as libgd is.
        .target(name: "CPNG", linkerSettings: [.linkedLibrary("dl")]),
        // Thumbnails as a pure function of images, settings, text and font: bytes in, bytes out (libgd, libjpeg, libpng).
        .target(
            name: "ThumbnailRenderer",
            dependencies: ["CGD", "CJPEG", "CPNG", "CoreValues", "PodcastDomain", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // Read models in SQLite, built from the log by projectors; a schema change is a replay.
        .target(
            name: "Projections",
            dependencies: [
                "EventCodec",
                "EventLog",
                "PodcastDomain",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, to read the columns of long lists without a `Row` per value.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                "CSQLiteConfig",
            ],
            resources: [.copy("Schemas")]
        ),
        // The library facade: open a library, resolve names, submit commands under the writer lock.
        .target(
            name: "Episodic",
            dependencies: ["EventCodec", "EventLog", "PodcastDomain", "PostgresLog", "Projections", "ThumbnailRenderer"]
        ),
        // `episodic`, the command line: parses, prints, and maps errors to exit codes; the work is the facade's.
        .executableTarget(
            name: "EpisodicCLI",
            dependencies: ["Episodic", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // An app embedding the library: an actor keeps it, and prints each change another process makes.
        // Built with everything else, so that it compiles in CI; EpisodicCLITests runs it.
        .executableTarget(
            name: "follow-changes",
            dependencies: ["Episodic"],
            path: "Examples/FollowChanges"
        ),
        // Prints the figures of the log, the projections, SRT conversion, the CLI's latency and a shared
        // library on PostgreSQL (on a temporary server of its own, started as the tests start theirs).
        .executableTarget(
            name: "episodic-bench",
            dependencies: [
                "EventCodec",
                "EventLog",
                "Episodic",
                "PodcastDomain",
                "PostgresLog",
                "Projections",
                "TestSupport",
                "ThumbnailRenderer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
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
            dependencies: ["EventCodec", "PodcastDomain"],
            path: "Tests/Helpers/domain-event-samples"
        ),
        // What every test target shares: temporary folders, a fixed clock, the repository's fixture files.
        .target(name: "TestSupport", dependencies: ["CoreValues"], path: "Tests/Support/TestSupport"),
        .testTarget(
            name: "EventLogTests",
            dependencies: ["EventLog", "TestSupport", "eventlog-test-writer"]
        ),
        // What the domain and projection tests share: an in-memory shell and random commands.
        .target(name: "DomainTestSupport", dependencies: ["PodcastDomain", "TestSupport"], path: "Tests/Support/DomainTestSupport"),
        // Every event the domain's tests make is also sent through the event codec and back.
        .testTarget(
            name: "PodcastDomainTests",
            dependencies: [
                "PodcastDomain",
                "EventCodec",
                "DomainTestSupport",
                "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Fixtures")]
        ),
        // The payload encoder and decoder against Foundation's, the JSON scanner, upcasting, the bridge.
        .testTarget(
            name: "EventCodecTests",
            dependencies: [
                "EventCodec",
                "EventLog",
                "PodcastDomain",
                "DomainTestSupport",
                "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Fixtures"]
        ),
        // The facade on real libraries: undo and redo of every event type, conflicts, history, verify.
        .testTarget(
            name: "EpisodicTests",
            dependencies: [
                "Episodic", "EventCodec", "EventLog", "PodcastDomain", "PostgresLog", "Projections", "ThumbnailRenderer", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // Runs the built `episodic` binary as a child process against real libraries.
        .testTarget(
            name: "EpisodicCLITests",
            dependencies: ["EpisodicCLI", "follow-changes", "Episodic", "EventLog", "PodcastDomain", "TestSupport"],
            exclude: ["Fixtures"]
        ),
        // Golden images (small PNGs in Fixtures, rewritten by EPISODIC_UPDATE_GOLDENS=1), bad images, digests,
        // and fitted text kept inside the padding for random titles, sizes and canvases.
        .testTarget(
            name: "ThumbnailRendererTests",
            dependencies: [
                "ThumbnailRenderer", "EventLog", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Fixtures"]
        ),
        // The shared log on a real PostgreSQL server, started by the tests themselves (initdb, pg_ctl).
        .testTarget(
            name: "PostgresLogTests",
            dependencies: [
                "PostgresLog", "EventLog", "CoreValues", "TestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "ProjectionsTests",
            dependencies: [
                "Projections",
                "EventCodec",
                "DomainTestSupport",
                "TestSupport",
                "projection-test-rebuilder",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
