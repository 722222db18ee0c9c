#include "client/sdl/watch_link.hpp"

namespace castra::client {

namespace {

// Match ids and codes are tokens of letters, digits, '-' and '_'; anything else is escaped
// all the same, so a link is never broken by what the server chose.
std::string escaped(const std::string& s) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '_' || c == '.' || c == '~';
    if (plain) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

}  // namespace

std::string watch_link(const std::string& ws_url, const std::string& match_id,
                       const std::string& invitation_code) {
  std::string scheme;
  std::string rest;
  if (ws_url.rfind("ws://", 0) == 0) {
    scheme = "http://";
    rest = ws_url.substr(5);
  } else if (ws_url.rfind("wss://", 0) == 0) {
    scheme = "https://";
    rest = ws_url.substr(6);
  } else {
    return {};
  }
  const std::string host = rest.substr(0, rest.find('/'));
  if (host.empty() || match_id.empty()) return {};
  std::string link = scheme + host + "/watch/" + escaped(match_id);
  if (!invitation_code.empty()) link += "?code=" + escaped(invitation_code);
  return link;
}

}  // namespace castra::client
