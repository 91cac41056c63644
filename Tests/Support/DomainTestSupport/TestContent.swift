import CoreValues
import Foundation
import PodcastDomain

/// Made-up content for tests: fixed UUIDs, and blob references whose hashes come from a seed (the
/// domain never hashes, so they need not be real).
public enum TestContent {
    public static func uuid(_ n: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))!
    }

    public static func blob(_ text: String) -> BlobRef {
        let hex = Array(text.utf8).map { String(format: "%02x", $0) }.joined()
        return BlobRef(sha256: String((hex + String(repeating: "0", count: 64)).prefix(64)), byteCount: text.utf8.count)!
    }

    public static func image(_ name: String, _ width: Int = 1920, _ height: Int = 1080) -> ImageRef {
        ImageRef(blob: blob(name), width: width, height: height)
    }
}
