// A player's mistake (or a refused request) as a value: the protocol's ErrorCode
// (proto/castra/v1/protocol.proto) and a message in words. Domain code returns Result<T>; the
// dispatcher turns a Failure into an Error reply. Pure, any thread.
#pragma once

#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "proto/castra/v1/protocol.pb.h"

namespace castra::server {

// The protocol's own enum: a failure carries the code its Error reply will have, and no
// mirror of it can drift from the schema.
using ErrorCode = castra::v1::ErrorCode;

struct Failure {
  ErrorCode code = castra::v1::ERROR_INTERNAL;
  std::string message;
  std::uint64_t retry_after_ms = 0;
  std::string owner_url;  // ERROR_MATCH_ELSEWHERE: where the match is hosted, when known
};

inline Failure fail(ErrorCode code, std::string message, std::uint64_t retry_after_ms = 0) {
  return Failure{code, std::move(message), retry_after_ms, {}};
}

// A value or the reason there is none. Result<void> is spelled Result<Ok>.
struct Ok {};

template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit on purpose
  Result(Failure f) : v_(std::move(f)) {}    // NOLINT
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() {
    assert(ok());
    return std::get<0>(v_);
  }
  const T& value() const {
    assert(ok());
    return std::get<0>(v_);
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() { return value(); }
  const Failure& failure() const {
    assert(!ok());
    return std::get<1>(v_);
  }

 private:
  std::variant<T, Failure> v_;
};

}  // namespace castra::server
