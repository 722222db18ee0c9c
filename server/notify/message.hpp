// The bytes a reminder travels as: the webhook's JSON body (castra.v1.ReminderWebhook in
// protobuf's JSON mapping, proto/castra/v1/notify.proto) and the e-mail's RFC 5322 message.
// Both carry the same subject and text, made safe here: valid UTF-8 (a bad byte becomes '?'),
// the subject one line of at most kMaxSubject bytes. Pure; any thread.
#pragma once

#include <cstdint>
#include <string>

#include "server/notify/reminder.hpp"

namespace castra::notify {

inline constexpr std::size_t kMaxSubject = 200;

// {"kind":..., "account_id":"42", "subject":..., "text":..., "about_id":...,
//  "deadline_ms":"...", "sent_ms":"...", "key":...}: every field present, int64s as strings
// (protobuf's JSON mapping).
std::string webhook_body(const Reminder& reminder, std::int64_t sent_ms);

// Date, From, To, Subject (RFC 2047 encoded when not ASCII), Message-ID
// <reminder_key@the domain of `from`>, Auto-Submitted (RFC 3834), MIME-Version, a plain UTF-8
// body; every line ends CRLF and none is longer than 998 bytes. SMTP's dot-stuffing is the
// transport's (libcurl does it).
std::string mail_message(const Reminder& reminder, const std::string& from, const std::string& to,
                         std::int64_t sent_ms);

// RFC 5322's date-time in UTC: "Tue, 14 Nov 2023 22:13:20 +0000".
std::string mail_date(std::int64_t unix_ms);

}  // namespace castra::notify
