import Foundation

extension EventLog {
    /// Copies `bytes`, cut from `segment` at `offset`, to a new file in `quarantine/`, durably (file and
    /// folder fsynced) before anything is cut. Returns its path relative to the library.
    func quarantine(_ bytes: [UInt8], from segment: String, at offset: UInt64) throws(EventLogError) -> String {
        let folder = try quarantineFolder()
        let (file, name) = try newQuarantineFile(in: folder, for: segment, at: offset)
        try file.write(bytes, at: 0)
        try file.sync()
        try folder.sync()
        return "quarantine/" + name
    }

    /// Moves a whole segment file into `quarantine/`, durably on both sides. Returns its new path
    /// relative to the library.
    func quarantine(segmentFile segment: String) throws(EventLogError) -> String {
        let folder = try quarantineFolder()
        let (_, name) = try newQuarantineFile(in: folder, for: segment, at: 0)
        let log = try layout.logFolder()
        try log.rename(segment, to: name, in: folder)
        try folder.sync()
        try log.sync()
        return "quarantine/" + name
    }

    /// `quarantine/`, made (and the library folder synced) the first time something is set aside.
    private func quarantineFolder() throws(EventLogError) -> Folder {
        let root = try Folder.library(path)
        let (folder, created) = try root.subfolder("quarantine", creating: true)
        if created { try root.sync() }
        return folder
    }

    /// A new, empty file `<segment>-<offset>-<ms since 1970>[-n].torn`, never one that exists.
    private func newQuarantineFile(in folder: Folder, for segment: String, at offset: UInt64) throws(EventLogError) -> (File, String) {
        let stem = "\(segment)-\(offset)-\(UInt64(Date().timeIntervalSince1970 * 1000))"
        for attempt in 0..<100 {
            let name = stem + (attempt == 0 ? "" : "-\(attempt)") + ".torn"
            do {
                return (try folder.open(name, flags: O_WRONLY | O_CREAT | O_EXCL), name)
            } catch .io(_, _, EEXIST) {
                continue
            }
        }
        throw .system("create", path: layout.quarantineDirectory + "/" + stem + ".torn", errno: EEXIST)
    }
}
