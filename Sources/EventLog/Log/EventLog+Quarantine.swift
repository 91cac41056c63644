import Foundation

extension EventLog {
    /// Copies `bytes`, cut from `segment` at `offset`, to a new file in `quarantine/`, durably (file and
    /// folder fsynced) before anything is cut. Returns its path relative to the library.
    func quarantine(_ bytes: [UInt8], from segment: String, at offset: UInt64) throws(EventLogError) -> String {
        let (file, name) = try newQuarantineFile(for: segment, at: offset)
        try file.write(bytes, at: 0)
        try file.sync()
        try FileSystem.syncDirectory(layout.quarantineDirectory)
        return "quarantine/" + name
    }

    /// Moves a whole segment file into `quarantine/`, durably on both sides. Returns its new path
    /// relative to the library.
    func quarantine(segmentFile path: String, name segment: String) throws(EventLogError) -> String {
        let (_, name) = try newQuarantineFile(for: segment, at: 0)
        try FileSystem.rename(path, to: layout.quarantineDirectory + "/" + name)
        try FileSystem.syncDirectory(layout.quarantineDirectory)
        try FileSystem.syncDirectory(layout.logDirectory)
        return "quarantine/" + name
    }

    /// A new, empty file `quarantine/<segment>-<offset>-<ms since 1970>[-n].torn`, never one that exists.
    private func newQuarantineFile(for segment: String, at offset: UInt64) throws(EventLogError) -> (File, String) {
        if try FileSystem.makeDirectory(layout.quarantineDirectory) { try FileSystem.syncDirectory(layout.root) }
        let stem = "\(segment)-\(offset)-\(UInt64(Date().timeIntervalSince1970 * 1000))"
        for attempt in 0..<100 {
            let name = stem + (attempt == 0 ? "" : "-\(attempt)") + ".torn"
            do {
                return (try File.open(layout.quarantineDirectory + "/" + name, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW), name)
            } catch .io(_, _, EEXIST) {
                continue
            }
        }
        throw .system("create", path: layout.quarantineDirectory + "/" + stem + ".torn", errno: EEXIST)
    }
}
