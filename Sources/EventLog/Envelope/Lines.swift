import Foundation

/// The newline-terminated lines of a frame's content, each with its byte offset.
///
/// A frame always ends with a newline; ``hasUnterminatedTail`` tells when one does not.
struct Lines: Sequence, IteratorProtocol {
    let content: UnsafeRawBufferPointer
    private var start = 0

    init(_ content: UnsafeRawBufferPointer) { self.content = content }

    mutating func next() -> (offset: Int, line: UnsafeRawBufferPointer)? {
        guard start < content.count,
            let found = memchr(content.baseAddress! + start, 0x0A, content.count - start)
        else { return nil }
        let end = content.baseAddress!.distance(to: UnsafeRawPointer(found))
        defer { start = end + 1 }
        return (start, UnsafeRawBufferPointer(rebasing: content[start..<end]))
    }

    /// Whether bytes follow the last newline.
    var hasUnterminatedTail: Bool {
        guard let last = content.last else { return false }
        return last != 0x0A
    }
}
