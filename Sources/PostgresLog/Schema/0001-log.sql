-- A shared library's log, version 1. Episodic applies it itself, in one transaction, with the
-- search_path set to the library's own schema (one schema per library).

-- The one row of the log: the library's id and the last position. The append's first statement
-- updates this row, so its row lock is the writer lock, held until the commit and never across a
-- round trip; a rollback rolls the position back, so positions stay gapless and in commit order.
CREATE TABLE log_head (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    library_id uuid NOT NULL,
    position bigint NOT NULL DEFAULT 0 CHECK (position >= 0)
);

-- Every event, at its position. The envelope's fields, and the payload exactly as written.
CREATE TABLE events (
    position bigint PRIMARY KEY CHECK (position > 0),
    stream text NOT NULL,
    stream_version integer NOT NULL CHECK (stream_version > 0),
    type text NOT NULL,
    schema_version integer NOT NULL,
    time_ms bigint NOT NULL,
    actor text NOT NULL,
    command_id uuid NOT NULL,
    undoes uuid,
    data text NOT NULL,
    blobs text[] NOT NULL DEFAULT '{}',
    UNIQUE (stream, stream_version)
);

-- Each stream's version: what an expectation is checked against.
CREATE TABLE streams (
    stream text PRIMARY KEY,
    version integer NOT NULL CHECK (version > 0)
);

-- What rules that span entities reserve, for the whole team: a podcast's name (kind 'podcast-name',
-- scope ''), an episode's number in its podcast (kind 'episode-number', scope the podcast's stream).
CREATE TABLE claims (
    kind text NOT NULL,
    scope text NOT NULL,
    key text NOT NULL,
    stream text NOT NULL,
    PRIMARY KEY (kind, scope, key)
);

-- Content by the SHA-256 of its bytes, stored as given (already LZ4-compressed by the client).
CREATE TABLE blobs (
    sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    byte_count bigint NOT NULL CHECK (byte_count >= 0),
    data bytea NOT NULL
);
ALTER TABLE blobs ALTER COLUMN data SET STORAGE EXTERNAL;

-- Events never change once written, whoever asks.
CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the events of a shared library never change' USING ERRCODE = 'EPAPP';
END $$;
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER events_never_truncated BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();

-- Appends one commit, all or nothing, and returns the position of its first event.
--
-- expect_streams / expect_versions: each stream the decision read, with the version it saw (0: no
-- stream yet). A stream at another version raises EPCON with the stream, expected and actual version
-- in the message, as "stream|expected|actual". Events: parallel arrays, in order; each gets the next
-- position and its stream's next version. Claims taken (kind, scope, key, stream) must be free or
-- already the same stream's (a unique violation, 23505, otherwise); claims released are the
-- stream's own. Blobs referred to must already be stored (EPBLB, the missing hash, otherwise).
CREATE FUNCTION append(
    expect_streams text[], expect_versions integer[],
    event_streams text[], event_types text[], event_schema_versions integer[], event_data text[],
    event_blobs text[], time_ms bigint, actor text, command_id uuid, undoes uuid,
    take_kinds text[], take_scopes text[], take_keys text[], take_streams text[],
    release_kinds text[], release_scopes text[], release_keys text[]
) RETURNS bigint LANGUAGE plpgsql
-- The library's schema, whatever the caller's search_path: the tables are named unqualified.
SET search_path FROM CURRENT AS $$
DECLARE
    n integer := coalesce(array_length(event_streams, 1), 0);
    base bigint;
    i integer;
    found integer;
    version integer;
    missing text;
BEGIN
    IF n = 0 THEN
        RAISE EXCEPTION 'a commit needs at least one event' USING ERRCODE = 'EPEMP';
    END IF;
    -- The writer lock: the head's row, until the commit.
    UPDATE log_head SET position = position + n RETURNING position - n INTO base;
    IF base IS NULL THEN
        RAISE EXCEPTION 'the library has no log head' USING ERRCODE = 'EPHED';
    END IF;
    -- Each statement below sees every commit before this one (READ COMMITTED, one snapshot each).
    FOR i IN 1 .. coalesce(array_length(expect_streams, 1), 0) LOOP
        SELECT s.version INTO found FROM streams s WHERE s.stream = expect_streams[i];
        found := coalesce(found, 0);
        IF found <> expect_versions[i] THEN
            RAISE EXCEPTION '%|%|%', expect_streams[i], expect_versions[i], found USING ERRCODE = 'EPCON';
        END IF;
    END LOOP;
    SELECT b INTO missing FROM unnest(string_to_array(array_to_string(event_blobs, ','), ',')) AS b
        WHERE b <> '' AND NOT EXISTS (SELECT 1 FROM blobs WHERE sha256 = b) LIMIT 1;
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION '%', missing USING ERRCODE = 'EPBLB';
    END IF;
    FOR i IN 1 .. n LOOP
        INSERT INTO streams AS s (stream, version) VALUES (event_streams[i], 1)
            ON CONFLICT (stream) DO UPDATE SET version = s.version + 1
            RETURNING s.version INTO version;
        INSERT INTO events (position, stream, stream_version, type, schema_version, time_ms, actor, command_id, undoes,
                            data, blobs)
            VALUES (base + i, event_streams[i], version, event_types[i], event_schema_versions[i], time_ms, actor,
                    command_id, undoes, event_data[i],
                    CASE WHEN event_blobs[i] = '' THEN '{}'::text[] ELSE string_to_array(event_blobs[i], ',') END);
    END LOOP;
    DELETE FROM claims c USING unnest(release_kinds, release_scopes, release_keys) AS r(kind, scope, key)
        WHERE c.kind = r.kind AND c.scope = r.scope AND c.key = r.key;
    INSERT INTO claims (kind, scope, key, stream)
        SELECT * FROM unnest(take_kinds, take_scopes, take_keys, take_streams)
        ON CONFLICT (kind, scope, key) DO UPDATE SET stream = excluded.stream WHERE claims.stream = excluded.stream;
    GET DIAGNOSTICS found = ROW_COUNT;
    IF found <> coalesce(array_length(take_kinds, 1), 0) THEN
        RAISE EXCEPTION 'a claim is held by another stream' USING ERRCODE = '23505';
    END IF;
    RETURN base + 1;
END $$;
