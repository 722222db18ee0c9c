-- Match chat (issue 7): two channels per match, players (0) and spectators (1), and the
-- spectators each player has muted for himself.
CREATE TABLE chat_messages (
  id        INTEGER PRIMARY KEY,
  match_id  TEXT NOT NULL REFERENCES matches(id),
  channel   INTEGER NOT NULL,                  -- 0 players, 1 spectators
  author_id INTEGER NOT NULL REFERENCES accounts(id),
  author    TEXT NOT NULL,                     -- the name shown
  body      TEXT NOT NULL,
  sent_ms   INTEGER NOT NULL
);
CREATE INDEX chat_by_match ON chat_messages(match_id, channel, id);

CREATE TABLE chat_mutes (
  match_id   TEXT NOT NULL REFERENCES matches(id),
  account_id INTEGER NOT NULL REFERENCES accounts(id),  -- the player who muted
  muted_key  TEXT NOT NULL,                             -- name_key of the muted spectator
  PRIMARY KEY (match_id, account_id, muted_key)
) WITHOUT ROWID;
