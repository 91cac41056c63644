import Foundation
import Testing

@testable import EventLog

/// Edits made to a segment's frames as someone with the files would make them: the frame written again
/// whole, as a valid LZ4 frame with its checksums, so that only the hash chain and the library's head
/// record can tell.
enum SegmentEdits {
    enum Frame {
        case last
        /// Counted from 0.
        case number(Int)
    }

    /// The offsets of the segment's frames, and where the last ends.
    static func frameOffsets(_ bytes: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var offset = SegmentHeader.size
        while offset < bytes.count, case .complete(let length) = bytes[offset...].withUnsafeBytes(LZ4Frame.measure) {
            offsets.append(offset)
            offset += length
        }
        return offsets + [offset]
    }

    /// Rewrites one frame of `segment` with `old` replaced by `new` in its content.
    static func replace(_ old: [UInt8], with new: [UInt8], inFrame frame: Frame, of segment: String) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: segment)))
        let offsets = frameOffsets(bytes)
        let index: Int
        switch frame {
        case .last: index = offsets.count - 2
        case .number(let n): index = n
        }
        let (start, end) = (offsets[index], offsets[index + 1])
        let content = try bytes[start..<end].withUnsafeBytes { try LZ4Decoder().decode($0) }
        let text = String(decoding: content, as: UTF8.self)
        let patched = text.replacingOccurrences(of: String(decoding: old, as: UTF8.self), with: String(decoding: new, as: UTF8.self))
        #expect(patched != text, "what is to be replaced is in the frame")
        let rewritten = Array(bytes[..<start]) + LZ4Frame.compress(Array(patched.utf8)) + Array(bytes[end...])
        try Data(rewritten).write(to: URL(fileURLWithPath: segment))
    }

    /// Cuts `segment` back to where its last frame begins: the last commit removed at a frame boundary.
    static func removeLastFrame(of segment: String) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: segment)))
        let offsets = frameOffsets(bytes)
        try Data(bytes[..<offsets[offsets.count - 2]]).write(to: URL(fileURLWithPath: segment))
    }
}
