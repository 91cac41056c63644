import CoreValues
@testable import Episodic
import EventLog
import Foundation
import GRDB
import PodcastDomain
import Projections
import Testing
import ThumbnailRenderer

/// One kind per error: what `submit --keep-going` goes on past is exactly what exits 65.
@Suite("Error kinds")
struct ErrorKindTests {
    static let blob = BlobRef(sha256: String(repeating: "ab", count: 32), byteCount: 3)!

    @Test("a batch goes on past refusals only, not past damage, a busy library or a failure")
    func refusals() {
        func goesOn(_ error: any Error) -> Bool { SubmitFailure(index: 0, name: "c", error: error).isRefusal }
        #expect(goesOn(DomainError.transcriptEmpty))
        #expect(goesOn(LibraryError.podcastNotFound("x")))
        #expect(goesOn(ThumbnailError.background(.notAnImage)))
        #expect(!goesOn(LibraryError.blobUnreadable(.blobMissing(Self.blob))))
        #expect(!goesOn(ThumbnailError.outOfMemory(width: 9_000, height: 9_000)))
        #expect(!goesOn(EventLogError.versionConflict(stream: StreamID(rawValue: "podcast-x")!, expected: .noStream, actual: 1)))
        #expect(!goesOn(DatabaseError(resultCode: .SQLITE_CORRUPT)))
    }

    @Test("errors the library does not own are classified by what they mean for the read models")
    func foreign() {
        #expect(ErrorKind(of: DatabaseError(resultCode: .SQLITE_CORRUPT)) == .damaged)
        #expect(ErrorKind(of: DatabaseError(resultCode: .SQLITE_FULL)) == .busy)
        #expect(ErrorKind(of: CocoaError(.fileReadUnknown)) == .failure)
        #expect(ErrorKind(of: SubmitFailure(index: 0, name: "c", error: LibraryError.blobUnreadable(.blobDamaged(Self.blob, reason: "x")))) == .damaged)
    }
}
