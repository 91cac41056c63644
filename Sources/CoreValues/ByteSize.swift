import Foundation

/// Sizes as people read them, the one way every message and table writes them: `812 B`, `48.2 KB`,
/// `3.1 MB`, `1.2 GB` (powers of 1,000, as disks and networks count).
public enum ByteSize {
    public static func text(_ bytes: some BinaryInteger) -> String {
        let value = Double(bytes)
        switch value {
        case ..<1_000: return "\(bytes) B"
        case ..<1_000_000: return String(format: "%.1f KB", value / 1_000)
        case ..<1_000_000_000: return String(format: "%.1f MB", value / 1_000_000)
        default: return String(format: "%.1f GB", value / 1_000_000_000)
        }
    }
}
