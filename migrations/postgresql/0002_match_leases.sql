-- Cluster mode (docs/architecture.md, "The cluster"): which node owns each unfinished match.
-- A lease is held by one node at one epoch until it expires; its owner renews it, and another
-- node takes a lapsed one over with epoch + 1. Every append of a match checks, in its own
-- transaction, that the row still names the appending node and the epoch it holds (fencing).
-- Times are the database's clock (now()), so the nodes' clocks need not agree.
CREATE TABLE match_leases (
  match_id   TEXT PRIMARY KEY REFERENCES matches(id),
  node       TEXT NOT NULL,
  epoch      BIGINT NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX match_leases_by_node ON match_leases(node);
CREATE INDEX match_leases_by_expiry ON match_leases(expires_at);

-- Where each node is reached: a request for a match owned by another node is answered with
-- its owner's public URL (ERROR_MATCH_ELSEWHERE).
CREATE TABLE cluster_nodes (
  node       TEXT PRIMARY KEY,
  public_url TEXT NOT NULL,
  seen_at    TIMESTAMPTZ NOT NULL
);
