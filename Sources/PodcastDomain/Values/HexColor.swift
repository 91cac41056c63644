/// A colour written `#RRGGBB`, kept in uppercase so that equal colours compare equal.
public struct HexColor: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    /// Accepts `#RRGGBB` in either case; nil for anything else.
    public init?(rawValue: String) {
        let utf8 = Array(rawValue.utf8)
        guard utf8.count == 7, utf8[0] == UInt8(ascii: "#"), utf8[1...].allSatisfy(\.isHexDigit) else { return nil }
        self.rawValue = rawValue.uppercased()
    }

    public static let white = HexColor(rawValue: "#FFFFFF")!
    public static let black = HexColor(rawValue: "#000000")!

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let color = HexColor(rawValue: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(text) is not a #RRGGBB colour")
        }
        self = color
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension UInt8 {
    var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
