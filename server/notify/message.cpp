#include "server/notify/message.hpp"

#include <google/protobuf/util/json_util.h>
#include <sodium.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <string_view>

#include "proto/castra/v1/notify.pb.h"

namespace castra::notify {

namespace {

constexpr std::size_t kLineBytes = 900;    // under SMTP's 998, with room to spare
constexpr std::size_t kEncodedChunk = 45;  // bytes per RFC 2047 word: 60 in base64, under 75

// The length of the UTF-8 sequence starting at `s[i]`, 0 when none starts there (bad lead
// byte, truncated, overlong, a surrogate, or beyond U+10FFFF).
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  std::size_t n = 0;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) n = 2;
  if (c >= 0xe0 && c <= 0xef) n = 3;
  if (c >= 0xf0 && c <= 0xf4) n = 4;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xc0) != 0x80) return 0;
  }
  if (c == 0xe0 && b(1) < 0xa0) return 0;   // overlong
  if (c == 0xed && b(1) >= 0xa0) return 0;  // surrogates
  if (c == 0xf0 && b(1) < 0x90) return 0;   // overlong
  if (c == 0xf4 && b(1) >= 0x90) return 0;  // beyond U+10FFFF
  return n;
}

// `text` with each byte that starts no valid UTF-8 sequence replaced by '?'.
std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      out += '?';
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

// The longest prefix of `s` (valid UTF-8) of at most `max` bytes that ends on a character.
std::size_t cut_at(std::string_view s, std::size_t max) {
  std::size_t end = 0;
  while (end < s.size()) {
    const std::size_t n = utf8_length(s, end);
    if (n == 0 || end + n > max) break;
    end += n;
  }
  return end;
}

// One line (breaks and tabs become spaces), at most kMaxSubject bytes.
std::string clean_subject(const std::string& subject) {
  std::string line = valid_utf8(subject);
  for (char& c : line) {
    if (c == '\r' || c == '\n' || c == '\t') c = ' ';
  }
  line.resize(cut_at(line, kMaxSubject));
  return line;
}

bool ascii(std::string_view s) {
  for (const unsigned char c : s) {
    if (c >= 0x80 || (c < 0x20 && c != '\t')) return false;
  }
  return true;
}

std::string base64(std::string_view bytes) {
  std::string out(sodium_base64_encoded_len(bytes.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(bytes.data()),
                    bytes.size(), sodium_base64_VARIANT_ORIGINAL);
  out.resize(out.size() - 1);  // the terminating NUL
  return out;
}

// The Subject field's body: as it is when ASCII, else RFC 2047 "B" encoded words of whole
// characters, folded one per line.
std::string subject_field(const std::string& subject) {
  if (ascii(subject)) return subject;
  std::string out;
  std::string_view rest(subject);
  while (!rest.empty()) {
    const std::size_t n = cut_at(rest, kEncodedChunk);
    if (!out.empty()) out += "\r\n ";
    out += "=?UTF-8?B?" + base64(rest.substr(0, n)) + "?=";
    rest.remove_prefix(n);
  }
  return out;
}

// CRLF line ends (from LF, CRLF or a lone CR), every line at most kLineBytes, a final CRLF.
std::string mail_body(const std::string& text) {
  const std::string body = valid_utf8(text);
  std::string out;
  std::string line;
  const auto flush = [&] {
    std::string_view rest(line);
    do {
      const std::size_t n = cut_at(rest, kLineBytes);
      out.append(rest.substr(0, n));
      out += "\r\n";
      rest.remove_prefix(n);
    } while (!rest.empty());
    line.clear();
  };
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\r' || body[i] == '\n') {
      if (body[i] == '\r' && i + 1 < body.size() && body[i + 1] == '\n') ++i;
      flush();
    } else {
      line += body[i];
    }
  }
  if (!line.empty() || out.empty()) flush();
  return out;
}

std::string domain_of(const std::string& address) {
  const std::size_t at = address.rfind('@');
  return at == std::string::npos ? "localhost" : address.substr(at + 1);
}

}  // namespace

std::string webhook_body(const Reminder& reminder, std::int64_t sent_ms) {
  castra::v1::ReminderWebhook m;
  m.set_kind(valid_utf8(reminder.kind));
  m.set_account_id(reminder.account_id);
  m.set_subject(clean_subject(reminder.subject));
  m.set_text(valid_utf8(reminder.text));
  m.set_about_id(valid_utf8(reminder.about_id));
  m.set_deadline_ms(reminder.deadline_ms);
  m.set_sent_ms(sent_ms);
  m.set_key(reminder_key(reminder));
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  options.always_print_primitive_fields = true;
  std::string out;
  // Cannot fail: every string was made valid UTF-8 above.
  (void)google::protobuf::util::MessageToJsonString(m, &out, options);
  return out;
}

std::string mail_message(const Reminder& reminder, const std::string& from, const std::string& to,
                         std::int64_t sent_ms) {
  const std::string key = reminder_key(reminder);
  std::string m;
  m += "Date: " + mail_date(sent_ms) + "\r\n";
  m += "From: " + from + "\r\n";
  m += "To: " + to + "\r\n";
  m += "Subject: " + subject_field(clean_subject(reminder.subject)) + "\r\n";
  m += "Message-ID: <" + key + "@" + domain_of(from) + ">\r\n";
  m += "Auto-Submitted: auto-generated\r\n";
  m += "X-Castra-Reminder: " + key + "\r\n";
  m += "MIME-Version: 1.0\r\n";
  m += "Content-Type: text/plain; charset=UTF-8\r\n";
  m += "Content-Transfer-Encoding: 8bit\r\n";
  m += "\r\n";
  m += mail_body(reminder.text);
  return m;
}

std::string mail_date(std::int64_t unix_ms) {
  using namespace std::chrono;
  static constexpr std::array<const char*, 7> kDays = {"Sun", "Mon", "Tue", "Wed",
                                                       "Thu", "Fri", "Sat"};
  static constexpr std::array<const char*, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const sys_seconds t = floor<seconds>(sys_time<milliseconds>(milliseconds(unix_ms)));
  const sys_days day = floor<days>(t);
  const year_month_day ymd(day);
  const hh_mm_ss time(t - day);
  char out[40];
  std::snprintf(out, sizeof out, "%s, %02u %s %04d %02d:%02d:%02d +0000",
                kDays[weekday(day).c_encoding()], static_cast<unsigned>(ymd.day()),
                kMonths[static_cast<unsigned>(ymd.month()) - 1], static_cast<int>(ymd.year()),
                static_cast<int>(time.hours().count()), static_cast<int>(time.minutes().count()),
                static_cast<int>(time.seconds().count()));
  return out;
}

}  // namespace castra::notify
