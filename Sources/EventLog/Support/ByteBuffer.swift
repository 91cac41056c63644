/// A growable block of raw memory that readers reuse across frames.
///
/// Views handed out (frames, lines, envelopes) point into it and stay valid until it is next written,
/// which is why readers pass views to closures instead of returning them.
final class ByteBuffer {
    private(set) var storage: UnsafeMutableRawBufferPointer

    init(capacity: Int) {
        storage = .allocate(byteCount: max(capacity, 16), alignment: 16)
    }

    deinit { storage.deallocate() }

    var capacity: Int { storage.count }

    /// Makes room for at least `capacity` bytes. The old contents are not kept.
    func reserve(_ capacity: Int) {
        guard capacity > storage.count else { return }
        storage.deallocate()
        storage = .allocate(byteCount: max(capacity, storage.count * 2), alignment: 16)
    }

    /// Makes room for at least `capacity` bytes, keeping the first `keeping` bytes.
    func grow(to capacity: Int, keeping: Int) {
        guard capacity > storage.count else { return }
        let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: max(capacity, storage.count * 2), alignment: 16)
        larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[0..<keeping]))
        storage.deallocate()
        storage = larger
    }

    func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[range]) }
}
