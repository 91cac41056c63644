/// A reference to heavy content in the blob store: the sha256 of its uncompressed bytes, and their count.
///
/// Events carry these instead of the content, so lists and flags never read a blob.
/// Encoded in JSON as `{"sha256":"<64 hex digits>","bytes":N}`.
public struct BlobRef: Hashable, Sendable, Codable, CustomStringConvertible {
    /// 64 lowercase hex digits.
    public let sha256: String
    /// The size of the uncompressed content, in bytes.
    public let byteCount: Int

    /// Returns nil unless `sha256` is 64 lowercase hex digits and `byteCount` is not negative.
    public init?(sha256: String, byteCount: Int) {
        var digits = sha256
        guard byteCount >= 0,
            digits.withUTF8({ $0.count == 64 && $0.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) } })
        else { return nil }
        self.sha256 = sha256
        self.byteCount = byteCount
    }

    enum CodingKeys: String, CodingKey {
        case sha256
        case byteCount = "bytes"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let sha = try container.decode(String.self, forKey: .sha256)
        let count = try container.decode(Int.self, forKey: .byteCount)
        guard let ref = BlobRef(sha256: sha, byteCount: count) else {
            throw DecodingError.dataCorruptedError(
                forKey: .sha256, in: container, debugDescription: "not a sha256 of 64 lowercase hex digits")
        }
        self = ref
    }

    /// A short form for people: the first 12 hex digits and the size.
    public var description: String { "\(sha256.prefix(12)) (\(byteCount) bytes)" }
}
