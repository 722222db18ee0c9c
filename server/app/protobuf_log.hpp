// Protobuf's own log lines (a string field that is not UTF-8 in a client's message, say) go to
// the server's log, with its format and level, instead of straight to stderr: a client could
// otherwise write a line to stderr per message, outside every --log-level. Call once, at
// start-up, before any thread parses a message (protobuf's SetLogHandler is not thread-safe).
#pragma once

namespace castra::server {

void log_protobuf_through_spdlog();

}  // namespace castra::server
