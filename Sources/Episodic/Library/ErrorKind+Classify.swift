import CoreValues
import Projections

extension ErrorKind {
    /// The kind of any error the library throws: a `ClassifiedError`'s own; for SQLite's and
    /// Foundation's errors about the read models (which are not ours to classify), `busy` when the disk
    /// is full and `damaged` when SQLite finds the file malformed; `failure` for anything else.
    public init(of error: any Error) {
        if let error = error as? any ClassifiedError {
            self = error.kind
        } else if ReadModelFailure.diskFull(error) != nil {
            self = .busy
        } else if ReadModelFailure.isMalformed(error) {
            self = .damaged
        } else {
            self = .failure
        }
    }
}
