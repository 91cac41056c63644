/// Little-endian integers in byte buffers: the on-disk integers of segment headers and the stream index.
extension UnsafeRawBufferPointer {
    @inline(__always)
    func littleEndian<T: FixedWidthInteger>(at offset: Int, as: T.Type = T.self) -> T {
        T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}

extension Array where Element == UInt8 {
    @inline(__always)
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    func littleEndian<T: FixedWidthInteger>(at offset: Int, as type: T.Type = T.self) -> T {
        withUnsafeBytes { $0.littleEndian(at: offset, as: type) }
    }
}

/// FNV-1a, 64 bits: a stable hash for the stream index. (Swift's `Hasher` is seeded per process,
/// so it cannot name anything on disk.)
enum FNV1a {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = offsetBasis) -> UInt64 {
        var hash = seed
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* prime
        }
        return hash
    }

    static func hash(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }
}
