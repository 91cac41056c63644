-- The states projector, schema version 3 (its rows are KeptStates format episodic-state-3; 1's podcasts
-- had no default background, 2's entities no thumbnail text of the new kind): each podcast's
-- and episode's state as the domain folds it, as of the checkpoint. A catch-up starts an entity it meets
-- from its row here (one row read) instead of folding its stream from the log (each of its events read
-- and decoded again), and an entity without a row has had no event through the checkpoint. The states
-- are the encoding of the folds the log keeps of long streams (KeptStates), deleted entities included:
-- undo and the rules need them.

CREATE TABLE podcast_states (
    id    TEXT PRIMARY KEY,
    state BLOB NOT NULL
) STRICT;

CREATE TABLE episode_states (
    id    TEXT PRIMARY KEY,
    state BLOB NOT NULL
) STRICT;
