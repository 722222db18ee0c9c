// Elsewhere: what a cluster's answer ERROR_MATCH_ELSEWHERE (docs/protocol.md) tells a client
// to do: reconnect to the owner's URL, or, while the match moves between nodes (no URL), ask
// again where it is after retry_after_ms. Read in one place so that every client program
// (castra-bot, castra-client, the tests) follows it the same way. Values in, values out.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "proto/castra/v1/protocol.pb.h"

namespace castra::client {

struct Elsewhere {
  std::string owner_url;  // empty: the match is moving; ask again here after `retry_after`
  std::chrono::milliseconds retry_after{0};
};

// The redirect an Error reply carries; nullopt for any other answer.
inline std::optional<Elsewhere> elsewhere(const castra::v1::ServerEnvelope& reply) {
  if (!reply.has_error() || reply.error().code() != castra::v1::ERROR_MATCH_ELSEWHERE)
    return std::nullopt;
  // A floor of 50 ms: a node that names no delay is not asked again in a tight loop.
  const auto wait =
      std::chrono::milliseconds(std::max<std::uint64_t>(50, reply.error().retry_after_ms()));
  return Elsewhere{reply.error().owner_url(), wait};
}

// Whether a push says this node stopped hosting one of our matches (its room is gone: the
// client subscribes again, and is told where).
inline bool match_left_this_node(const castra::v1::ServerEnvelope& push) {
  return push.has_notice() && push.notice().code() == castra::v1::ERROR_MATCH_ELSEWHERE;
}

}  // namespace castra::client
