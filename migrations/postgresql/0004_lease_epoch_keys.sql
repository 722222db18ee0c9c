-- Cluster mode (docs/architecture.md, "Fencing"): an append locks its match's lease row
-- FOR KEY SHARE until its COMMIT. With (match_id, epoch) a unique key, an UPDATE that moves the
-- epoch (a takeover) changes a key and waits for that lock, while the keeper's renewal, which
-- sets expires_at alone, does not: renewals and appends never wait on each other, so they
-- cannot deadlock (a writer's batch locks its matches' rows in its jobs' order, a renewal in
-- its own), and a fenced append is still never overtaken by a takeover.
CREATE UNIQUE INDEX match_leases_epoch_key ON match_leases(match_id, epoch);
