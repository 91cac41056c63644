import Glibc

/// Writes a tar archive into a file or a stream, front to back, through one buffer.
final class TarWriter {
    /// Where the archive's bytes go: a file, written at offsets and synced when finished; or a stream
    /// (a pipe, standard output), written in order, which has nothing to sync.
    enum Output {
        case file(File)
        case stream(Int32, name: String)
    }

    private let output: Output
    private var buffer: [UInt8] = []
    /// Bytes already written out.
    private var written: UInt64 = 0
    private static let bufferSize = 1 << 20

    init(output: Output) {
        self.output = output
        buffer.reserveCapacity(Self.bufferSize)
    }

    /// The archive's length so far, in bytes.
    var size: UInt64 { written + UInt64(buffer.count) }

    /// Adds an entry whose data is `contents` (`header.size` must be its length).
    func add(_ header: TarHeader, contents: [UInt8]) throws(EventLogError) {
        try append(header.blocks())
        try append(contents)
        try append([UInt8](repeating: 0, count: Tar.padding(after: header.size)))
    }

    /// Adds an entry whose data is the first `header.size` bytes of `source`. Returns false, with the
    /// archive unusable, when `source` holds fewer.
    func add(_ header: TarHeader, copying source: File) throws(EventLogError) -> Bool {
        try append(header.blocks())
        var copied: UInt64 = 0
        while copied < header.size {
            let chunk = try source.read(count: Int(min(UInt64(Self.bufferSize), header.size - copied)), at: copied)
            guard !chunk.isEmpty else { return false }
            try append(chunk)
            copied += UInt64(chunk.count)
        }
        try append([UInt8](repeating: 0, count: Tar.padding(after: header.size)))
        return true
    }

    /// Writes the end-of-archive blocks and makes the whole file durable.
    func finish() throws(EventLogError) {
        try append(Tar.endOfArchive)
        try flush()
        if case .file(let file) = output { try file.sync() }
    }

    private func append(_ bytes: [UInt8]) throws(EventLogError) {
        if buffer.count + bytes.count > Self.bufferSize { try flush() }
        if bytes.count >= Self.bufferSize {
            try writeOut(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    private func flush() throws(EventLogError) {
        guard !buffer.isEmpty else { return }
        try writeOut(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeOut(_ bytes: [UInt8]) throws(EventLogError) {
        switch output {
        case .file(let file):
            try file.write(bytes, at: written)
        case let .stream(descriptor, name):
            var done = 0
            while done < bytes.count {
                let n = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + done, $0.count - done) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw .system("write", path: name, errno: errno)
                }
                done += n
            }
        }
        written += UInt64(bytes.count)
    }
}

/// Reads a tar archive's entries in order, by their offsets in the file. Nothing in a header is
/// trusted before it is checked: an entry whose data would run past the end of the file is a failure.
struct TarReader {
    struct Entry {
        /// With any pax `path` and `size` applied.
        var header: TarHeader
        /// Where the entry's header begins, for messages.
        var offset: UInt64
        /// Where its data begins.
        var dataOffset: UInt64
    }

    let file: File
    /// The file's length when the reader began.
    let size: UInt64
    private var offset: UInt64 = 0
    /// How many header blocks have parsed so far: none means the file does not start like a tar archive.
    private(set) var headersRead = 0
    private static let largestPaxHeader: UInt64 = 64 << 10

    init(file: File) throws(EventLogError) {
        self.file = file
        self.size = try file.size()
    }

    /// The next entry, or nil after the end-of-archive blocks. Pax extended headers are applied to the
    /// entry they precede, not returned. Throws ``TarFailure`` for bytes that are not a tar archive,
    /// or an archive cut short.
    mutating func next() throws -> Entry? {
        var extended: (path: String?, size: UInt64?) = (nil, nil)
        while true {
            let start = offset
            guard start + UInt64(Tar.blockSize) <= size else {
                throw TarFailure(start == size
                    ? "the archive ends without its end-of-archive blocks: it was cut short"
                    : "the archive ends inside a header: it was cut short", at: start)
            }
            let parsed: TarHeader.Parsed
            do {
                parsed = try TarHeader.parse(file.read(count: Tar.blockSize, at: start))
            } catch let failure as TarFailure {
                throw TarFailure(failure.reason, at: start)
            }
            headersRead += 1
            guard case .header(var header) = parsed else {
                try checkEnd(after: start)
                return nil
            }
            if let path = extended.path { header.name = path }
            if let size = extended.size { header.size = size }
            let dataOffset = start + UInt64(Tar.blockSize)
            guard header.size <= size, dataOffset + header.size + UInt64(Tar.padding(after: header.size)) <= size else {
                throw TarFailure("the data of \"\(header.name)\" (\(header.size) bytes) runs past the end of the archive: it was cut short", at: start)
            }
            offset = dataOffset + header.size + UInt64(Tar.padding(after: header.size))
            guard header.kind == .extended else {
                return Entry(header: header, offset: start, dataOffset: dataOffset)
            }
            guard header.size <= Self.largestPaxHeader else { throw TarFailure("a pax extended header is too large", at: start) }
            do {
                extended = try TarHeader.paxRecords(file.read(count: Int(header.size), at: dataOffset))
            } catch let failure as TarFailure {
                throw TarFailure(failure.reason, at: start)
            }
        }
    }

    /// After the first zero block: a second one (or the end of the file), then only zeros (the
    /// padding `tar` adds to whole records).
    private func checkEnd(after start: UInt64) throws {
        var at = start + UInt64(Tar.blockSize)
        while at < size {
            let chunk = try file.read(count: Int(min(size - at, 1 << 20)), at: at)
            if let nonZero = chunk.firstIndex(where: { $0 != 0 }) {
                throw TarFailure("bytes follow the end of the archive", at: at + UInt64(nonZero))
            }
            at += UInt64(chunk.count)
            if chunk.isEmpty { break }
        }
    }
}
