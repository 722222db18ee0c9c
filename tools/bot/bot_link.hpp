// BotLink: a bot's connection to the server that outlives losing it. It says Hello, signs in
// (registering the account when it does not exist yet), keeps the session's resume token,
// paces its requests under the rate the server announced in its HelloResult, and after a lost
// connection reconnects with backoff and resumes the session. Used by BotPlayer (castra-bot
// and the BotGames tests); blocking, one thread uses a BotLink at a time.
// In a cluster it follows ERROR_MATCH_ELSEWHERE (client/net/elsewhere.hpp): a request
// answered so is asked again at the owner's URL, through the same reconnect (the session
// resumed with its token), or again where it is after retry_after_ms while the match moves.
// Its one connection moves to the owner: lobby and accounts are served by every node. A
// connection the owner's URL cannot reach (the owner died) falls back to LinkOptions::server.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "client/net/elsewhere.hpp"
#include "client/net/protocol_client.hpp"
#include "proto/castra/v1/protocol.pb.h"

namespace castra::bot {

struct LinkOptions {
  // The server's address (ws://HOST:PORT/ws), asked again before every reconnect so that a
  // server that came back elsewhere is found (tests restart it on a new port).
  std::function<std::string()> server;
  std::string name;
  std::string password;
  client::ClientOptions client;
  std::chrono::milliseconds reply_timeout{10000};
  // Reconnecting stops after this long without success.
  std::chrono::milliseconds give_up_after{60000};
  // Progress lines for people (connects, reconnects); may be empty.
  std::function<void(const std::string&)> log;
  // Fault injection for tests: true drops the connection right after sending this request,
  // as if its reply were lost on the way. Empty: never.
  std::function<bool(const v1::ClientEnvelope&)> lose_reply;
};

class BotLink {
 public:
  explicit BotLink(LinkOptions options);
  ~BotLink();
  BotLink(const BotLink&) = delete;
  BotLink& operator=(const BotLink&) = delete;

  // Connects and signs in: Login, or Register when the account does not exist. False, with
  // error(), when that fails.
  bool open();
  // The reply to `request`, after following redirects (the same request again, so a command
  // keeps its client_seq); nullopt when the connection was lost (lost() is then true).
  std::optional<v1::ServerEnvelope> call(v1::ClientEnvelope request);
  // The next push within `timeout`; nullopt on timeout or when the connection was lost.
  std::optional<v1::ServerEnvelope> next_push(std::chrono::milliseconds timeout);
  bool lost() const { return client_ == nullptr; }
  // Connects again, with backoff, and resumes the session with its token (or logs in again
  // when the server no longer knows the token). False, with error(), after give_up_after.
  bool reconnect();

  const std::string& error() const { return error_; }
  // The account's name as the server spells it.
  const std::string& name() const { return name_; }
  int reconnects() const { return reconnects_; }
  // Redirects followed to a match's owner (ERROR_MATCH_ELSEWHERE with a URL).
  int redirects() const { return redirects_; }
  // Where the link is now: the owner it was sent to, else LinkOptions::server.
  std::string where() const;
  // True once after the connection moved to another node (a redirect, or a Notice that this
  // node stopped hosting a match): the caller's subscriptions stayed behind, so it
  // subscribes again.
  bool take_moved() { return std::exchange(moved_, false); }
  // One progress line to LinkOptions::log, if there is one.
  void note(const std::string& line) const;

 private:
  bool connect_once();
  bool sign_in();
  bool resume();
  void pace();
  void drop(const std::string& why);
  // Follows one ERROR_MATCH_ELSEWHERE; false when the link was lost doing so.
  bool follow(const client::Elsewhere& where);

  LinkOptions options_;
  std::unique_ptr<client::ProtocolClient> client_;
  std::string token_;
  std::string name_;
  std::string error_;
  int reconnects_ = 0;
  int redirects_ = 0;
  bool moved_ = false;
  std::string owner_url_;  // the node a redirect sent the link to; empty: options_.server
  // The client side of the server's token bucket: never more than the server allows.
  double rate_ = 0;
  double burst_ = 0;
  double tokens_ = 0;
  std::chrono::steady_clock::time_point refilled_;
};

}  // namespace castra::bot
