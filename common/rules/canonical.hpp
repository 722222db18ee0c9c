// ByteWriter: the canonical byte encoding used for state hashes and sealed content
// (orders cards). Fixed little-endian integers and length-prefixed strings, so the same
// value gives the same bytes on any machine. Layout rules: docs/formats.md section 1.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace castra::rules {

class ByteWriter {
 public:
  void u8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void boolean(bool v) { u8(v ? 1 : 0); }
  void u16(std::uint16_t v) { fixed(v, 2); }
  void u32(std::uint32_t v) { fixed(v, 4); }
  void u64(std::uint64_t v) { fixed(v, 8); }
  void i32(std::int32_t v) { fixed(static_cast<std::uint32_t>(v), 4); }
  // A string is its byte length as u32, then its bytes.
  void str(std::string_view s) {
    u32(static_cast<std::uint32_t>(s.size()));
    out_.append(s);
  }
  // A tag opens every record so that differently shaped values never share bytes.
  void tag(char c) { u8(static_cast<std::uint8_t>(c)); }

  const std::string& bytes() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  // Little-endian, appended at once (a state's bytes are thousands of these).
  void fixed(std::uint64_t v, int n) {
    char b[8];
    for (int i = 0; i < n; ++i)
      b[i] = static_cast<char>((v >> (8 * i)) & 0xff);
    out_.append(b, static_cast<std::size_t>(n));
  }
  std::string out_;
};

}  // namespace castra::rules
