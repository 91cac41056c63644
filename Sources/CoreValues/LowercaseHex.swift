extension Sequence<UInt8> {
    /// Two lowercase hex digits a byte, the way every sha256 in Episodic is written (see ``BlobRef``).
    @inlinable package var lowercaseHex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
