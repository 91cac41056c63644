-- The search projector, schema version 5 (1 indexed a transcript only up to a NUL; 2 kept a second copy
-- of every transcript's text in the index's table; 3 had no index of the headings alone; 4 indexed the
-- headings again beside each transcript, so that a retitle read and tokenized the whole transcript twice):
-- full-text search over each live episode's title, description and transcript text, with SQLite FTS5.
-- It is the one projector that reads blobs (the transcripts); everything else it needs is in the events.
-- A transcript's text stays in the blob store, once: the index holds its words and their positions,
-- never the text.

-- One row per live episode: its document number in search_episodes (found by episode id through this
-- table's key, never by a scan of the FTS table), its light fields as indexed, and which transcript's
-- text is indexed.
CREATE TABLE search_documents (
    id                TEXT PRIMARY KEY,
    -- One more than the highest when the episode is first indexed. FTS5 stores each document's number
    -- as its distance from the one before, for every word: close numbers take a byte or two where a
    -- 63-bit hash of the episode id took eight, a tenth of the index. Numbers are the index's own: a
    -- replay may number documents otherwise, and no result depends on them.
    doc               INTEGER NOT NULL UNIQUE,
    podcast_id        TEXT NOT NULL,
    title             TEXT NOT NULL,
    description       TEXT,
    -- The transcript whose text is indexed, and its length in bytes; NULL when none is (no transcript,
    -- or its blob could not be read: see search_problems).
    transcript_sha256 TEXT,
    transcript_bytes  INTEGER
) STRICT;

-- Each indexed transcript as the index reads it back, for snippets: its text as imported (speaker
-- lines and times included) read from the blob store by search_transcript(sha256, bytes), a function
-- Episodic registers on its connections; NULL when the blob cannot be read. Documents without one
-- have no row here, as they have none in the index.
CREATE VIEW search_transcript_content AS
    SELECT doc, search_transcript(transcript_sha256, transcript_bytes) AS transcript
    FROM search_documents WHERE transcript_sha256 IS NOT NULL;

-- The transcripts' words, over search_transcript_content (FTS5's external content: it keeps no copy of
-- the text). unicode61 with remove_diacritics 2 folds case and accents, in the text and in queries
-- alike, so "CAFE" finds "Café". The rowid is the document number. Rows are written by the projector,
-- never through triggers: FTS5 removes a document's words only when given all of them, so a new
-- transcript reads the old one again; a retitle leaves this index alone.
CREATE VIRTUAL TABLE search_transcripts USING fts5(
    transcript,
    content = 'search_transcript_content',
    content_rowid = 'doc',
    tokenize = 'unicode61 remove_diacritics 2'
);

-- The headings (title and description): a small index, searched first. A word in nearly every
-- transcript ("the", or the "t" of a search being typed) names a doclist as long as the library's
-- speech, which bm25 would walk for every episode; the headings' doclists are a few words per episode
-- (see ReadModel.search). Its content is search_documents' own columns, so the triggers below, FTS5's
-- way for an external content table, keep it: the old words are in the row they remove.
CREATE VIRTUAL TABLE search_headings USING fts5(
    title,
    description,
    content = 'search_documents',
    content_rowid = 'doc',
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER search_headings_insert AFTER INSERT ON search_documents BEGIN
    INSERT INTO search_headings (rowid, title, description) VALUES (new.doc, new.title, new.description);
END;

CREATE TRIGGER search_headings_delete AFTER DELETE ON search_documents BEGIN
    INSERT INTO search_headings (search_headings, rowid, title, description) VALUES ('delete', old.doc, old.title, old.description);
END;

CREATE TRIGGER search_headings_update AFTER UPDATE OF doc, title, description ON search_documents BEGIN
    INSERT INTO search_headings (search_headings, rowid, title, description) VALUES ('delete', old.doc, old.title, old.description);
    INSERT INTO search_headings (rowid, title, description) VALUES (new.doc, new.title, new.description);
END;

-- Each indexed episode as a replay of the log gives it back, without its document number: what it
-- holds, and how many words the indexes hold for each of its columns (FTS5's document sizes). `log
-- verify` compares this with a replay's.
CREATE VIEW search_entries AS
    SELECT d.id, d.podcast_id, d.title, d.description, d.transcript_sha256, d.transcript_bytes,
        h.sz AS heading_sizes, t.sz AS transcript_size
    FROM search_documents d
        LEFT JOIN search_headings_docsize h ON h.id = d.doc
        LEFT JOIN search_transcripts_docsize t ON t.id = d.doc;

-- Podcast names, joined into results. Kept apart from the episodes so that renaming a podcast
-- changes one row, not every episode's index entry.
CREATE TABLE search_podcasts (
    id   TEXT PRIMARY KEY,
    name TEXT NOT NULL
) STRICT;

-- Live episodes whose transcript is in their events but could not be read from the blob store
-- (missing or damaged). They are indexed without transcript text; the next change to the episode, or
-- a rebuild of this projector, tries again. Kept for `verify` and the CLI to report.
CREATE TABLE search_problems (
    id                TEXT PRIMARY KEY,
    transcript_sha256 TEXT NOT NULL,
    message           TEXT NOT NULL
) STRICT;
