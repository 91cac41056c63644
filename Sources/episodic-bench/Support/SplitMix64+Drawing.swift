import CoreValues
import Foundation

/// What the generators of benchmark libraries draw besides numbers.
extension SplitMix64 {
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
