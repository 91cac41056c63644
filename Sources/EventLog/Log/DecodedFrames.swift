import Foundation

/// Frames of sealed segments that stream reads decoded, kept by the log, 16 MiB of content at most: a
/// catch-up folds thousands of entities, each from its stream's events, in no order, and those of
/// entities made or changed together share a frame of 64 KiB. Decoding that frame once, not once per entity, is what keeps
/// the catch-up's cost in its events. Only sealed segments' frames are kept: compaction alone rewrites
/// one, under a new generation, which is part of the key; the segment being appended to can be cut.
final class DecodedFrames: @unchecked Sendable {
    struct Key: Hashable {
        var segment: UInt32
        var generation: UInt32
        var offset: UInt32
    }

    /// The content kept at most, in bytes: 256 frames of compaction's 64 KiB.
    static let capacity = 16 << 20

    private let lock = NSLock()
    private var frames: [Key: [UInt8]] = [:]
    /// The keys in the order they were kept: the oldest goes first.
    private var order: [Key] = []
    private var bytes = 0

    /// Copies the frame's content into `buffer`; its length, or nil when it is not kept.
    func copy(_ key: Key, into buffer: ByteBuffer) -> Int? {
        lock.withLock {
            guard let content = frames[key] else { return nil }
            buffer.reserve(content.count)
            content.withUnsafeBytes { buffer.storage.copyMemory(from: $0) }
            return content.count
        }
    }

    func keep(_ key: Key, _ content: UnsafeRawBufferPointer) {
        lock.withLock {
            guard frames[key] == nil, content.count <= Self.capacity else { return }
            while bytes + content.count > Self.capacity, !order.isEmpty {
                bytes -= frames.removeValue(forKey: order.removeFirst())?.count ?? 0
            }
            frames[key] = Array(content)
            order.append(key)
            bytes += content.count
        }
    }
}
