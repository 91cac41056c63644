-- A shared library's log, version 2: the hash chain on the server, and the calls an editor changes the
-- library through without rights on any table. Applied as version 1 is, in the same transaction as
-- the filling of `commits` and `log_head.hash` for the commits already there, whose hashes Episodic
-- computes from their rows (every machine's copy holds those rows' bytes).

-- The hash of the log's last commit (the library's genesis hash while the log is empty): the `prev`
-- the next commit must carry.
ALTER TABLE log_head ADD COLUMN hash text CHECK (hash ~ '^[0-9a-f]{64}$');

-- Each commit's hash and its `prev`, the hash of the commit before it: the SHA-256 of the commit's lines
-- exactly as every machine's copy holds them (schemas/log-format.md). Whoever reads a commit checks both
-- against its rows, so a row changed, removed, inserted or moved breaks the chain where it is.
CREATE TABLE commits (
    commit_first bigint PRIMARY KEY CHECK (commit_first > 0),
    commit_last bigint NOT NULL UNIQUE CHECK (commit_last >= commit_first),
    prev text NOT NULL CHECK (prev ~ '^[0-9a-f]{64}$'),
    hash text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$')
);
CREATE TRIGGER commits_append_only BEFORE UPDATE OR DELETE ON commits
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER commits_never_truncated BEFORE TRUNCATE ON commits
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();

-- What `episodic log repair` took out of `events` and `commits`: rows past the head, which no append
-- wrote (an append moves the head over what it writes), kept as they were rather than deleted.
CREATE TABLE set_aside (
    position bigint NOT NULL,
    set_aside_at timestamptz NOT NULL DEFAULT now(),
    event jsonb,
    chain jsonb
);

-- The append of version 1, for a build that knows only version 1: it refuses, saying why, rather than
-- append a commit outside the chain.
CREATE OR REPLACE FUNCTION append(
    expect_streams text[], expect_versions integer[],
    event_streams text[], event_types text[], event_schema_versions integer[], event_data text[],
    event_blobs text[], time_ms bigint, actor text, command_id uuid, undoes uuid, chained boolean,
    claim_actions text[], claim_kinds text[], claim_streams text[], claim_scopes text[], claim_keys text[]
) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'this shared library was brought to a newer schema by a newer Episodic; upgrade Episodic on this machine'
        USING ERRCODE = 'EPVER';
END $$;

-- Appends one commit, all or nothing, and returns the position of its first event. As version 1's,
-- with the chain: `prev_hash` must be the head's hash (EPCHN otherwise, with "head position|head hash"
-- as the message: the caller's copy is behind, and the same decision goes again after it catches up),
-- `commit_hash` is the commit's own hash, which becomes the head's. Rows past the head, which no append
-- wrote, refuse every append (EPROW, with the first such position) until `set_aside_past_head` takes
-- them out. The wait for the head's lock is at most `wait_ms` (55P03 after it).
--
-- Runs as the schema's owner: an editor appends through it without any right on the tables.
CREATE FUNCTION append(
    expect_streams text[], expect_versions integer[],
    event_streams text[], event_types text[], event_schema_versions integer[], event_data text[],
    event_blobs text[], time_ms bigint, actor text, command_id uuid, undoes uuid, chained boolean,
    claim_actions text[], claim_kinds text[], claim_streams text[], claim_scopes text[], claim_keys text[],
    prev_hash text, commit_hash text, wait_ms integer
) RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER
-- The library's schema, then pg_temp, whoever calls: the tables are named unqualified.
SET search_path FROM CURRENT AS $$
DECLARE
    n integer := coalesce(array_length(event_streams, 1), 0);
    base bigint;
    head_hash text;
    past bigint;
    i integer;
    found integer;
    version integer;
    missing text;
BEGIN
    IF n = 0 THEN
        RAISE EXCEPTION 'a commit needs at least one event' USING ERRCODE = 'EPEMP';
    END IF;
    PERFORM set_config('lock_timeout', greatest(wait_ms, 1) || 'ms', true);
    -- The writer lock: the head's row, until the commit.
    SELECT h.position, h.hash INTO base, head_hash FROM log_head h FOR UPDATE;
    IF base IS NULL THEN
        RAISE EXCEPTION 'the library has no log head' USING ERRCODE = 'EPHED';
    END IF;
    SELECT least((SELECT min(e.position) FROM events e WHERE e.position > base),
                 (SELECT min(c.commit_first) FROM commits c WHERE c.commit_last > base)) INTO past;
    IF past IS NOT NULL THEN
        RAISE EXCEPTION '%', past USING ERRCODE = 'EPROW';
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
    IF prev_hash IS DISTINCT FROM head_hash THEN
        RAISE EXCEPTION '%|%', base, head_hash USING ERRCODE = 'EPCHN';
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
    INSERT INTO commits (commit_first, commit_last, prev, hash) VALUES (base + 1, base + n, prev_hash, commit_hash);
    UPDATE log_head SET position = base + n, hash = commit_hash;
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

-- Stores a blob's bytes under its hash, once; storing it again changes nothing. Runs as the schema's
-- owner, for editors.
CREATE FUNCTION put_blob(blob_sha256 text, blob_byte_count bigint, blob_data bytea) RETURNS void
LANGUAGE sql SECURITY DEFINER
SET search_path FROM CURRENT AS $$
    INSERT INTO blobs (sha256, byte_count, data) VALUES (blob_sha256, blob_byte_count, blob_data)
        ON CONFLICT (sha256) DO NOTHING;
$$;

-- Moves the rows past the head (events and commits that no append wrote) into `set_aside`, and returns
-- how many there were. Nothing the head covers is touched. Runs as the schema's owner, for
-- `episodic log repair` run by anyone who may append.
CREATE FUNCTION set_aside_past_head() RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER
SET search_path FROM CURRENT AS $$
DECLARE
    base bigint;
    moved bigint;
BEGIN
    SELECT h.position INTO base FROM log_head h FOR UPDATE;
    INSERT INTO set_aside (position, event, chain)
        SELECT coalesce(e.position, c.commit_first), to_jsonb(e), to_jsonb(c)
        FROM (SELECT * FROM events WHERE position > base) e
        FULL JOIN (SELECT * FROM commits WHERE commit_last > base) c ON c.commit_first = e.position;
    GET DIAGNOSTICS moved = ROW_COUNT;
    IF moved > 0 THEN
        -- Only here, in this transaction, and only for rows no append wrote.
        ALTER TABLE events DISABLE TRIGGER events_append_only;
        ALTER TABLE commits DISABLE TRIGGER commits_append_only;
        DELETE FROM events WHERE position > base;
        DELETE FROM commits WHERE commit_last > base;
        ALTER TABLE events ENABLE TRIGGER events_append_only;
        ALTER TABLE commits ENABLE TRIGGER commits_append_only;
    END IF;
    RETURN moved;
END $$;

-- Gives the role `editor` what an editor needs and nothing more: to read the library, and to change it
-- only through `append`, `put_blob` and `set_aside_past_head`. No right on any table but to read it,
-- and not the owner: an editor can neither update `log_head` nor disable a trigger. Run by the
-- schema's owner: SELECT <schema>.grant_editor('bo');
CREATE FUNCTION grant_editor(editor text) RETURNS void LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
BEGIN
    EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', current_schema(), editor);
    EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO %I', current_schema(), editor);
END $$;
REVOKE EXECUTE ON FUNCTION grant_editor(text) FROM PUBLIC;
