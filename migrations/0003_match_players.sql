-- "My matches" (MatchStore::matches_of_player): a match by any of its three accounts, most
-- recently updated first, without scanning every match.
CREATE INDEX matches_by_creator ON matches(creator, updated_ms);
CREATE INDEX matches_by_player_a ON matches(player_a, updated_ms);
CREATE INDEX matches_by_player_b ON matches(player_b, updated_ms);
