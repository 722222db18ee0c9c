// The hashes Castra publishes and checks: SHA-256 and HMAC-SHA256 (libsodium), and hex.
// Pure functions, any thread. Every hashed layout is written in docs/formats.md.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace castra::match {

using Bytes32 = std::array<std::uint8_t, 32>;

Bytes32 sha256(std::string_view bytes);
Bytes32 hmac_sha256(const Bytes32& key, std::string_view message);

std::string to_hex(const Bytes32& bytes);
std::string to_hex(std::string_view bytes);
// Parses exactly 64 hex digits; nullopt otherwise.
std::optional<Bytes32> bytes32_from_hex(std::string_view hex);
// Parses any even number of hex digits; nullopt otherwise.
std::optional<std::string> bytes_from_hex(std::string_view hex);

inline std::string_view as_view(const Bytes32& b) {
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

}  // namespace castra::match
