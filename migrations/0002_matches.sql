-- Matches and their append-only logs (issue 6). Blobs are protobuf messages of
-- proto/castra/v1/match.proto; secrets live apart from what may be sent to anyone.
CREATE TABLE matches (
  id              TEXT PRIMARY KEY,
  ruleset         TEXT NOT NULL,               -- 'optio' | 'stand'
  rules_version   TEXT NOT NULL,               -- e.g. 'optio-1'
  scenario_name   TEXT NOT NULL,               -- e.g. 'optio/training'
  scenario        BLOB NOT NULL,               -- castra.v1.ScenarioFile
  settings        BLOB NOT NULL,               -- castra.v1.MatchSettings
  status          TEXT NOT NULL,               -- 'open' | 'live' | 'finished' | 'closed'
  dice_commitment BLOB NOT NULL,               -- 32 bytes, public from creation
  creator         INTEGER,                     -- account id
  player_a        INTEGER,                     -- account ids once seated
  player_b        INTEGER,
  to_act          TEXT NOT NULL DEFAULT '',    -- '', 'A', 'B' or 'AB'
  deadline_a_ms   INTEGER,                     -- unix milliseconds, NULL when not running
  deadline_b_ms   INTEGER,
  outcome         BLOB,                        -- castra.v1.Outcome once finished
  created_ms      INTEGER NOT NULL,
  updated_ms      INTEGER NOT NULL
);
CREATE INDEX matches_by_status ON matches(status, updated_ms);

-- Never read except to play (the server's dice) and to reveal at the end.
CREATE TABLE match_secrets (
  match_id    TEXT PRIMARY KEY REFERENCES matches(id),
  server_seed BLOB NOT NULL,
  entropy_a   BLOB,
  entropy_b   BLOB
);

-- One row per log entry: castra.v1.LogEntry (command, events, rolls, seal commitments).
CREATE TABLE match_log (
  match_id    TEXT NOT NULL REFERENCES matches(id),
  entry_index INTEGER NOT NULL,
  kind        INTEGER NOT NULL,                -- 0 start, 1 command, 2 end
  side        INTEGER NOT NULL,
  first_event INTEGER NOT NULL,
  event_count INTEGER NOT NULL,
  entry       BLOB NOT NULL,
  PRIMARY KEY (match_id, entry_index)
) WITHOUT ROWID;

-- The salt of each sealed event: secret until the end.
CREATE TABLE match_seal_salts (
  match_id    TEXT NOT NULL REFERENCES matches(id),
  entry_index INTEGER NOT NULL,
  event_index INTEGER NOT NULL,
  salt        BLOB NOT NULL,
  PRIMARY KEY (match_id, entry_index, event_index)
) WITHOUT ROWID;

-- The full state after `entry_count` entries (castra.v1.<ruleset>.State), every N entries.
CREATE TABLE match_snapshots (
  match_id    TEXT NOT NULL REFERENCES matches(id),
  entry_count INTEGER NOT NULL,
  event_count INTEGER NOT NULL,
  state       BLOB NOT NULL,
  state_hash  BLOB NOT NULL,
  PRIMARY KEY (match_id, entry_count)
) WITHOUT ROWID;

-- Each side's client sequence numbers and the first answer given, so that a command seen
-- twice (after a reconnect, across restarts) is answered again and never applied twice.
CREATE TABLE command_replies (
  match_id    TEXT NOT NULL REFERENCES matches(id),
  side        INTEGER NOT NULL,
  client_seq  INTEGER NOT NULL,
  entry_index INTEGER,                         -- NULL when the command was refused
  reply       BLOB NOT NULL,                   -- castra.v1 reply message bytes
  PRIMARY KEY (match_id, side, client_seq)
) WITHOUT ROWID;
