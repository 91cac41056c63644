-- The sidebar projector, schema version 4: podcast summaries with counts, episode summaries with
-- their derived flags, and the deleted podcasts and episodes, so that an id prefix finds them too. Times are INTEGER milliseconds since 1970-01-01T00:00:00Z (UTC), as
-- `Timestamp.rawValue` holds them: a list reads them without parsing text, and number order is time
-- order. To read one with sqlite3:
--   SELECT strftime('%Y-%m-%dT%H:%M:%fZ', created_at / 1000.0, 'unixepoch') FROM sidebar_episodes;

CREATE TABLE sidebar_podcasts (
    id                       TEXT PRIMARY KEY,
    name                     TEXT NOT NULL,
    description              TEXT,
    created_at               INTEGER NOT NULL,
    episode_count            INTEGER NOT NULL DEFAULT 0,
    missing_transcript_count INTEGER NOT NULL DEFAULT 0,
    missing_thumbnail_count  INTEGER NOT NULL DEFAULT 0,
    artwork_sha256           TEXT,
    artwork_bytes            INTEGER
) STRICT;

-- Podcasts, newest first.
CREATE INDEX sidebar_podcasts_by_created ON sidebar_podcasts (created_at DESC, id);

-- Stored in list order: the table is clustered on (podcast, number), so that a podcast's episode list
-- in the default order is one range of the table, read without a lookup per row. Ids are unique too;
-- a row is found by id through that constraint's index.
CREATE TABLE sidebar_episodes (
    podcast_id         TEXT NOT NULL,
    number             INTEGER NOT NULL,
    id                 TEXT NOT NULL UNIQUE,
    title              TEXT NOT NULL,
    -- The title without case or accents, for search and for the title sort.
    title_folded       TEXT NOT NULL,
    publish_date       INTEGER,
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    has_transcript     INTEGER NOT NULL,
    has_srt            INTEGER NOT NULL,
    srt_outdated       INTEGER NOT NULL,
    has_thumbnail      INTEGER NOT NULL,
    thumbnail_outdated INTEGER NOT NULL,
    PRIMARY KEY (podcast_id, number, id)
) STRICT, WITHOUT ROWID;

-- The other sorts (each index serves both directions); numbers are unique within a podcast, so they
-- break ties.
CREATE INDEX sidebar_episodes_by_title ON sidebar_episodes (podcast_id, title_folded, number);
CREATE INDEX sidebar_episodes_by_date ON sidebar_episodes (podcast_id, publish_date, number);

-- Deleted podcasts and episodes: what a prefix of their id names, and what an ambiguity lists. A row
-- goes when its entity is restored. `podcast_id` and `number` are an episode's; `label` is a podcast's
-- name or an episode's title.
CREATE TABLE sidebar_deleted (
    id         TEXT PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('podcast', 'episode')),
    podcast_id TEXT,
    number     INTEGER,
    label      TEXT NOT NULL
) STRICT;
