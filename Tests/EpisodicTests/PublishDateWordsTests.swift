import CoreValues
import Episodic
import Foundation
import TestSupport
import Testing

/// Publish dates look ahead: the words people use for a coming day, read against a fixed now in a
/// given zone, days starting at local midnight.
@Suite("Publish dates in words, looking ahead")
struct PublishDateWordsTests {
    /// Wednesday 2026-11-18, 11:06:40 UTC.
    static let now = TestClock.start

    static func upcoming(_ text: String, _ zone: String = "UTC") -> String? {
        LogBound.upcoming(text, now: now, timeZone: TimeZone(identifier: zone)!)?.text
    }

    @Test("Days ahead start at midnight; a weekday is the coming one, never today; hours count from now")
    func ahead() {
        #expect(Self.upcoming("today") == "2026-11-18T00:00:00.000Z")
        #expect(Self.upcoming("tomorrow") == "2026-11-19T00:00:00.000Z")
        #expect(Self.upcoming("friday") == "2026-11-20T00:00:00.000Z")
        #expect(Self.upcoming("Next Friday") == "2026-11-20T00:00:00.000Z")
        #expect(Self.upcoming("wednesday") == "2026-11-25T00:00:00.000Z", "today is Wednesday: the next one")
        #expect(Self.upcoming("in 2 weeks") == "2026-12-02T00:00:00.000Z")
        #expect(Self.upcoming("in a day") == "2026-11-19T00:00:00.000Z")
        #expect(Self.upcoming("in 1 month") == "2026-12-18T00:00:00.000Z")
        #expect(Self.upcoming("in 3 hours") == "2026-11-18T14:06:40.000Z")
        #expect(Self.upcoming("2026-12-01") == "2026-12-01T00:00:00.000Z")
    }

    @Test("Midnight is the zone's: tomorrow in India begins at 18:30 UTC today")
    func zone() {
        #expect(Self.upcoming("tomorrow", "Asia/Kolkata") == "2026-11-18T18:30:00.000Z")
    }

    @Test("Words that look back or say nothing clear are refused", arguments: ["yesterday", "2 days ago", "tuesday week", "in two weeks", "next", ""])
    func refused(text: String) {
        #expect(Self.upcoming(text) == nil)
    }
}
