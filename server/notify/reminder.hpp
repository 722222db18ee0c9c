// Reminder: one deadline reminder for one account, as the lobby and campaign code ask for it,
// and the targets an account has set for its reminders (SetNotifications). Values; any thread.
#pragma once

#include <cstdint>
#include <string>

namespace castra::notify {

struct Reminder {
  std::int64_t account_id = 0;
  std::string kind;              // "selection_due", "selection_deadline_soon", ...
  std::string subject;           // one line: the e-mail's Subject
  std::string text;              // plain text, no links: the e-mail's body, the webhook's "text"
  std::string about_id;          // the campaign's or match's id; empty when about neither
  std::int64_t deadline_ms = 0;  // unix milliseconds; 0 when there is none
};

// What makes two reminders the same one: account, kind, about_id and deadline, as
// "account/kind/about_id/deadline" with every byte of kind and about_id outside
// [A-Za-z0-9_-] written %XX (so two different reminders never share a key). Its characters
// are all allowed in an e-mail's Message-ID.
std::string reminder_key(const Reminder& reminder);

// Where an account's reminders go. An empty field switches that channel off.
struct Targets {
  std::string webhook_url;
  std::string email;
  bool operator==(const Targets&) const = default;
};

}  // namespace castra::notify
