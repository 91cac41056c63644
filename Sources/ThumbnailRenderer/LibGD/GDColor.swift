import PodcastDomain

/// A libgd true-colour pixel: 7 bits of alpha (0 opaque, 127 transparent), then 8 bits each of red,
/// green and blue.
struct GDColor: Hashable {
    let rawValue: Int32

    static let opaque: Int32 = 0
    static let transparent: Int32 = 127

    init(rawValue: Int32) { self.rawValue = rawValue }

    init(red: Int, green: Int, blue: Int, alpha: Int32 = opaque) {
        rawValue = alpha << 24 | Int32(red) << 16 | Int32(green) << 8 | Int32(blue)
    }

    /// `color`, drawn over what is beneath at `coverage` (0 none ... 127 full).
    init(_ color: HexColor, coverage: Int32) {
        let rgb = Int32(color.rawValue.dropFirst(), radix: 16)!
        rawValue = (GDColor.transparent - coverage) << 24 | rgb
    }

    /// This colour at `coverage` (0 none ... 127 full) instead of its own alpha.
    func covering(_ coverage: Int32) -> GDColor {
        GDColor(rawValue: (GDColor.transparent - coverage) << 24 | rawValue & 0xFF_FFFF)
    }

    var alpha: Int32 { rawValue >> 24 & 0x7F }
    var red: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 16) }
    var green: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 8) }
    var blue: UInt8 { UInt8(truncatingIfNeeded: rawValue) }

    /// How much of the pixel is covered: 0 (transparent) to 127 (opaque).
    var coverage: Int32 { GDColor.transparent - alpha }
}
