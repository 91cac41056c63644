import CoreValues
import Episodic
import Foundation
import TestSupport
import Testing

/// Publish dates look ahead: the words people use for a coming day, read against a fixed now in a
/// given zone, each the date the local calendar names, given as a calendar day (midnight UTC).
@Suite("Publish dates in words, looking ahead")
struct PublishDateWordsTests {
    /// Wednesday 2026-11-18, 11:06:40 UTC.
    static let now = TestClock.start

    static func upcoming(_ text: String, _ zone: String = "UTC") -> String? {
        LogBound.upcoming(text, now: now, timeZone: TimeZone(identifier: zone)!)?.text
    }

    @Test("Days ahead are calendar days; a weekday is the coming one, never today; hours count from now")
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

    @Test("The day is the local calendar's, given as a calendar day: tomorrow is already the 20th in India at 20:06 UTC on the 18th")
    func zone() {
        // 2026-11-18T20:06:40Z is 01:36 on the 19th in India (+05:30).
        let evening = Timestamp(rawValue: Self.now.rawValue + 9 * 3_600_000)!
        let zone = TimeZone(identifier: "Asia/Kolkata")!
        #expect(LogBound.upcoming("tomorrow", now: evening, timeZone: zone)?.text == "2026-11-20T00:00:00.000Z")
        #expect(LogBound.upcoming("today", now: evening, timeZone: zone)?.text == "2026-11-19T00:00:00.000Z")
        #expect(LogBound.upcoming("tomorrow", now: evening, timeZone: TimeZone(identifier: "UTC")!)?.text == "2026-11-19T00:00:00.000Z")
    }

    @Test("Words that look back or say nothing clear are refused", arguments: ["yesterday", "2 days ago", "tuesday week", "in two weeks", "next", ""])
    func refused(text: String) {
        #expect(Self.upcoming(text) == nil)
    }
}
