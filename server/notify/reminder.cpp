#include "server/notify/reminder.hpp"

namespace castra::notify {

namespace {

void append_escaped(std::string& out, const std::string& part) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (const char c : part) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '_' || c == '-';
    if (plain) {
      out += c;
    } else {
      const auto byte = static_cast<unsigned char>(c);
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    }
  }
}

}  // namespace

std::string reminder_key(const Reminder& reminder) {
  std::string key = std::to_string(reminder.account_id);
  key += '/';
  append_escaped(key, reminder.kind);
  key += '/';
  append_escaped(key, reminder.about_id);
  key += '/';
  key += std::to_string(reminder.deadline_ms);
  return key;
}

}  // namespace castra::notify
