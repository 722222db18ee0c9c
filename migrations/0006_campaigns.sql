-- Campaigns (issue 13): a series of battles between the same two players whose armies carry
-- over. The campaign's whole state is one castra.v1.StoredCampaign blob (its rosters, battles
-- fought, sealed selections with their salts and entropy: never sent), written by one writer
-- job per transition; the columns copy what the lists and look-ups need.
CREATE TABLE campaigns (
  id              TEXT PRIMARY KEY,           -- 32 lower-case hex digits
  definition      TEXT NOT NULL,              -- CampaignDefinition.name
  ruleset         TEXT NOT NULL,
  status          TEXT NOT NULL,              -- open, live, finished, closed
  creator         INTEGER NOT NULL REFERENCES accounts(id),
  player_a        INTEGER REFERENCES accounts(id),
  player_b        INTEGER REFERENCES accounts(id),
  battle_match_id TEXT,                       -- the battle being fought
  is_private      INTEGER NOT NULL,
  vacancy         INTEGER NOT NULL,           -- a side offered to a replacement player
  state           BLOB NOT NULL,              -- castra.v1.StoredCampaign
  created_ms      INTEGER NOT NULL,
  updated_ms      INTEGER NOT NULL
);
CREATE INDEX campaigns_by_status ON campaigns(status, updated_ms);
CREATE INDEX campaigns_by_player_a ON campaigns(player_a, updated_ms);
CREATE INDEX campaigns_by_player_b ON campaigns(player_b, updated_ms);
CREATE INDEX campaigns_by_creator ON campaigns(creator, updated_ms);
CREATE UNIQUE INDEX campaigns_by_battle ON campaigns(battle_match_id) WHERE battle_match_id IS NOT NULL;
