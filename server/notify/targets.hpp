// The checks an account's notification targets pass before they are stored (SetNotifications)
// and the server's mail flags pass at start-up. A refusal is ERROR_BAD_NOTIFICATION_TARGET with
// the rule in words. Pure; any thread.
#pragma once

#include <optional>
#include <string>

#include "server/base/failure.hpp"
#include "server/notify/reminder.hpp"

namespace castra::notify {

inline constexpr std::size_t kMaxWebhookUrl = 2000;
inline constexpr std::size_t kMaxEmail = 254;  // RFC 5321's limit on a path

// An http:// or https:// URL with a host, printable ASCII, at most kMaxWebhookUrl bytes.
// Empty passes (no webhook).
std::optional<server::Failure> check_webhook_url(const std::string& url);
// local@domain: a local part of at most 64 bytes of the characters RFC 5322 allows unquoted,
// a domain of letters, digits and hyphens in dot-separated labels; no spaces, no CR or LF (they
// would let the address write headers of its own). Empty passes (no e-mail).
std::optional<server::Failure> check_email(const std::string& address);
std::optional<server::Failure> check_targets(const Targets& targets);

// smtp://host[:port] or smtps://host[:port] (the --smtp-url flag).
bool valid_smtp_url(const std::string& url);

// The host of a URL, for logs (a webhook's path and query may hold its secret); empty when
// `url` does not parse.
std::string host_of(const std::string& url);

}  // namespace castra::notify
