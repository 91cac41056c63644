-- The checkpoint of a projector's file (every read/NNNNNN-NAME.sqlite has this table, with one row):
-- the schema version its tables were made with, the last log position its rows include, and the
-- identity of the event at that position (the SHA-256 of its line in the log, as 64 lowercase hex
-- digits; NULL at position 0). A checkpoint moves in the same transaction as the rows it covers, in
-- the same file; projectors' files are committed one by one, so after a crash they may stand at
-- different positions, and each catches up from its own.
--
-- At open, a read model is rebuilt from the log when a checkpoint is beyond the log's head, or when
-- the event at a checkpoint has another identity than the one recorded (the log was restored from an
-- older copy, or replaced); a file whose table has no event_identity column (made by a build before
-- it) is rebuilt too.

CREATE TABLE IF NOT EXISTS projections (
    name           TEXT PRIMARY KEY,
    schema_version INTEGER NOT NULL,
    checkpoint     INTEGER NOT NULL,
    event_identity TEXT
) STRICT;
