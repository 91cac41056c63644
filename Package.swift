// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Episodic",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "EventLog", targets: ["EventLog"]),
        .library(name: "PodcastDomain", targets: ["PodcastDomain"]),
        .executable(name: "episodic-bench", targets: ["episodic-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
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
        // Prints the log's throughput figures; the README's main job until the CLI lands.
        .executableTarget(
            name: "episodic-bench",
            dependencies: [
                "EventLog",
                "PodcastDomain",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A child process for the crash and concurrency tests: appends and reports what was acknowledged.
        .executableTarget(
            name: "eventlog-test-writer",
            dependencies: ["EventLog"],
            path: "Tests/Helpers/eventlog-test-writer"
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
        .testTarget(
            name: "PodcastDomainTests",
            dependencies: [
                "PodcastDomain",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
