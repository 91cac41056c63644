import EventLog
import Foundation
import GRDB

/// What SQLite's and Foundation's errors about a read model mean for Episodic.
public enum ReadModelFailure {
    /// SQLite says the file is not a database, or is malformed (a truncated file, garbage, a damaged
    /// page): the read model is set aside and rebuilt from the log.
    public static func isMalformed(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    /// The error as the log's ``EventLogError/diskFull(operation:path:)`` when it says the disk is full:
    /// SQLite's SQLITE_FULL (and a shared-memory index it could not grow), Foundation's ENOSPC or EDQUOT.
    public static func diskFull(_ error: any Error) -> EventLogError? {
        switch error {
        case let error as EventLogError:
            if case .diskFull = error { return error }
            return nil
        case let error as DatabaseError:
            guard error.resultCode == .SQLITE_FULL || error.extendedResultCode == .SQLITE_IOERR_SHMSIZE else { return nil }
            return .diskFull(operation: "write the read model", path: error.sql.map { "(SQLite, while running \($0))" } ?? "(SQLite)")
        case let error as CocoaError where error.code == .fileWriteOutOfSpace:
            return .diskFull(operation: "write", path: error.filePath ?? "(a file of the library)")
        default:
            let error = error as NSError
            if error.domain == NSPOSIXErrorDomain, error.code == Int(ENOSPC) || error.code == Int(EDQUOT) {
                return .diskFull(operation: "write", path: (error.userInfo[NSFilePathErrorKey] as? String) ?? "(a file of the library)")
            }
            if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying !== error {
                return diskFull(underlying)
            }
            return nil
        }
    }

    /// Whether `error` only says that this process cannot change the read models now (a full disk, a
    /// read-only file, no permission, another process holding the lock too long), so that a reader
    /// answers from what it has instead of failing.
    public static func isRefusalToWrite(_ error: any Error) -> Bool {
        if diskFull(error) != nil { return true }
        switch error {
        case let error as EventLogError:
            switch error {
            case .locked, .libraryNotWritable: return true
            case .io(_, _, let code): return [EACCES, EPERM, EROFS, ENOSPC, EDQUOT].contains(code)
            default: return false
            }
        case let error as DatabaseError:
            return [.SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_IOERR, .SQLITE_BUSY, .SQLITE_AUTH].contains(error.resultCode)
        case let error as CocoaError:
            return [.fileWriteNoPermission, .fileWriteVolumeReadOnly, .fileWriteUnknown].contains(error.code)
        default:
            let error = error as NSError
            return error.domain == NSPOSIXErrorDomain && [EACCES, EPERM, EROFS].contains(Int32(error.code))
        }
    }
}
