// Encoding: the two ways a connection carries the protocol's envelopes, chosen once per
// connection by the WebSocket subprotocol its client asks for (docs/protocol.md, "Encodings"):
// binary protobuf in binary frames (the default), or protobuf's JSON mapping in text frames.
// One schema, two encodings: encode() and read_json() are the only places the JSON is written
// or read, always with the options below (json_util; no JSON writer of our own). Any thread.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace google::protobuf {
class Message;
}

namespace castra::server {

enum class Encoding : std::uint8_t { kBinary, kJson };
inline constexpr std::size_t kEncodings = 2;

// The subprotocol names (Sec-WebSocket-Protocol). A client that names neither speaks binary.
inline constexpr std::string_view kBinarySubprotocol = "castra.v1";
inline constexpr std::string_view kJsonSubprotocol = "castra.v1.json";

std::string_view subprotocol_name(Encoding encoding);
// The first of our subprotocols in a client's Sec-WebSocket-Protocol header (a comma-separated
// list in its order of preference); nullopt when it names none of them.
std::optional<Encoding> negotiate(std::string_view offered);

// The bytes of `message` in `encoding`. JSON: field names as in the .proto (snake_case),
// fields at their default left out (as the binary encoding leaves them out), enums by name,
// no whitespace; 64-bit integers are strings and bytes are base64, as the mapping says.
std::string encode(const google::protobuf::Message& message, Encoding encoding);

// Parses JSON text into `message`, refusing fields it does not know; false and `error` (the
// parser's words) otherwise. Field names are accepted in either spelling (request_id or
// requestId), 64-bit integers as numbers or strings.
bool read_json(std::string_view text, google::protobuf::Message* message, std::string* error);

// One envelope on its way to many connections: encoded at most once per encoding, when the
// first connection speaking it needs it, and that frame shared by all of them. Any thread.
class Frames {
 public:
  explicit Frames(std::shared_ptr<const google::protobuf::Message> envelope);
  const std::shared_ptr<const std::string>& in(Encoding encoding) const;

 private:
  std::shared_ptr<const google::protobuf::Message> envelope_;
  mutable std::array<std::once_flag, kEncodings> once_;
  mutable std::array<std::shared_ptr<const std::string>, kEncodings> frames_;
};

}  // namespace castra::server
