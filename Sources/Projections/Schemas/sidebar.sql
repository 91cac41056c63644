-- The sidebar projector, schema version 1: podcast summaries with counts, and episode summaries
-- with their derived flags. Times are UTC, ISO 8601 with milliseconds, so text order is time order.

CREATE TABLE sidebar_podcasts (
    id                       TEXT PRIMARY KEY,
    name                     TEXT NOT NULL,
    description              TEXT,
    created_at               TEXT NOT NULL,
    episode_count            INTEGER NOT NULL DEFAULT 0,
    missing_transcript_count INTEGER NOT NULL DEFAULT 0,
    missing_thumbnail_count  INTEGER NOT NULL DEFAULT 0,
    artwork_sha256           TEXT,
    artwork_bytes            INTEGER
) STRICT;

-- Podcasts, newest first.
CREATE INDEX sidebar_podcasts_by_created ON sidebar_podcasts (created_at DESC, id);

CREATE TABLE sidebar_episodes (
    id                 TEXT PRIMARY KEY,
    podcast_id         TEXT NOT NULL,
    title              TEXT NOT NULL,
    -- The title without case or accents, for search and for the title sort.
    title_folded       TEXT NOT NULL,
    number             INTEGER NOT NULL,
    publish_date       TEXT,
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL,
    has_transcript     INTEGER NOT NULL,
    has_srt            INTEGER NOT NULL,
    srt_outdated       INTEGER NOT NULL,
    has_thumbnail      INTEGER NOT NULL,
    thumbnail_outdated INTEGER NOT NULL
) STRICT;

-- The six sorts (each index serves both directions); numbers are unique within a podcast, so they
-- break ties.
CREATE INDEX sidebar_episodes_by_number ON sidebar_episodes (podcast_id, number);
CREATE INDEX sidebar_episodes_by_title ON sidebar_episodes (podcast_id, title_folded, number);
CREATE INDEX sidebar_episodes_by_date ON sidebar_episodes (podcast_id, publish_date, number);
