#include "common/match/crypto.hpp"

#include <sodium.h>

#include <cstdlib>

namespace castra::match {

namespace {
// libsodium must be initialised once before use; sodium_init is idempotent and thread-safe.
void ensure_sodium() {
  static const int ready = sodium_init();
  if (ready < 0) std::abort();  // no usable libsodium: nothing Castra computes can be trusted
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

Bytes32 sha256(std::string_view bytes) {
  ensure_sodium();
  Bytes32 out{};
  crypto_hash_sha256(out.data(), reinterpret_cast<const unsigned char*>(bytes.data()),
                     bytes.size());
  return out;
}

Bytes32 hmac_sha256(const Bytes32& key, std::string_view message) {
  ensure_sodium();
  Bytes32 out{};
  crypto_auth_hmacsha256_state state;
  crypto_auth_hmacsha256_init(&state, key.data(), key.size());
  crypto_auth_hmacsha256_update(&state, reinterpret_cast<const unsigned char*>(message.data()),
                                message.size());
  crypto_auth_hmacsha256_final(&state, out.data());
  return out;
}

std::string to_hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 0xf]);
  }
  return out;
}

std::string to_hex(const Bytes32& bytes) {
  return to_hex(as_view(bytes));
}

std::optional<std::string> bytes_from_hex(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  std::string out;
  out.reserve(hex.size() / 2);
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int hi = hex_value(hex[i]);
    const int lo = hex_value(hex[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return out;
}

std::optional<Bytes32> bytes32_from_hex(std::string_view hex) {
  if (hex.size() != 64) return std::nullopt;
  auto bytes = bytes_from_hex(hex);
  if (!bytes) return std::nullopt;
  Bytes32 out{};
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<std::uint8_t>((*bytes)[i]);
  return out;
}

}  // namespace castra::match
