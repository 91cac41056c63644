import CoreValues
import Foundation

extension Timestamp {
    /// The current time, to the millisecond: the shell's clock, which commands carry into the domain
    /// (the domain reads no clock).
    public static var now: Timestamp { Timestamp(Date())! }
}
