// The client side of the admin socket, for `castra-server admin ...`: sends one command line
// and prints the answer. Plain POSIX sockets; called from main on its thread.
#pragma once

#include <string>

namespace castra::admin {

// 0 when the server answered "ok", 1 when it answered "error", 2 when it could not be reached.
int run_admin_client(const std::string& socket_path, const std::string& line);

}  // namespace castra::admin
