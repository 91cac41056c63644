-- The episode-detail projector, schema version 4 (1 had no transcript_warnings; 2's settings had no text fit or
-- overlay placement, its thumbnails no drawn size; 3's thumbnail_text held the words drawn, not the choice):
-- an episode's light fields, its thumbnail settings,
-- and the references of its heavy content (never the content itself). References and settings are
-- JSON, as the events write them, so `sqlite3` can read them with json_extract.

CREATE TABLE episode_details (
    id                 TEXT PRIMARY KEY,
    podcast_id         TEXT NOT NULL,
    title              TEXT NOT NULL,
    number             INTEGER NOT NULL,
    description        TEXT,
    publish_date       TEXT,
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL,
    thumbnail_settings TEXT NOT NULL,
    -- What the thumbnail says: {"kind": "episodeNumber"}, {"kind": "title"} or {"kind": "custom", "text": …}.
    thumbnail_text     TEXT NOT NULL,
    transcript         TEXT,
    -- The transcript's defects read past at import (a JSON array); NULL when there are none.
    transcript_warnings TEXT,
    subtitles          TEXT,
    background         TEXT,
    overlay            TEXT,
    thumbnail          TEXT
) STRICT;

CREATE INDEX episode_details_by_podcast ON episode_details (podcast_id, number);
