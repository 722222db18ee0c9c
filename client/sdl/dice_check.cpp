#include "client/sdl/dice_check.hpp"

#include <sodium.h>

#include <cctype>

namespace castra::client {

namespace {

std::optional<std::string> from_hex(const std::string& hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  std::string out;
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int hi = digit(hex[i]);
    const int lo = digit(hex[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return out;
}

}  // namespace

std::string to_hex(const unsigned char* p, std::size_t n) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  out.reserve(n * 2);
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back(kDigits[p[i] >> 4]);
    out.push_back(kDigits[p[i] & 15]);
  }
  return out;
}

std::optional<bool> dice_seed_matches(const std::string& seed_hex,
                                      const std::string& commitment_hex) {
  if (seed_hex.empty() || commitment_hex.empty()) return std::nullopt;
  const auto seed = from_hex(seed_hex);
  if (!seed) return false;
  const std::string input = std::string("castra/dice-commitment/v1") + *seed;
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(input.data()), input.size());
  std::string commitment = commitment_hex;
  for (auto& c : commitment)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return to_hex(digest, sizeof digest) == commitment;
}

}  // namespace castra::client
