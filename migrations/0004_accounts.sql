-- Accounts and their sessions (issue 7). Passwords are Argon2id strings (libsodium's
-- crypto_pwhash_str: algorithm, cost and salt inside); session tokens are stored as the
-- SHA-256 of the token, never the token itself.
CREATE TABLE accounts (
  id              INTEGER PRIMARY KEY,
  name            TEXT NOT NULL,               -- as registered
  name_key        TEXT NOT NULL UNIQUE,        -- lower case: names are unique regardless of case
  password_hash   TEXT NOT NULL,
  created_ms      INTEGER NOT NULL,
  failed_logins   INTEGER NOT NULL DEFAULT 0,  -- consecutive, reset by a good password
  locked_until_ms INTEGER NOT NULL DEFAULT 0,  -- unix ms; logins refused before it
  banned          INTEGER NOT NULL DEFAULT 0,
  ban_reason      TEXT NOT NULL DEFAULT ''
);

CREATE TABLE sessions (
  token_hash   BLOB PRIMARY KEY,               -- SHA-256 of the 32-byte token
  account_id   INTEGER NOT NULL REFERENCES accounts(id),
  created_ms   INTEGER NOT NULL,
  expires_ms   INTEGER NOT NULL,
  last_used_ms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_by_account ON sessions(account_id);
CREATE INDEX sessions_by_expiry ON sessions(expires_ms);
