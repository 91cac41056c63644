import ArgumentParser
import Foundation

/// Reading the files a user names, and writing the ones they ask for.
enum Files {
    /// The bytes of `path`, or of standard input for `-`.
    static func read(_ path: String) throws -> [UInt8] {
        if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw InputError(path: path, reason: "no such file. Check the path.", isMissing: true)
        }
        guard !isFolder.boolValue else { throw InputError(path: path, reason: "it is a folder. Name a file.") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(path: path, reason: "it cannot be read. Check its permissions.")
        }
        return Array(data)
    }

    /// Writes `bytes` to `path` whole or not at all (a temporary file renamed into place), or to
    /// standard output when `path` is nil or `-`.
    static func write(_ bytes: [UInt8], to path: String?) throws {
        guard let path, path != "-" else {
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
