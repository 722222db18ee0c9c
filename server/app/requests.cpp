#include "server/app/requests.hpp"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/unknown_field_set.h>

#include <charconv>
#include <cmath>

namespace castra::server {

namespace v1 = castra::v1;

namespace {

ReadRequest refused(std::uint64_t request_id, Failure failure) {
  return ReadRequest{nullptr, request_id, std::move(failure)};
}

ReadRequest accepted(std::shared_ptr<v1::ClientEnvelope> request) {
  return ReadRequest{std::move(request), 0, Failure{}};
}

// The request_id of a binary frame that is not a valid ClientEnvelope (a string field of
// invalid UTF-8, say) when its wire format still says one, so the client can tie the error to
// its request; 0 otherwise.
std::uint64_t binary_request_id(const std::string& frame) {
  google::protobuf::UnknownFieldSet fields;
  if (!fields.ParseFromString(frame)) return 0;
  std::uint64_t id = 0;
  for (int i = 0; i < fields.field_count(); ++i) {
    const auto& f = fields.field(i);
    // The last occurrence wins, as protobuf's own parser would take it.
    if (f.number() == v1::ClientEnvelope::kRequestIdFieldNumber &&
        f.type() == google::protobuf::UnknownField::TYPE_VARINT) {
      id = f.varint();
    }
  }
  return id;
}

bool is_request_id(const std::string& key) {
  return key == "request_id" || key == "requestId";
}

// The request_id of a JSON object, as a number or as the string the mapping prints; 0 when it
// names none that reads as one.
std::uint64_t json_request_id(const google::protobuf::Struct& object) {
  std::uint64_t id = 0;
  for (const auto& [key, value] : object.fields()) {
    if (!is_request_id(key)) continue;
    if (value.has_number_value()) {
      const double n = value.number_value();
      if (n >= 1 && n < 9007199254740992.0 && std::floor(n) == n)
        id = static_cast<std::uint64_t>(n);
    } else if (value.has_string_value()) {
      const std::string& s = value.string_value();
      std::uint64_t parsed = 0;
      const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), parsed);
      if (ec == std::errc() && end == s.data() + s.size()) id = parsed;
    }
  }
  return id;
}

// Whether every member of `object` but its request_id is a name ClientEnvelope does not have:
// a request kind of a later minor version, answered as the binary one is
// (ERROR_UNKNOWN_MESSAGE), not as a malformed frame.
bool only_unknown_kinds(const google::protobuf::Struct& object) {
  const auto* descriptor = v1::ClientEnvelope::descriptor();
  bool any = false;
  for (const auto& [key, value] : object.fields()) {
    if (is_request_id(key)) continue;
    if (descriptor->FindFieldByName(key) != nullptr ||
        descriptor->FindFieldByCamelcaseName(key) != nullptr) {
      return false;
    }
    any = true;
  }
  return any;
}

ReadRequest read_binary(const std::string& frame, bool text) {
  if (text)
    return refused(0, fail(v1::ERROR_MALFORMED, "frames are binary protobuf ClientEnvelopes"));
  auto request = std::make_shared<v1::ClientEnvelope>();
  if (!request->ParseFromString(frame)) {
    return refused(binary_request_id(frame),
                   fail(v1::ERROR_MALFORMED, "not a castra.v1.ClientEnvelope"));
  }
  return accepted(std::move(request));
}

ReadRequest read_text(const std::string& frame, bool text) {
  if (!text) {
    return refused(0, fail(v1::ERROR_MALFORMED,
                           "this connection speaks castra.v1.json: frames are ClientEnvelopes "
                           "in protobuf's JSON mapping, as text"));
  }
  auto request = std::make_shared<v1::ClientEnvelope>();
  std::string why;
  if (read_json(frame, request.get(), &why)) return accepted(std::move(request));
  google::protobuf::Struct object;
  if (!read_json(frame, &object, nullptr)) {
    return refused(0, fail(v1::ERROR_MALFORMED, "not a JSON ClientEnvelope: " + why));
  }
  const std::uint64_t id = json_request_id(object);
  if (only_unknown_kinds(object)) {
    auto unknown = std::make_shared<v1::ClientEnvelope>();
    unknown->set_request_id(id);  // the dispatcher answers as it answers any unknown kind
    return accepted(std::move(unknown));
  }
  return refused(id, fail(v1::ERROR_MALFORMED, "not a castra.v1.ClientEnvelope: " + why));
}

}  // namespace

ReadRequest read_request(const std::string& frame, bool text, Encoding encoding) {
  return encoding == Encoding::kJson ? read_text(frame, text) : read_binary(frame, text);
}

}  // namespace castra::server
