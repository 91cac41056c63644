import CoreValues
import Crypto
import Foundation

/// A TrueType or OpenType font to draw the text with: a file that libgd opens by its path, known by the
/// sha256 of its bytes.
///
/// The identity is what input digests hash, so a font whose bytes change under the same name or path
/// makes a new digest. For a font imported as a blob it is the blob's reference.
public struct ThumbnailFont: Hashable, Sendable {
    /// The file FreeType reads.
    public let path: String
    /// The sha256 and size of the font's bytes.
    public let identity: BlobRef

    /// DejaVu Sans Bold, from Debian's fonts-dejavu-core: the font when the settings name none.
    public static let defaultBoldPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

    public static func defaultBold() throws(ThumbnailError) -> ThumbnailFont {
        try ThumbnailFont(file: defaultBoldPath)
    }

    /// Reads the file to learn its identity, and checks that FreeType can draw with it.
    public init(file path: String) throws(ThumbnailError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .fontUnusable(path: path, reason: "there is no readable file there")
        }
        try self.init(checking: path, identity: Self.identity(of: data))
    }

    /// A font held as bytes, such as a blob. libgd's FreeType text reads fonts from files only, so the
    /// bytes are written once to `<temporary folder>/episodic-fonts/<sha256>.font` (atomically, and again
    /// only when that file no longer holds them) and drawn from there.
    public init(bytes: [UInt8]) throws(ThumbnailError) {
        let identity = Self.identity(of: bytes)
        try self.init(checking: try FontFiles.path(holding: bytes, named: identity.sha256), identity: identity)
    }

    private init(checking path: String, identity: BlobRef) throws(ThumbnailError) {
        if let reason = TextMask.problem(drawingWith: path) { throw .fontUnusable(path: path, reason: reason) }
        self.path = path
        self.identity = identity
    }

    private static func identity(of bytes: some DataProtocol) -> BlobRef {
        BlobRef(sha256: SHA256.hash(data: bytes).lowercaseHex, byteCount: bytes.count)!
    }
}
