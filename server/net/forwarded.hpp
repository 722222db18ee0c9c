// The client address behind a TLS proxy: X-Forwarded-For is believed only when the peer is
// one of the configured proxies, and then read from the right, skipping the proxies, so that
// a client cannot forge its address by sending the header itself. Pure; any thread.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace castra::net {

// The canonical text of an IPv4 or IPv6 address (IPv4-mapped IPv6 as IPv4); nullopt if
// `text` is not one.
std::optional<std::string> canonical_address(std::string_view text);

// The address a connection from `peer` stands for, given its X-Forwarded-For header (empty
// if none) and the canonical addresses of the trusted proxies.
std::string client_address(const std::string& peer, std::string_view forwarded_for,
                           const std::set<std::string>& trusted_proxies);

}  // namespace castra::net
