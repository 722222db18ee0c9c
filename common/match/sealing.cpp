#include "common/match/match.hpp"

namespace castra::match {

Bytes32 sealed_commitment(const Bytes32& salt, std::string_view content) {
  rules::ByteWriter w;
  for (char c : std::string_view("castra/sealed/v1"))
    w.u8(static_cast<std::uint8_t>(c));
  w.str(content);
  return hmac_sha256(salt, w.bytes());
}

Bytes32 event_salt(const Bytes32& command_salt, std::uint32_t k) {
  rules::ByteWriter w;
  for (char c : std::string_view("castra/salt/v1"))
    w.u8(static_cast<std::uint8_t>(c));
  w.u32(k);
  return hmac_sha256(command_salt, w.bytes());
}

}  // namespace castra::match
