// Dispatcher: the one dispatch point. A table of request kinds, each with what it requires
// (a greeting, an identity, a well-formed body, a match, a seat in it, the turn); every check
// runs here, once, before any handler, so handlers only do domain work (Redis style). Service
// thread only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "proto/castra/v1/protocol.pb.h"
#include "server/base/failure.hpp"
#include "server/dispatch/clients.hpp"
#include "server/dispatch/reply.hpp"
#include "server/store/match_store.hpp"

namespace castra::dispatch {

enum class Access {
  kAnyone,      // Hello only
  kGreeted,     // after Hello
  kSigningIn,   // after Hello, not signed in to an account, no sign-in running
  kIdentified,  // a guest or an account
  kAccount,     // an account
};

enum class MatchCheck {
  kNone,
  kExists,  // the request's match_id names a match
  kSeated,  // ... in which the caller has a seat
};

// One request on its way to its handler, with what the checks found.
struct Call {
  Client& client;
  const castra::v1::ClientEnvelope& request;
  Reply reply;
  std::optional<store::MatchRow> match;  // MatchCheck other than kNone
  int side = -1;                         // kSeated: 0 for A, 1 for B
};

class Handlers;

struct Route {
  castra::v1::ClientEnvelope::BodyCase kind;
  const char* name;  // the metrics label and the log's `kind`
  Access access;
  MatchCheck match;
  // The body's match id (MatchCheck other than kNone).
  const std::string& (*match_id)(const castra::v1::ClientEnvelope&);
  // A failure when the body is not well-formed; null: any body is.
  std::optional<server::Failure> (*form)(const castra::v1::ClientEnvelope&);
  void (Handlers::*handle)(Call&);
};

// Every request kind. Index in this table = the kind's metrics index; one more label follows,
// "unknown" (a frame that is no ClientEnvelope is counted by its error, ERROR_MALFORMED).
const std::vector<Route>& routes();
std::vector<std::string> metric_kinds();
inline constexpr std::size_t kUnknownKind = 0;  // offset from routes().size()

class MatchLookup {
 public:
  virtual ~MatchLookup() = default;
  virtual std::optional<store::MatchRow> find(const std::string& match_id) = 0;
  // Cluster mode: ERROR_MATCH_ELSEWHERE (with the owner's URL when it has one) when another
  // node hosts the unfinished match `row`; nothing when this node serves it.
  virtual std::optional<server::Failure> elsewhere(const store::MatchRow& /*row*/) {
    return std::nullopt;
  }
};

class Dispatcher {
 public:
  Dispatcher(Clients& clients, MatchLookup& matches, Handlers& handlers, server::Metrics* metrics);
  // Checks `request` against its route and runs the handler; exactly one reply follows.
  void dispatch(std::uint64_t client_id, const castra::v1::ClientEnvelope& request,
                Clock::time_point received);

 private:
  std::optional<server::Failure> check_access(const Route& route, const Client& client) const;
  std::optional<server::Failure> check_match(const Route& route, Call& call);

  Clients& clients_;
  MatchLookup& matches_;
  Handlers& handlers_;
  server::Metrics* metrics_;
  std::vector<int> index_;  // BodyCase -> route index, -1 for none
};

}  // namespace castra::dispatch
