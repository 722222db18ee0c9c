#include "server/admin/admin_client.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <iostream>

namespace castra::admin {

int run_admin_client(const std::string& socket_path, const std::string& line) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (socket_path.size() >= sizeof addr.sun_path) {
    std::cerr << "admin socket path too long: " << socket_path << "\n";
    return 2;
  }
  std::memcpy(addr.sun_path, socket_path.c_str(), socket_path.size() + 1);
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0 || connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    std::cerr << "cannot reach the server's admin socket " << socket_path << ": "
              << std::strerror(errno) << "\n";
    if (fd >= 0) close(fd);
    return 2;
  }
  timeval tv{15, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  const std::string request = line + "\n";
  if (send(fd, request.data(), request.size(), MSG_NOSIGNAL) !=
      static_cast<ssize_t>(request.size())) {
    std::cerr << "admin socket: send failed\n";
    close(fd);
    return 2;
  }
  std::string answer;
  char buf[4096];
  ssize_t n = 0;
  while ((n = recv(fd, buf, sizeof buf, 0)) > 0)
    answer.append(buf, static_cast<std::size_t>(n));
  close(fd);
  std::cout << answer << std::flush;
  if (answer.rfind("ok", 0) == 0) return 0;
  return answer.empty() ? 2 : 1;
}

}  // namespace castra::admin
