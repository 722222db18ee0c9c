#include "server/base/encoding.hpp"

#include <google/protobuf/message.h>
#include <google/protobuf/util/json_util.h>

namespace castra::server {

namespace {

// Fixed for every connection and documented in docs/protocol.md: pages and tools read these
// names. The .proto's own names, so that a frame reads like the schema and this repository's
// docs; defaults left out, so that a JSON frame carries what the binary one carries.
google::protobuf::util::JsonPrintOptions print_options() {
  google::protobuf::util::JsonPrintOptions o;
  o.add_whitespace = false;
  o.always_print_primitive_fields = false;
  o.always_print_enums_as_ints = false;
  o.preserve_proto_field_names = true;
  return o;
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

}  // namespace

std::string_view subprotocol_name(Encoding encoding) {
  return encoding == Encoding::kJson ? kJsonSubprotocol : kBinarySubprotocol;
}

std::optional<Encoding> negotiate(std::string_view offered) {
  while (!offered.empty()) {
    const auto comma = offered.find(',');
    const std::string_view name = trimmed(offered.substr(0, comma));
    if (name == kJsonSubprotocol) return Encoding::kJson;
    if (name == kBinarySubprotocol) return Encoding::kBinary;
    if (comma == std::string_view::npos) break;
    offered.remove_prefix(comma + 1);
  }
  return std::nullopt;
}

std::string encode(const google::protobuf::Message& message, Encoding encoding) {
  if (encoding == Encoding::kBinary) return message.SerializeAsString();
  static const auto options = print_options();
  std::string out;
  // Printing a valid message fails only on a bug (a message of no known type).
  const auto status = google::protobuf::util::MessageToJsonString(message, &out, options);
  return status.ok() ? out : std::string();
}

bool read_json(std::string_view text, google::protobuf::Message* message, std::string* error) {
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  options.case_insensitive_enum_parsing = false;
  const auto status = google::protobuf::util::JsonStringToMessage(
      google::protobuf::StringPiece(text.data(), text.size()), message, options);
  if (status.ok()) return true;
  if (error != nullptr) *error = std::string(status.message());
  return false;
}

Frames::Frames(std::shared_ptr<const google::protobuf::Message> envelope)
    : envelope_(std::move(envelope)) {}

const std::shared_ptr<const std::string>& Frames::in(Encoding encoding) const {
  const auto i = static_cast<std::size_t>(encoding);
  std::call_once(once_[i], [&] {
    frames_[i] = std::make_shared<const std::string>(encode(*envelope_, encoding));
  });
  return frames_[i];
}

}  // namespace castra::server
