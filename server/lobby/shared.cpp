#include "server/lobby/shared.hpp"

#include <sodium.h>
#include <spdlog/spdlog.h>

#include "common/match/crypto.hpp"
#include "server/store/sql_access.hpp"

namespace castra::lobby {

namespace {
constexpr std::size_t kInvitationLength = 10;
}  // namespace

std::string random_bytes(std::size_t n) {
  std::string raw(n, '\0');
  randombytes_buf(raw.data(), raw.size());
  return raw;
}

std::string random_hex(std::size_t n) {
  return match::to_hex(std::string_view(random_bytes(n)));
}

std::string random_invitation_code() {
  static constexpr char kAlphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  std::string code;
  for (std::size_t i = 0; i < kInvitationLength; ++i)
    code += kAlphabet[randombytes_uniform(32)];
  return code;
}

server::Failure moved_failure(const store::Status& s) {
  spdlog::info("event=match_moved error=\"{}\"", s.message);
  return server::fail(castra::v1::ERROR_MATCH_ELSEWHERE,
                      "another node of the cluster hosts this match now; ask again", 500);
}

server::Failure storage_failure(const store::Status& s, const char* what) {
  if (store::is_queue_full(s)) {
    return server::fail(castra::v1::ERROR_SERVER_BUSY, "the server is busy; try again", 1000);
  }
  if (store::is_fenced(s)) return moved_failure(s);
  spdlog::error("event=store_failed what={} code={} error=\"{}\"", what, s.code, s.message);
  return server::fail(castra::v1::ERROR_INTERNAL, "the server could not store this; try again");
}

}  // namespace castra::lobby
