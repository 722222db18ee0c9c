// A player's mistake (or a refused request) as a value: an error code from the protocol's
// ErrorCode (same numbers as proto/castra/v1/protocol.proto) and a message in words. Domain
// code returns Result<T>; the dispatcher turns a Failure into an Error reply. Pure, any thread.
#pragma once

#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace castra::server {

// Mirrors castra.v1.ErrorCode; dispatch_test checks that every name and number agree.
enum class ErrorCode : int {
  kMalformed = 1,
  kUnknownMessage = 2,
  kVersionUnsupported = 3,
  kHandshakeRequired = 4,
  kInvalidRequest = 5,
  kFrameTooLarge = 6,
  kRateLimited = 7,
  kTooManyConnections = 8,
  kServerBusy = 9,
  kNotImplemented = 10,
  kInternal = 11,
  kShuttingDown = 12,
  kAlreadyGreeted = 13,
  kNotAuthenticated = 20,
  kAlreadyAuthenticated = 21,
  kGuestNotAllowed = 22,
  kBadCredentials = 23,
  kAccountLocked = 24,
  kAccountBanned = 25,
  kNameTaken = 26,
  kNameInvalid = 27,
  kPasswordInvalid = 28,
  kSessionInvalid = 29,
  kMatchNotFound = 40,
  kScenarioNotFound = 41,
  kMatchFull = 42,
  kMatchNotOpen = 43,
  kAlreadySeated = 44,
  kNotSeated = 45,
  kBadInvitation = 46,
  kSpectatorsNotAllowed = 47,
  kNotSubscribed = 48,
  kTooManyMatches = 49,
  kEntropyAlreadyGiven = 50,
  kNotYourTurn = 60,
  kMatchNotLive = 62,
  kNoDrawOffer = 63,
  kClaimTooEarly = 64,
  kSequenceGap = 65,
};

struct Failure {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
  std::uint64_t retry_after_ms = 0;
};

inline Failure fail(ErrorCode code, std::string message, std::uint64_t retry_after_ms = 0) {
  return Failure{code, std::move(message), retry_after_ms};
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
