#include "tools/load/json_glance.hpp"

#include <google/protobuf/util/json_util.h>

#include <charconv>
#include <cstdint>
#include <initializer_list>

namespace castra::load {

namespace {

constexpr std::size_t kBad = std::string_view::npos;

std::size_t skip_space(std::string_view s, std::size_t i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
    ++i;
  return i;
}

// Past the closing quote of the string whose opening quote is at `i`.
std::size_t skip_string(std::string_view s, std::size_t i) {
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\') {
      ++i;
    } else if (s[i] == '"') {
      return i + 1;
    }
  }
  return kBad;
}

// Past the value that starts at `i`: a string, an object or array (brackets counted, strings
// skipped whole), or a literal up to the next delimiter.
std::size_t skip_value(std::string_view s, std::size_t i) {
  if (i >= s.size()) return kBad;
  if (s[i] == '"') return skip_string(s, i);
  if (s[i] == '{' || s[i] == '[') {
    int depth = 0;
    while (i < s.size()) {
      const char c = s[i];
      if (c == '"') {
        i = skip_string(s, i);
        if (i == kBad) return kBad;
        continue;
      }
      if (c == '{' || c == '[') ++depth;
      if ((c == '}' || c == ']') && --depth == 0) return i + 1;
      ++i;
    }
    return kBad;
  }
  while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']' && skip_space(s, i) == i)
    ++i;
  return i;
}

// An unsigned number, bare or quoted (the JSON mapping quotes 64-bit integers).
std::optional<std::uint64_t> read_unsigned(std::string_view v) {
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size()) return std::nullopt;
  return n;
}

// A string member's text; protobuf prints ids without escapes, so a backslash is refused.
std::optional<std::string_view> read_string(std::string_view v) {
  if (v.size() < 2 || v.front() != '"' || v.back() != '"') return std::nullopt;
  v = v.substr(1, v.size() - 2);
  if (v.find('\\') != std::string_view::npos) return std::nullopt;
  return v;
}

bool read_snapshot(std::string_view object, castra::v1::Snapshot* out) {
  std::optional<std::string_view> m[2];
  if (!json_members(object, {"entry_count", "ended"}, m)) return false;
  if (const auto& count = m[0]) {
    const auto n = read_unsigned(*count);
    if (!n || *n > UINT32_MAX) return false;
    out->set_entry_count(static_cast<std::uint32_t>(*n));
  }
  if (const auto& ended = m[1]) {
    if (*ended != "true" && *ended != "false") return false;
    out->set_ended(*ended == "true");
  }
  return true;
}

bool read_update(std::string_view object, castra::v1::MatchUpdate* out) {
  std::optional<std::string_view> m[4];
  if (!json_members(object, {"match_id", "snapshot", "status", "record"}, m)) return false;
  const auto match_id = m[0] ? read_string(*m[0]) : std::nullopt;
  if (!match_id) return false;
  out->set_match_id(std::string(*match_id));
  if (m[1] && !read_snapshot(*m[1], out->mutable_snapshot())) return false;
  if (m[2] && !read_snapshot(*m[2], out->mutable_status())) return false;
  // Only its presence matters to the generator: the match is over.
  if (m[3]) out->mutable_record();
  return true;
}

}  // namespace

bool json_members(std::string_view object, std::initializer_list<std::string_view> keys,
                  std::optional<std::string_view>* found) {
  std::size_t i = skip_space(object, 0);
  if (i >= object.size() || object[i] != '{') return false;
  i = skip_space(object, i + 1);
  if (i < object.size() && object[i] == '}') return true;
  while (i < object.size() && object[i] == '"') {
    const std::size_t key_end = skip_string(object, i);
    if (key_end == kBad) return false;
    const std::string_view name = object.substr(i + 1, key_end - i - 2);
    i = skip_space(object, key_end);
    if (i >= object.size() || object[i] != ':') return false;
    const std::size_t start = skip_space(object, i + 1);
    const std::size_t end = skip_value(object, start);
    if (end == kBad) return false;
    std::size_t k = 0;
    for (const std::string_view wanted : keys) {
      if (name == wanted) found[k] = object.substr(start, end - start);
      ++k;
    }
    i = skip_space(object, end);
    if (i < object.size() && object[i] == '}') return true;
    if (i >= object.size() || object[i] != ',') return false;
    i = skip_space(object, i + 1);
  }
  return false;
}

bool glance_json(std::string_view frame, castra::v1::ServerEnvelope* out) {
  out->Clear();
  std::optional<std::string_view> m[3];
  if (!json_members(frame, {"request_id", "match_update", "match_ended"}, m)) return false;
  std::uint64_t id = 0;
  if (const auto& r = m[0]) {
    const auto n = read_unsigned(*r);
    if (!n) return false;
    id = *n;
  }
  if (id != 0) {
    google::protobuf::util::JsonParseOptions options;
    options.ignore_unknown_fields = true;
    const google::protobuf::StringPiece text(frame.data(), frame.size());
    return google::protobuf::util::JsonStringToMessage(text, out, options).ok();
  }
  if (m[1]) return read_update(*m[1], out->mutable_match_update());
  if (m[2]) {
    std::optional<std::string_view> id_text;
    if (!json_members(*m[2], {"match_id"}, &id_text)) return false;
    const auto match_id = id_text ? read_string(*id_text) : std::nullopt;
    if (!match_id) return false;
    out->mutable_match_ended()->set_match_id(std::string(*match_id));
  }
  return true;
}

}  // namespace castra::load
