/// The POSIX tar format (IEEE 1003.1 ustar, with pax extended headers where a value does not fit), as
/// far as a library backup needs it: regular files and folders, read and written in 512-byte blocks.
///
/// `tar tf` lists what ``TarHeader/blocks()`` writes, and `tar xf` extracts it. ``TarHeader/parse(_:)``
/// reads any ustar, pax or GNU header without trusting it: a bad field is a failure, never a crash.
enum Tar {
    static let blockSize = 512
    /// The largest size the 11 octal digits of a ustar header hold; larger sizes go in a pax header.
    static let largestOctalSize: UInt64 = 0o77_777_777_777

    /// How many bytes of padding follow `size` bytes of data, to the next block.
    static func padding(after size: UInt64) -> Int {
        Int((UInt64(blockSize) - size % UInt64(blockSize)) % UInt64(blockSize))
    }

    /// Two zero blocks: the end of an archive.
    static let endOfArchive = [UInt8](repeating: 0, count: 2 * blockSize)
}

/// One entry's header.
struct TarHeader: Equatable {
    enum Kind: Equatable {
        case file
        case folder
        /// A pax extended header: key=value records that apply to the next entry.
        case extended
        /// Anything else (links, devices, fifos, GNU extensions), by its type flag.
        case other(UInt8)
    }

    var name: String
    var kind: Kind
    /// The data's length in bytes (0 for a folder).
    var size: UInt64
    var mode: UInt32 = 0o644
    /// Seconds since 1970.
    var modified: UInt64 = 0
    var owner = Owner()

    /// Who owns the extracted file: `tar xf` run by root gives it to them, by name first.
    struct Owner: Equatable {
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        var user = ""
        var group = ""
    }

    // MARK: Writing

    /// The blocks that introduce the entry: its ustar header, preceded by a pax header (with its data)
    /// when the name is longer than 100 bytes or the size exceeds ``Tar/largestOctalSize``.
    func blocks() -> [UInt8] {
        var records: [(String, String)] = []
        if name.utf8.count > 100 { records.append(("path", name)) }
        if size > Tar.largestOctalSize { records.append(("size", String(size))) }
        guard !records.isEmpty else { return ustarBlock() }
        let text = records.map(Self.paxRecord).joined()
        var pax = self
        pax.name = "PaxHeaders/" + String(decoding: name.utf8.suffix(80), as: UTF8.self)
        pax.kind = .extended
        pax.size = UInt64(text.utf8.count)
        var plain = self
        plain.name = String(decoding: name.utf8.suffix(100), as: UTF8.self)
        plain.size = min(size, Tar.largestOctalSize)
        return pax.ustarBlock() + Array(text.utf8) + [UInt8](repeating: 0, count: Tar.padding(after: pax.size))
            + plain.ustarBlock()
    }

    /// One pax record, `"<length> <key>=<value>\n"`, where the length counts the whole record.
    private static func paxRecord(_ key: String, _ value: String) -> String {
        let body = " \(key)=\(value)\n"
        var length = body.utf8.count + 1
        while String(length).utf8.count + body.utf8.count != length { length += 1 }
        return String(length) + body
    }

    private func ustarBlock() -> [UInt8] {
        var block = [UInt8](repeating: 0, count: Tar.blockSize)
        func put(_ text: String, at offset: Int, width: Int) {
            for (i, byte) in text.utf8.prefix(width).enumerated() { block[offset + i] = byte }
        }
        func octal(_ value: UInt64, at offset: Int, width: Int) {
            let digits = String(value, radix: 8)
            put(String(repeating: "0", count: max(0, width - 1 - digits.count)) + digits, at: offset, width: width - 1)
        }
        put(name, at: 0, width: 100)
        octal(UInt64(mode), at: 100, width: 8)
        octal(UInt64(owner.uid), at: 108, width: 8)
        octal(UInt64(owner.gid), at: 116, width: 8)
        octal(size, at: 124, width: 12)
        octal(modified, at: 136, width: 12)
        block[156] = typeFlag
        put("ustar", at: 257, width: 6)
        put("00", at: 263, width: 2)
        put(owner.user, at: 265, width: 31)
        put(owner.group, at: 297, width: 31)
        for i in 148..<156 { block[i] = 0x20 }
        let sum = block.reduce(0) { $0 + UInt64($1) }
        octal(sum, at: 148, width: 7)
        block[154] = 0
        return block
    }

    private var typeFlag: UInt8 {
        switch kind {
        case .file: UInt8(ascii: "0")
        case .folder: UInt8(ascii: "5")
        case .extended: UInt8(ascii: "x")
        case .other(let flag): flag
        }
    }

    // MARK: Reading

    enum Parsed: Equatable {
        case header(TarHeader)
        /// A block of zeros: the end of the archive.
        case zeros
    }

    /// Reads one 512-byte header block. Throws the reason it is not one.
    static func parse(_ block: [UInt8]) throws(TarFailure) -> Parsed {
        guard block.count == Tar.blockSize else { throw TarFailure("a header block is cut short") }
        if block.allSatisfy({ $0 == 0 }) { return .zeros }
        guard let stored = octal(block[148..<156]) else { throw TarFailure("its header checksum is not a number") }
        var unsigned: UInt64 = 0
        var signed: Int64 = 0
        for (i, byte) in block.enumerated() {
            let counted = (148..<156).contains(i) ? 0x20 : byte
            unsigned += UInt64(counted)
            signed += Int64(Int8(bitPattern: counted))
        }
        guard stored == unsigned || Int64(stored) == signed else {
            throw TarFailure("its header checksum does not match (the archive is damaged)")
        }
        var name = text(block[0..<100])
        // Only POSIX ustar has a name prefix there (GNU tar keeps times in those bytes).
        if Array(block[257..<263]) == Array("ustar\0".utf8) {
            let prefix = text(block[345..<500])
            if !prefix.isEmpty { name = prefix + "/" + name }
        }
        guard let size = number(block[124..<136]) else { throw TarFailure("the size of \"\(name)\" is not a number") }
        let kind: Kind
        switch block[156] {
        case 0, UInt8(ascii: "0"): kind = name.hasSuffix("/") ? .folder : .file
        case UInt8(ascii: "5"): kind = .folder
        case UInt8(ascii: "x"): kind = .extended
        case let flag: kind = .other(flag)
        }
        return .header(TarHeader(
            name: name, kind: kind, size: size, mode: UInt32(truncatingIfNeeded: octal(block[100..<108]) ?? 0),
            modified: number(block[136..<148]) ?? 0,
            owner: Owner(
                uid: UInt32(truncatingIfNeeded: octal(block[108..<116]) ?? 0), gid: UInt32(truncatingIfNeeded: octal(block[116..<124]) ?? 0),
                user: text(block[265..<297]), group: text(block[297..<329]))))
    }

    /// The records of a pax extended header's data that this reader applies: `path` and `size`.
    static func paxRecords(_ data: [UInt8]) throws(TarFailure) -> (path: String?, size: UInt64?) {
        var path: String?, size: UInt64?
        var at = 0
        while at < data.count {
            guard let space = data[at...].firstIndex(of: 0x20), space - at <= 20,
                let length = Int(String(decoding: data[at..<space], as: UTF8.self)), length > space - at + 1,
                length <= data.count - at, data[at + length - 1] == 0x0A,
                let equals = data[(space + 1)..<(at + length)].firstIndex(of: UInt8(ascii: "="))
            else { throw TarFailure("a pax extended header is malformed") }
            let key = String(decoding: data[(space + 1)..<equals], as: UTF8.self)
            let value = String(decoding: data[(equals + 1)..<(at + length - 1)], as: UTF8.self)
            switch key {
            case "path": path = value
            case "size":
                guard let parsed = UInt64(value), value.utf8.allSatisfy({ (48...57).contains($0) }) else {
                    throw TarFailure("a pax size is not a number")
                }
                size = parsed
            default: break
            }
            at += length
        }
        return (path, size)
    }

    /// A NUL-terminated text field.
    private static func text(_ field: ArraySlice<UInt8>) -> String {
        String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// An octal field: optional leading spaces, digits, then only NULs or spaces. An empty field is 0.
    private static func octal(_ field: ArraySlice<UInt8>) -> UInt64? {
        var value: UInt64 = 0
        var at = field.startIndex
        while at < field.endIndex, field[at] == 0x20 { at += 1 }
        while at < field.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(field[at]) {
            guard value >> 61 == 0 else { return nil }
            value = value << 3 | UInt64(field[at] - UInt8(ascii: "0"))
            at += 1
        }
        return field[at...].allSatisfy { $0 == 0 || $0 == 0x20 } ? value : nil
    }

    /// A numeric field: octal, or GNU base-256 (first byte 0x80) for values octal cannot hold.
    private static func number(_ field: ArraySlice<UInt8>) -> UInt64? {
        guard let first = field.first, first & 0x80 != 0 else { return octal(field) }
        guard first == 0x80 else { return nil }  // 0xFF: a negative number
        var value: UInt64 = 0
        for byte in field.dropFirst() {
            guard value >> 56 == 0 else { return nil }
            value = value << 8 | UInt64(byte)
        }
        return value
    }
}

/// Why bytes are not a tar archive, and where in the file.
struct TarFailure: Error, Equatable {
    let reason: String
    /// The byte offset in the archive (0 until the reader knows it).
    let offset: UInt64

    init(_ reason: String, at offset: UInt64 = 0) {
        self.reason = reason
        self.offset = offset
    }
}
