import Episodic
import Foundation

/// Instants as people read them: in the local time zone (`$TZ`, else the system's), or in UTC with
/// `--utc`, always with the zone's offset so that a time copied elsewhere stays exact. `--json`
/// writes UTC whatever the zone. Publish dates are days, not instants, and are printed as given.
struct TimeText {
    let zone: TimeZone

    init(utc: Bool) {
        zone = utc ? TimeZone(identifier: "UTC")! : TimeZone.current
    }

    /// `2026-11-25 21:22:51 +01:00`, or `2026-11-25 20:22:51 UTC`.
    func instant(_ time: Timestamp) -> String {
        let local = shifted(time)
        return "\(local.prefix(10)) \(local.dropFirst(11).prefix(8)) \(marker(at: time))"
    }

    /// The local day an instant falls on: `2026-11-25`.
    func day(_ time: Timestamp) -> String { String(shifted(time).prefix(10)) }

    /// A publish date: a day on the calendar, printed as given (`2026-11-21`), in no zone.
    static func calendarDay(_ time: Timestamp) -> String { String(time.text.prefix(10)) }

    /// The zone's offset at `time` (`+01:00`), or `UTC`: a marker for a column of days.
    func marker(at time: Timestamp) -> String {
        let seconds = zone.secondsFromGMT(for: time.date)
        if seconds == 0 && ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Universal", "Zulu"].contains(zone.identifier) { return "UTC" }
        let minutes = abs(seconds) / 60
        return (seconds < 0 ? "-" : "+") + String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }

    /// The instant's text as if UTC were the local zone: the wall clock there.
    private func shifted(_ time: Timestamp) -> String {
        let offset = Int64(zone.secondsFromGMT(for: time.date)) * 1000
        return (Timestamp(rawValue: time.rawValue + offset) ?? time).text
    }
}
