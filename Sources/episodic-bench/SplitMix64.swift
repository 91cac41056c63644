import Foundation

/// SplitMix64 (Steele, Lea & Flood, 2014): small, fast and seeded, so that every run writes the same
/// log and runs can be compared.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A UUID with version 4's layout, drawn from this generator instead of the system's entropy.
    mutating func uuid() -> UUID {
        var words = (next().bigEndian, next().bigEndian)
        return withUnsafeMutableBytes(of: &words) { bytes in
            bytes[6] = bytes[6] & 0x0F | 0x40
            bytes[8] = bytes[8] & 0x3F | 0x80
            return UUID(uuid: bytes.load(as: uuid_t.self))
        }
    }

    /// 64 lowercase hex digits: the shape of a sha256, for blob references to blobs never stored.
    mutating func sha256Hex() -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for _ in 0..<4 {
            var word = next()
            for _ in 0..<16 {
                text.append(digits[Int(word >> 60)])
                word <<= 4
            }
        }
        return String(decoding: text, as: UTF8.self)
    }
}
