// The two network calls a reminder's delivery makes, through libcurl: an HTTP(S) POST to an
// account's webhook, and an SMTP submission to the configured mail transfer agent. Each one is
// bounded by its timeout (name resolution included) and blocks its caller: the Notifier's
// worker thread. Neither follows redirects nor uses a proxy from the environment.
#pragma once

#include <string>

namespace castra::notify {

struct Attempt {
  bool ok = false;
  bool permanent =
      false;          // retrying cannot help: a 4xx answer, a 5xx SMTP reply, a refused address
  std::string error;  // for the log
};

struct WebhookCall {
  int timeout_ms = 5000;
  // Whether the POST may reach loopback, private, link-local or other non-public addresses
  // (checked on the address connected to, after name resolution): off, a player's webhook could
  // make the server call services on its own network.
  bool private_addresses = false;
  std::string user_agent = "castra-server";
};
// A 2xx answer is a delivery; 408, 429 and 5xx answers and network failures may be retried.
Attempt post_webhook(const std::string& url, const std::string& json, const WebhookCall& call);

struct MailCall {
  std::string smtp_url;  // smtp://host:port (plain, for a local agent) or smtps://host:port
  std::string from;      // the envelope sender (MAIL FROM)
  int timeout_ms = 10000;
};
// MAIL FROM, RCPT TO `to`, DATA `message`; a 5xx reply is permanent, anything else retried.
Attempt send_mail(const std::string& to, const std::string& message, const MailCall& call);

// Whether `ip` (text, as libcurl reports the address it connected to) is not a public unicast
// address: unspecified, loopback, RFC 1918 or unique-local, link-local, shared (100.64/10),
// multicast or reserved, IPv4 in IPv6 of those; anything that does not parse counts as private.
bool private_address(const std::string& ip);

// libcurl's process-wide set-up; once, before the first call above (the Notifier does it).
void init_curl();

}  // namespace castra::notify
