-- Where each account's deadline reminders go outside the client (issue 13): a webhook and an
-- e-mail address, both checked before they are stored (server/notify/targets.hpp). An account
-- with neither has no row.
CREATE TABLE notification_targets (
  account_id  INTEGER PRIMARY KEY REFERENCES accounts(id),
  webhook_url TEXT NOT NULL DEFAULT '',  -- http:// or https://; '' for none
  email       TEXT NOT NULL DEFAULT '',  -- '' for none
  updated_ms  INTEGER NOT NULL           -- unix ms of the last SetNotifications
);
