import ArgumentParser
import Foundation

/// Reading the files a user names, and writing the ones they ask for.
enum Files {
    /// The bytes of `path`, or of standard input for `-`, refused once they pass `limit`: a file's size
    /// is checked before anything is read, and a pipe is read up to the limit and then refused, so that
    /// no input costs more memory than its limit, whatever its length.
    static func read(_ path: String, limit: Int? = nil) throws -> [UInt8] {
        guard path != "-" else { return try read(STDIN_FILENO, path: "standard input", limit: limit) }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw InputError(path: path, reason: "no such file. Check the path.", isMissing: true)
        }
        guard !isFolder.boolValue else { throw InputError(path: path, reason: "it is a folder. Name a file.") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputError(path: path, reason: "it cannot be read. Check its permissions.") }
        defer { close(descriptor) }
        return try read(descriptor, path: path, limit: limit)
    }

    /// What is left to read of `descriptor`, within `limit`.
    private static func read(_ descriptor: Int32, path: String, limit: Int?) throws -> [UInt8] {
        var status = stat()
        var expected = 0
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
            // A file, or one given on standard input (`< file`), from where its reading stands.
            let offset = lseek(descriptor, 0, SEEK_CUR)
            expected = max(0, Int(status.st_size) - Int(max(offset, 0)))
            if let limit, expected > limit { throw tooLarge(path, limit: limit, bytes: expected) }
        }
        let most = limit.map { $0 + 1 } ?? Int.max
        var bytes: [UInt8] = []
        // A file's length and one byte more, to see its end without growing the buffer.
        bytes.reserveCapacity(min(expected + 1, most))
        let chunk = 1 << 16
        while bytes.count < most {
            let room = bytes.capacity > bytes.count ? bytes.capacity - bytes.count : chunk
            let wanted = min(chunk, most - bytes.count, room)
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: wanted))
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + start, wanted) }
            if count < 0 {
                bytes.removeLast(wanted)
                if errno == EINTR { continue }
                throw InputError(path: path, reason: "it cannot be read (\(String(cString: strerror(errno)))).")
            }
            bytes.removeLast(wanted - count)
            if count == 0 { break }
        }
        if let limit, bytes.count > limit { throw tooLarge(path, limit: limit, bytes: nil) }
        return bytes
    }

    /// The refusal of an input above `limit`: its length when known, else that it passed the limit.
    private static func tooLarge(_ path: String, limit: Int, bytes: Int?) -> InputError {
        let most = limit % (1 << 20) == 0 ? "\(limit >> 20) MB (\(limit) bytes)" : "\(limit) bytes"
        let size = bytes.map { "it is \(Amount.bytes(UInt64($0))), more" } ?? "it holds more"
        return InputError(path: path, reason: "\(size) than the \(most) this input may hold. Split it or trim it.")
    }

    /// Writes the text `bytes` as ``write(_:to:)`` does, but to a terminal escaped as every message is
    /// (``TerminalText``), so that a control or bidirectional character in it is shown, never obeyed.
    static func write(text bytes: [UInt8], to path: String?) throws {
        guard path ?? "-" == "-", Terminal.stdoutIsTerminal else { return try write(bytes, to: path) }
        FileHandle.standardOutput.write(Data(TerminalText(String(decoding: bytes, as: UTF8.self), keepingLineBreaks: true).description.utf8))
    }

    /// Writes `bytes` to `path` whole or not at all (a temporary file renamed into place), or to
    /// standard output when `path` is nil or `-`, which must not be a terminal: bytes that are not
    /// text could drive it.
    static func write(_ bytes: [UInt8], to path: String?) throws {
        guard let path, path != "-" else {
            guard !Terminal.stdoutIsTerminal else {
                throw ValidationError("standard output is a terminal, which would take these bytes for commands. "
                    + "Name a file, or redirect the output (> file).")
            }
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw InputError(path: path, reason: "it cannot be written (\(error.localizedDescription)). Check the folder and its permissions.")
        }
    }
}

/// The `<file> | --clear` choice of the image commands.
enum ImageArguments {
    static func validate(file: String?, clear: Bool) throws {
        if (file == nil) == !clear { throw ValidationError("Give an image file, or --clear to remove the image.") }
    }
}
