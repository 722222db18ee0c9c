// Reading requests: one frame as it came (binary or text) on a connection of either encoding,
// to a ClientEnvelope, or the error its client is answered with and the request_id the frame
// names where one can be read. The same checks for both encodings (docs/protocol.md,
// "Encodings"). Any thread; called on the network's.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "proto/castra/v1/protocol.pb.h"
#include "server/base/encoding.hpp"
#include "server/base/failure.hpp"

namespace castra::server {

struct ReadRequest {
  std::shared_ptr<castra::v1::ClientEnvelope> request;  // null when refused
  std::uint64_t request_id = 0;                         // a refused frame's, 0 if unreadable
  Failure failure;                                      // why refused
};

ReadRequest read_request(const std::string& frame, bool text, Encoding encoding);

}  // namespace castra::server
