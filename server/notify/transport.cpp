#include "server/notify/transport.hpp"

#include <arpa/inet.h>
#include <curl/curl.h>

#include <cstdint>
#include <memory>
#include <mutex>

namespace castra::notify {

namespace {

using Easy = std::unique_ptr<CURL, decltype(&curl_easy_cleanup)>;
using List = std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)>;

// The settings every call shares: its timeout over the whole call, no signals (the worker is
// one thread among many), no proxy taken from the environment, only `protocols`, no redirects.
Easy easy_handle(int timeout_ms, const char* protocols, char* error_buffer) {
  Easy easy(curl_easy_init(), curl_easy_cleanup);
  if (!easy) return easy;
  CURL* h = easy.get();
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout_ms));
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(timeout_ms));
  curl_easy_setopt(h, CURLOPT_PROXY, "");
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, protocols);
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_buffer);
  return easy;
}

std::string error_text(CURLcode code, const char* buffer) {
  return buffer[0] != '\0' ? std::string(buffer) : std::string(curl_easy_strerror(code));
}

std::size_t discard(char*, std::size_t size, std::size_t count, void*) {
  return size * count;
}

// CURLOPT_PREREQFUNCTION: runs once connected, before a byte of the request is sent.
int public_only(void* refused, char* primary_ip, char*, int, int) {
  if (!private_address(primary_ip)) return CURL_PREREQFUNC_OK;
  *static_cast<bool*>(refused) = true;
  return CURL_PREREQFUNC_ABORT;
}

struct Upload {
  const std::string& data;
  std::size_t sent = 0;
};

std::size_t read_upload(char* buffer, std::size_t size, std::size_t count, void* user) {
  auto* up = static_cast<Upload*>(user);
  const std::size_t n = std::min(size * count, up->data.size() - up->sent);
  up->data.copy(buffer, n, up->sent);
  up->sent += n;
  return n;
}

bool private_v4(std::uint32_t a) {
  const auto in = [a](std::uint32_t net, int bits) {
    return (a >> (32 - bits)) == (net >> (32 - bits));
  };
  return in(0x00000000, 8) || in(0x0a000000, 8) || in(0x7f000000, 8) ||  // 0/8 10/8 127/8
         in(0x64400000, 10) || in(0xa9fe0000, 16) ||                     // 100.64/10 169.254/16
         in(0xac100000, 12) || in(0xc0a80000, 16) ||                     // 172.16/12 192.168/16
         in(0xc0000000, 24) || in(0xc6120000, 15) ||                     // 192.0.0/24 198.18/15
         a >= 0xe0000000;                                                // multicast, reserved
}

}  // namespace

void init_curl() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

bool private_address(const std::string& ip) {
  in_addr v4{};
  if (inet_pton(AF_INET, ip.c_str(), &v4) == 1) return private_v4(ntohl(v4.s_addr));
  in6_addr v6{};
  if (inet_pton(AF_INET6, ip.c_str(), &v6) != 1) return true;
  const unsigned char* b = v6.s6_addr;
  if (IN6_IS_ADDR_V4MAPPED(&v6) || IN6_IS_ADDR_V4COMPAT(&v6)) {
    return private_v4(static_cast<std::uint32_t>(b[12]) << 24 |
                      static_cast<std::uint32_t>(b[13]) << 16 |
                      static_cast<std::uint32_t>(b[14]) << 8 | b[15]);
  }
  return IN6_IS_ADDR_UNSPECIFIED(&v6) || IN6_IS_ADDR_LOOPBACK(&v6) ||
         (b[0] & 0xfe) == 0xfc ||                    // fc00::/7, unique local
         (b[0] == 0xfe && (b[1] & 0x80) == 0x80) ||  // fe80::/10 link-local, fec0::/10 site-local
         b[0] == 0xff;                               // multicast
}

Attempt post_webhook(const std::string& url, const std::string& json, const WebhookCall& call) {
  char error[CURL_ERROR_SIZE] = {};
  Easy easy = easy_handle(call.timeout_ms, "http,https", error);
  if (!easy) return {false, false, "libcurl could not start a call"};
  CURL* h = easy.get();
  List headers(curl_slist_append(nullptr, "Content-Type: application/json"), curl_slist_free_all);
  // No "Expect: 100-continue" round trip: the body is small.
  if (headers) curl_slist_append(headers.get(), "Expect:");
  bool refused = false;
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_POST, 1L);
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, json.data());
  curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(json.size()));
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(h, CURLOPT_USERAGENT, call.user_agent.c_str());
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, discard);
  if (!call.private_addresses) {
    curl_easy_setopt(h, CURLOPT_PREREQFUNCTION, public_only);
    curl_easy_setopt(h, CURLOPT_PREREQDATA, &refused);
  }
  const CURLcode code = curl_easy_perform(h);
  if (refused) return {false, true, "the webhook's address is not a public one"};
  if (code != CURLE_OK) return {false, false, error_text(code, error)};
  long status = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  if (status >= 200 && status < 300) return {true, false, ""};
  const bool retry = status == 408 || status == 429 || status >= 500;
  return {false, !retry, "the webhook answered HTTP " + std::to_string(status)};
}

Attempt send_mail(const std::string& to, const std::string& message, const MailCall& call) {
  char error[CURL_ERROR_SIZE] = {};
  Easy easy = easy_handle(call.timeout_ms, "smtp,smtps", error);
  if (!easy) return {false, false, "libcurl could not start a call"};
  CURL* h = easy.get();
  const std::string from = "<" + call.from + ">";
  List recipients(curl_slist_append(nullptr, ("<" + to + ">").c_str()), curl_slist_free_all);
  Upload upload{message};
  curl_easy_setopt(h, CURLOPT_URL, call.smtp_url.c_str());
  curl_easy_setopt(h, CURLOPT_MAIL_FROM, from.c_str());
  curl_easy_setopt(h, CURLOPT_MAIL_RCPT, recipients.get());
  curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
  curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(message.size()));
  curl_easy_setopt(h, CURLOPT_READFUNCTION, read_upload);
  curl_easy_setopt(h, CURLOPT_READDATA, &upload);
  const CURLcode code = curl_easy_perform(h);
  if (code == CURLE_OK) return {true, false, ""};
  long reply = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &reply);
  const bool permanent = reply >= 500 && reply < 600;
  std::string text = error_text(code, error);
  if (reply != 0) text += " (SMTP " + std::to_string(reply) + ")";
  return {false, permanent, text};
}

}  // namespace castra::notify
