#include "server/app/protobuf_log.hpp"

#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>

#include <string>

namespace castra::server {

namespace {

// What protobuf says below FATAL is about bytes a client sent, which the server answers with
// an error of its own already: a debugging aid, not an operator's event. FATAL ends the process.
void to_spdlog(google::protobuf::LogLevel level, const char* file, int line,
               const std::string& message) {
  const auto to =
      level == google::protobuf::LOGLEVEL_FATAL ? spdlog::level::critical : spdlog::level::debug;
  spdlog::log(to, "event=protobuf_log at={}:{} message=\"{}\"", file, line, message);
}

}  // namespace

void log_protobuf_through_spdlog() {
  google::protobuf::SetLogHandler(&to_spdlog);
}

}  // namespace castra::server
