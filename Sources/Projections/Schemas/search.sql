-- The search projector, schema version 2 (1 indexed a transcript only up to a NUL): full-text search over each live episode's title,
-- description and transcript text, with SQLite FTS5. It is the one projector that reads blobs (the
-- transcripts); everything else it needs is in the events.

-- One row per live episode. unicode61 with remove_diacritics 2 folds case and accents, in the text and
-- in queries alike, so "CAFE" finds "Café". The ids are UNINDEXED: carried for results, never matched.
-- The rowid is the document number that search_documents gives the episode. The transcript is the
-- text as imported (speaker lines and times included); NULL without one, or when its blob could not be
-- read (see search_problems).
CREATE VIRTUAL TABLE search_episodes USING fts5(
    id UNINDEXED,
    podcast_id UNINDEXED,
    title,
    description,
    transcript,
    tokenize = 'unicode61 remove_diacritics 2'
);

-- What the projector keeps beside each indexed episode: its document number in search_episodes (found
-- by episode id through this table's key, never by a scan of the FTS table), and which transcript's
-- text is indexed, so that a change that leaves the transcript alone does not read its blob again.
CREATE TABLE search_documents (
    id                TEXT PRIMARY KEY,
    -- Derived from the episode id (FNV-1a, 63 bits), so a replay gives the same numbers however the
    -- log is cut into batches. On a clash (not expected below billions of episodes) the next free
    -- number is taken; only then may a number, never a search result, differ between replays.
    doc               INTEGER NOT NULL UNIQUE,
    -- The transcript whose text is indexed; NULL when none is.
    transcript_sha256 TEXT
) STRICT;

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
