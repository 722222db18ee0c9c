-- Each account's Glicko-2 rating per game (issue 20, docs/ratings.md), and the matches that
-- have been rated: a match is rated once, in the transaction that records its end.
CREATE TABLE ratings (
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  ruleset    TEXT NOT NULL,     -- 'optio' | 'stand': a rating per game
  rating     REAL NOT NULL,
  deviation  REAL NOT NULL,     -- RD
  volatility REAL NOT NULL,
  games      INTEGER NOT NULL,  -- rated games played
  updated_ms INTEGER NOT NULL,
  PRIMARY KEY (account_id, ruleset)
) WITHOUT ROWID;

-- One row per rated match: both players' ratings before and after it.
CREATE TABLE rated_matches (
  match_id      TEXT PRIMARY KEY REFERENCES matches(id),
  ruleset       TEXT NOT NULL,
  player_a      INTEGER NOT NULL,
  player_b      INTEGER NOT NULL,
  score_a       REAL NOT NULL,  -- 1 side A won, 0.5 a draw, 0 side B won
  rating_a      REAL NOT NULL,  -- before the match
  rating_b      REAL NOT NULL,
  new_rating_a  REAL NOT NULL,  -- after it
  new_rating_b  REAL NOT NULL,
  rated_ms      INTEGER NOT NULL
) WITHOUT ROWID;
