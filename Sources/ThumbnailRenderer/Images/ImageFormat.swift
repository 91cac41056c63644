import PodcastDomain

/// The image formats the renderer reads and writes. They are the stored thumbnail's formats, so one type
/// serves both.
public typealias ImageFormat = RenderedThumbnail.Format

extension ImageFormat {
    /// The format an export to `path` is written in, by its extension: `.png`, or `.jpg` / `.jpeg`
    /// (any case).
    public init(exportPath path: String) throws(ThumbnailError) {
        let name = path.split(separator: "/").last ?? ""
        let suffix = name.contains(".") ? String(name.split(separator: ".").last!).lowercased() : ""
        switch suffix {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        default: throw .unknownExportExtension(path: path)
        }
    }

    /// What people call it: `PNG`, `JPEG`.
    public var name: String {
        switch self {
        case .png: "PNG"
        case .jpeg: "JPEG"
        }
    }
}
