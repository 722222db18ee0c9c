// What the lobby and the campaigns share: random ids, seeds and invitation codes from the OS
// CSPRNG (libsodium), and how a store failure reaches a player (overload is "busy, retry",
// anything else ERROR_INTERNAL and a log line; never a rule's refusal).
#pragma once

#include <cstddef>
#include <string>

#include "server/base/failure.hpp"
#include "server/store/sqlite.hpp"

namespace castra::lobby {

std::string random_bytes(std::size_t n);
// 2n lower-case hex digits of n random bytes: match and campaign ids are random_hex(16).
std::string random_hex(std::size_t n);
// Ten characters of Crockford's base32 without the letters people misread.
std::string random_invitation_code();
server::Failure storage_failure(const store::Status& s, const char* what);
// A fenced append (store::is_fenced): the match moved to another node of the cluster; the
// client asks again and is told where (ERROR_MATCH_ELSEWHERE).
server::Failure moved_failure(const store::Status& s);

}  // namespace castra::lobby
