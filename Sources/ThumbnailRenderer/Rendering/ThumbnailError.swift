import CoreValues
import PodcastDomain

/// Why a thumbnail cannot be rendered or written. Each message says what is wrong and what to do instead.
public enum ThumbnailError: Error, Hashable, Sendable, CustomStringConvertible {
    case background(ImageError)
    case overlay(ImageError)
    case settings(DomainError)
    case fontUnusable(path: String, reason: String)
    /// FreeType refused the text, with its reason.
    case textNotDrawn(reason: String)
    /// Under ``TextFit/shrink`` or ``TextFit/wrap``, the text cannot fit the padded area.
    case textDoesNotFit(TextMisfit)
    case outOfMemory(width: Int, height: Int)
    case unknownExportExtension(path: String)

    public var description: String {
        switch self {
        case .background(let error):
            "the background image cannot be used: \(error)"
        case .overlay(let error):
            "the overlay image cannot be used: \(error)"
        case .settings(let error):
            "the thumbnail settings cannot be drawn: \(error)"
        case let .fontUnusable(path, reason):
            "the font \(path) cannot be used: \(reason). Use a TrueType (.ttf) or OpenType (.otf) font file."
        case .textNotDrawn(let reason):
            "the text could not be drawn: \(reason). Try another font, or text without unusual characters."
        case .textDoesNotFit(let misfit):
            misfit.description
        case let .outOfMemory(width, height):
            "there is not enough memory for an image of \(width) x \(height) pixels. "
                + "Choose a smaller canvas, or free memory and try again."
        case .unknownExportExtension(let path):
            "\(path) does not end in .png, .jpg or .jpeg, so the export format is unknown. Name the file with one of those, "
                + "or give the format."
        }
    }
}

extension ThumbnailError: ClassifiedError {
    public var kind: ErrorKind {
        switch self {
        case .background, .overlay, .settings, .fontUnusable, .textNotDrawn, .textDoesNotFit: .refused
        case .unknownExportExtension: .usage
        // Not the input's fault: the same command can work with more memory.
        case .outOfMemory: .failure
        }
    }
}
