import CoreValues
import EventLog
import PodcastDomain
import ThumbnailRenderer

extension Submission {
    /// Imports the font file `bytes` under `name`. Bytes FreeType cannot draw with are refused here,
    /// before anything is written; the file becomes a blob.
    public static func importFont(_ bytes: [UInt8], name: String) throws(UnusableFont) -> Submission {
        do {
            _ = try ThumbnailFont(bytes: bytes)
        } catch {
            if case .fontUnusable(_, let reason) = error { throw UnusableFont(reason: reason) }
            throw UnusableFont(reason: error.description)
        }
        return Submission(.font(.import(name: name, font: BlobStore.reference(for: bytes))), blobs: [bytes])
    }

    /// Removes the font called `name` (ignoring case); refused while episodes use it, unless `force`.
    public static func removeFont(named name: String, force: Bool = false) -> Submission {
        Submission(.font(.remove(name: name, force: force)))
    }

    /// The name a font file is imported under when none is given: its file name without the extension,
    /// e.g. `DejaVuSans-Bold` for `/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf`.
    public static func fontName(forFile path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }
}

extension Library {
    /// The library's fonts, by name: the fonts stream folded (it is short), without the lock.
    public func fonts() throws -> [ImportedFont] {
        try Workspace(log: store, readModel: try readModel()).fonts().fonts
    }
}

/// A file offered as a font that FreeType cannot draw with.
public struct UnusableFont: Error, Equatable, Sendable, CustomStringConvertible {
    /// FreeType's reason, or the renderer's.
    public var reason: String

    public var description: String {
        "it is not a font that can be drawn with (\(reason)). Import a TrueType (.ttf) or OpenType (.otf) font file."
    }
}

extension UnusableFont: ClassifiedError {
    public var kind: ErrorKind { .refused }
}
