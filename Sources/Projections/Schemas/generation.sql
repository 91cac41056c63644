-- A generation's manifest, <library>/read/NNNNNN.sqlite (read.sqlite links to the live one): the file,
-- in the same folder, that holds each projector's tables and its checkpoint. Written once, before the
-- generation is made live, and never changed; a rebuild of one projector writes a new manifest that
-- names its new file and the others' files as they are, so no other projector's rows are copied.
--
-- To query the live read models with sqlite3, attach the files it names under the projectors' names:
--   sqlite3 read.sqlite "SELECT 'ATTACH ''read/' || file || ''' AS \"' || name || '\";' FROM projection_files"
-- prints the statements. (The search projector's transcripts are read from the blob store by a function
-- Episodic registers: sqlite3 can match and rank, but not show transcript text or snippets.)

CREATE TABLE projection_files (
    name TEXT PRIMARY KEY,
    file TEXT NOT NULL
) STRICT;
