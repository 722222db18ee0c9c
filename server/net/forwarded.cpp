#include "server/net/forwarded.hpp"

#include <arpa/inet.h>

#include <vector>

namespace castra::net {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

}  // namespace

std::optional<std::string> canonical_address(std::string_view text) {
  const std::string s(trim(text));
  char out[INET6_ADDRSTRLEN] = {};
  in_addr v4{};
  if (inet_pton(AF_INET, s.c_str(), &v4) == 1) {
    inet_ntop(AF_INET, &v4, out, sizeof out);
    return std::string(out);
  }
  in6_addr v6{};
  if (inet_pton(AF_INET6, s.c_str(), &v6) == 1) {
    if (IN6_IS_ADDR_V4MAPPED(&v6)) {
      in_addr mapped{};
      static_assert(sizeof mapped == 4);
      std::copy(v6.s6_addr + 12, v6.s6_addr + 16, reinterpret_cast<unsigned char*>(&mapped));
      inet_ntop(AF_INET, &mapped, out, sizeof out);
      return std::string(out);
    }
    inet_ntop(AF_INET6, &v6, out, sizeof out);
    return std::string(out);
  }
  return std::nullopt;
}

std::string client_address(const std::string& peer, std::string_view forwarded_for,
                           const std::set<std::string>& trusted_proxies) {
  const std::string peer_text = canonical_address(peer).value_or(peer);
  if (forwarded_for.empty() || trusted_proxies.count(peer_text) == 0) return peer_text;
  std::vector<std::string_view> hops;
  while (!forwarded_for.empty()) {
    const auto comma = forwarded_for.find(',');
    hops.push_back(trim(forwarded_for.substr(0, comma)));
    if (comma == std::string_view::npos) break;
    forwarded_for.remove_prefix(comma + 1);
  }
  // Each proxy appends the address it saw; the rightmost hop not a proxy of ours is the client.
  for (auto it = hops.rbegin(); it != hops.rend(); ++it) {
    const auto address = canonical_address(*it);
    if (!address) return peer_text;  // a garbled header: believe nothing in it
    if (trusted_proxies.count(*address) == 0) return *address;
  }
  return peer_text;
}

}  // namespace castra::net
