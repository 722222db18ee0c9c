#include "server/notify/targets.hpp"

#include <curl/curl.h>

#include <memory>

namespace castra::notify {

namespace {

namespace v1 = castra::v1;

server::Failure bad(std::string message) {
  return server::fail(v1::ERROR_BAD_NOTIFICATION_TARGET, std::move(message));
}

// No spaces, no control characters, nothing outside ASCII (a URL carries those %-encoded).
bool printable_ascii(const std::string& s) {
  for (const unsigned char c : s) {
    if (c <= 0x20 || c >= 0x7f) return false;
  }
  return true;
}

bool alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

struct ParsedUrl {
  std::string scheme;  // lower case, as libcurl returns it
  std::string host;
};

// libcurl's own URL parser: the URLs that pass are the ones the delivery can use. Only the
// schemes this libcurl supports parse (no CURLU_NON_SUPPORT_SCHEME).
std::optional<ParsedUrl> parse_url(const std::string& url) {
  std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> handle(curl_url(), curl_url_cleanup);
  if (!handle || curl_url_set(handle.get(), CURLUPART_URL, url.c_str(), 0) != CURLUE_OK) {
    return std::nullopt;
  }
  ParsedUrl out;
  for (auto [part, field] :
       {std::pair{CURLUPART_SCHEME, &out.scheme}, std::pair{CURLUPART_HOST, &out.host}}) {
    char* text = nullptr;
    if (curl_url_get(handle.get(), part, &text, 0) != CURLUE_OK) return std::nullopt;
    *field = text;
    curl_free(text);
  }
  if (out.host.empty()) return std::nullopt;
  return out;
}

// RFC 5322's atext (what an unquoted local part may hold), and the dot.
bool local_char(char c) {
  static constexpr std::string_view kSpecials = "!#$%&'*+-/=?^_`{|}~.";
  return alnum(c) || kSpecials.find(c) != std::string_view::npos;
}

bool valid_local_part(const std::string& local) {
  if (local.empty() || local.size() > 64) return false;
  if (local.front() == '.' || local.back() == '.' || local.find("..") != std::string::npos) {
    return false;
  }
  for (const char c : local) {
    if (!local_char(c)) return false;
  }
  return true;
}

// Dot-separated labels of letters, digits and inner hyphens. A single label ("localhost") is
// allowed: a local mail transfer agent may deliver to one.
bool valid_domain(const std::string& domain) {
  if (domain.empty() || domain.size() > 253) return false;
  std::size_t start = 0;
  while (start <= domain.size()) {
    const std::size_t dot = std::min(domain.find('.', start), domain.size());
    const std::string_view label(domain.data() + start, dot - start);
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') {
      return false;
    }
    for (const char c : label) {
      if (!alnum(c) && c != '-') return false;
    }
    start = dot + 1;
  }
  return true;
}

}  // namespace

std::optional<server::Failure> check_webhook_url(const std::string& url) {
  if (url.empty()) return std::nullopt;
  if (url.size() > kMaxWebhookUrl) return bad("a webhook URL is at most 2000 characters");
  if (!printable_ascii(url)) {
    return bad("a webhook URL has no spaces or control characters (percent-encode the rest)");
  }
  const auto parsed = parse_url(url);
  if (!parsed || (parsed->scheme != "http" && parsed->scheme != "https")) {
    return bad("a webhook is an http:// or https:// URL with a host");
  }
  return std::nullopt;
}

std::optional<server::Failure> check_email(const std::string& address) {
  if (address.empty()) return std::nullopt;
  if (address.size() > kMaxEmail) return bad("an e-mail address is at most 254 characters");
  if (!printable_ascii(address)) {
    return bad("an e-mail address is one word on one line: no spaces, no line breaks");
  }
  const std::size_t at = address.rfind('@');
  if (at == std::string::npos || !valid_local_part(address.substr(0, at)) ||
      !valid_domain(address.substr(at + 1))) {
    return bad("an e-mail address is name@domain (letters, digits and . _ - + in the name)");
  }
  return std::nullopt;
}

std::optional<server::Failure> check_targets(const Targets& targets) {
  if (auto f = check_webhook_url(targets.webhook_url)) return f;
  return check_email(targets.email);
}

bool valid_smtp_url(const std::string& url) {
  if (!printable_ascii(url)) return false;
  const auto parsed = parse_url(url);
  return parsed && (parsed->scheme == "smtp" || parsed->scheme == "smtps");
}

std::string host_of(const std::string& url) {
  const auto parsed = parse_url(url);
  return parsed ? parsed->host : std::string();
}

}  // namespace castra::notify
