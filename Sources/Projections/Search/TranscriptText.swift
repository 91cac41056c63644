import CoreValues
import GRDB

/// A transcript's text as the search index holds its words: the blob's bytes as UTF-8, NUL bytes made
/// spaces (SQLite takes text up to its first NUL, and imports read past them). Indexing a document and
/// removing it must both read exactly this text, and snippets are cut from it.
enum TranscriptText {
    static func read(_ ref: BlobRef, from blobs: BlobReader) throws -> String {
        var bytes = try blobs.read(ref)
        for index in bytes.indices where bytes[index] == 0 { bytes[index] = 0x20 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `search_transcript(sha256, bytes)`, through which `search_transcript_content` reads a transcript's text: NULL
    /// when the arguments are not a reference, or its blob cannot be read (a snippet then comes from the
    /// other fields, or is empty).
    static func function(_ blobs: BlobReader) -> DatabaseFunction {
        DatabaseFunction("search_transcript", argumentCount: 2, pure: false) { values in
            guard let sha256 = String.fromDatabaseValue(values[0]), let bytes = Int.fromDatabaseValue(values[1]),
                let ref = BlobRef(sha256: sha256, byteCount: bytes)
            else { return nil }
            return try? read(ref, from: blobs)
        }
    }
}
