-- Cluster mode (docs/architecture.md, "Campaigns in a cluster"): work one node does for the
-- whole cluster at a time, leased as a match is (node, epoch, expiry; renewed by its holder,
-- taken over with epoch + 1 once it lapses). 'campaigns': the node that hosts every campaign,
-- ticks their deadlines and writes them; each campaign write checks, in its own transaction,
-- that this row still names the writing node at the epoch it holds (fencing).
CREATE TABLE cluster_roles (
  role       TEXT PRIMARY KEY,
  node       TEXT NOT NULL,
  epoch      BIGINT NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL
);
