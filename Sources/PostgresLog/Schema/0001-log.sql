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

-- Every event, at its position: the envelope's fields, and the payload exactly as written, so that
-- every machine's copy writes the same bytes. `commit_first` and `commit_last` are the positions of the
-- first and last events of the event's commit, so that a reader takes whole commits; `chained` says whether that commit's first line carries the hash of the commit before
-- it (false only for commits pushed from a library written before the chain). `blobs` are the blobs
-- the event refers to, each as "sha256:bytes".
CREATE TABLE events (
    position bigint PRIMARY KEY CHECK (position > 0),
    commit_first bigint NOT NULL CHECK (commit_first > 0 AND commit_first <= position),
    commit_last bigint NOT NULL CHECK (commit_last >= position),
    chained boolean NOT NULL,
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
-- A stream holds at most one key of each kind.
CREATE TABLE claims (
    kind text NOT NULL,
    scope text NOT NULL,
    key text NOT NULL,
    stream text NOT NULL,
    PRIMARY KEY (kind, scope, key),
    UNIQUE (kind, stream)
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
-- position and its stream's next version. Blobs referred to ("sha256:bytes") must already be stored
-- (EPBLB, the missing hash, otherwise). Claims (parallel arrays, in order): 'hold' a key in a scope in
-- place of the stream's key of that kind, 'rekey' within its scope, 'release'; a key another stream
-- holds raises 23505. Listeners on the channel 'episodic_' || the schema's name hear the new head.
CREATE FUNCTION append(
    expect_streams text[], expect_versions integer[],
    event_streams text[], event_types text[], event_schema_versions integer[], event_data text[],
    event_blobs text[], time_ms bigint, actor text, command_id uuid, undoes uuid, chained boolean,
    claim_actions text[], claim_kinds text[], claim_streams text[], claim_scopes text[], claim_keys text[]
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
    SELECT split_part(b, ':', 1) INTO missing
        FROM unnest(string_to_array(array_to_string(event_blobs, ','), ',')) AS b
        WHERE b <> '' AND NOT EXISTS (SELECT 1 FROM blobs WHERE sha256 = split_part(b, ':', 1)) LIMIT 1;
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION '%', missing USING ERRCODE = 'EPBLB';
    END IF;
    FOR i IN 1 .. n LOOP
        INSERT INTO streams AS s (stream, version) VALUES (event_streams[i], 1)
            ON CONFLICT (stream) DO UPDATE SET version = s.version + 1
            RETURNING s.version INTO version;
        INSERT INTO events (position, commit_first, commit_last, chained, stream, stream_version, type, schema_version, time_ms,
                            actor, command_id, undoes, data, blobs)
            VALUES (base + i, base + 1, base + n, chained, event_streams[i], version, event_types[i], event_schema_versions[i],
                    time_ms, actor, command_id, undoes, event_data[i],
                    CASE WHEN event_blobs[i] = '' THEN '{}'::text[] ELSE string_to_array(event_blobs[i], ',') END);
    END LOOP;
    FOR i IN 1 .. coalesce(array_length(claim_actions, 1), 0) LOOP
        IF claim_actions[i] = 'rekey' THEN
            UPDATE claims SET key = claim_keys[i] WHERE kind = claim_kinds[i] AND stream = claim_streams[i];
        ELSE
            DELETE FROM claims WHERE kind = claim_kinds[i] AND stream = claim_streams[i];
            IF claim_actions[i] = 'hold' THEN
                INSERT INTO claims (kind, scope, key, stream)
                    VALUES (claim_kinds[i], claim_scopes[i], claim_keys[i], claim_streams[i]);
            END IF;
        END IF;
    END LOOP;
    PERFORM pg_notify('episodic_' || current_schema(), (base + n)::text);
    RETURN base + 1;
END $$;
