-- The server's own facts: when this database was created, by which Castra.
CREATE TABLE server_meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
INSERT INTO server_meta(key, value) VALUES
  ('created_at', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
