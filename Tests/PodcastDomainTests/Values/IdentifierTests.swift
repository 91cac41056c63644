import CoreValues
import Foundation
import Testing

@testable import PodcastDomain

@Suite("Identifiers")
struct IdentifierTests {
    @Test("ids parse in either case, print in lowercase, and refuse anything else")
    func parsing() {
        let id = PodcastID("0F8E2A10-7B4E-4E1A-8D2C-5A6B7C8D9E0F")
        #expect(id?.description == "0f8e2a10-7b4e-4e1a-8d2c-5a6b7c8d9e0f")
        #expect(PodcastID("0f8e2a10-7b4e-4e1a-8d2c-5a6b7c8d9e0f") == id)
        #expect(id?.streamName == "podcast-0f8e2a10-7b4e-4e1a-8d2c-5a6b7c8d9e0f")
        for bad in ["", "0f8e2a10-7b4e-4e1a-8d2c-5a6b7c8d9e0", "0f8e2a10-7b4e-4e1a-8d2c_5a6b7c8d9e0f",
                    "0f8e2a10-7b4e-4e1a-8d2c-5a6b7c8d9e0g", "0f8e2a107b4e-4e1a-8d2c-5a6b7c8d9e0f0"] {
            #expect(PodcastID(bad) == nil, "\(bad)")
        }
        for neighbour in ["/", ":", "@", "G", "`", "g", " "] {
            #expect(PodcastID("0f8e2a10-7b4e-4e1a-8d2c-5a6b7c8d9e0" + neighbour) == nil, "\(neighbour)")
        }
        let uuid = UUID()
        #expect(EpisodeID(uuid.uuidString)?.rawValue == uuid)
    }

    @Test("ids print as Foundation prints them, in lowercase, sort as that text, and come back from their stream names")
    func printingAndStreamNames() {
        var previous = EpisodeID(UUID())
        for _ in 0..<1_000 {
            let uuid = UUID()
            let id = EpisodeID(uuid)
            #expect(id.description == uuid.uuidString.lowercased())
            #expect((id < previous) == (id.description < previous.description))
            previous = id
            var stream = id.streamName
            stream.withUTF8 { name in
                #expect(EpisodeID(streamName: UnsafeRawBufferPointer(name)) == id)
                #expect(PodcastID(streamName: UnsafeRawBufferPointer(name)) == nil)
            }
        }
    }
}
