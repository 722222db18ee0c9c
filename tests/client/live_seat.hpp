// Helpers for castra-client's tests against the real castra-server: a player (or guest)
// speaking the protocol from the test as a second program would, the simplest legal answers
// that play a match along, and what the tests read of a replayed STAND! board. One test
// thread uses them.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "client/net/protocol_client.hpp"
#include "tests/client/client_support.hpp"

namespace castra::testing::live {

using namespace std::chrono_literals;

constexpr const char* kNeedsRuntime =
    "the server answered SubscribeMatch without a MatchUpdate: its match runtime is missing "
    "or broken";

// castra-server's flags for these tests (the cheapest password hashing), and the password
// each account the tests register has.
std::vector<std::string> server_flags();
std::string password_of(const std::string& name);

// One player (or guest) speaking the protocol from the test, as a second program would.
struct Seat {
  std::unique_ptr<client::ProtocolClient> c;
  std::string name;
  v1::Side side = v1::SIDE_A;
  std::uint64_t seq = 0;
  std::string match_id;

  static Seat connect(const std::string& url) {
    Seat s;
    std::string error;
    s.c = client::ProtocolClient::connect(url, 5s, &error);
    EXPECT_TRUE(s.c) << error;
    if (s.c) {
      EXPECT_TRUE(s.c->hello(5s, &error)) << error;
    }
    return s;
  }
  v1::ServerEnvelope call(v1::ClientEnvelope e) {
    std::string error;
    auto r = c->call(std::move(e), 10s, &error);
    EXPECT_TRUE(r) << error;
    return r ? *r : v1::ServerEnvelope{};
  }
  // A guest (signed in without an account): what a spectator in the lobby is.
  static Seat guest(const std::string& url) {
    Seat s = connect(url);
    s.call(client::requests::guest());
    return s;
  }
  static Seat registered(const std::string& url, const std::string& name) {
    Seat s = connect(url);
    s.name = name;
    const auto r = s.call(client::requests::register_account(name, password_of(name)));
    EXPECT_TRUE(r.has_session()) << r.DebugString();
    return s;
  }
  // A live match of `scenario` with `side` for the creator, spectators `delay` turns behind
  // and `grace` seconds of disconnect grace.
  std::string create(const std::string& scenario, v1::Side side, std::uint32_t delay = 0,
                     std::uint32_t grace = 0) {
    auto e = client::requests::create_match(scenario, true);
    e.mutable_create_match()->mutable_settings()->set_creator_side(side);
    e.mutable_create_match()->mutable_settings()->set_spectator_delay_turns(delay);
    auto* tc = e.mutable_create_match()->mutable_settings()->mutable_time_control();
    tc->set_kind(v1::TimeControl::LIVE);
    tc->set_seconds_per_move(3600);
    tc->set_disconnect_grace_seconds(grace);
    const auto r = call(e);
    EXPECT_TRUE(r.has_match_created()) << r.DebugString();
    match_id = r.match_created().match().match_id();
    this->side = side;
    v1::ClientEnvelope p;
    p.mutable_provide_entropy()->set_match_id(match_id);
    p.mutable_provide_entropy()->set_entropy(std::string(32, 'a'));
    EXPECT_TRUE(call(p).has_done());
    return match_id;
  }
  void join(const std::string& id) {
    const auto r = call(client::requests::join_match(id, std::string(32, 'b')));
    EXPECT_TRUE(r.has_match_joined()) << r.DebugString();
    match_id = id;
    side = r.match_joined().match().my_side();
  }
  // Subscribes; the first MatchUpdate (the catch-up), or nullopt when none comes: a server
  // without the match runtime.
  std::optional<v1::MatchUpdate> subscribe() {
    const auto r = call(client::requests::subscribe(match_id));
    EXPECT_TRUE(r.has_subscribed()) << r.DebugString();
    return next_update(5s);
  }
  std::optional<v1::MatchUpdate> next_update(std::chrono::milliseconds timeout) {
    const auto until = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < until) {
      std::string error;
      auto push = c->next_push(100ms, &error);
      if (push && push->has_match_update() && push->match_update().match_id() == match_id)
        return push->match_update();
    }
    return std::nullopt;
  }
  v1::CommandResult submit(const v1::GameCommand& command) {
    v1::ClientEnvelope e;
    e.mutable_submit_command()->set_match_id(match_id);
    e.mutable_submit_command()->set_client_seq(++seq);
    *e.mutable_submit_command()->mutable_command() = command;
    const auto r = call(e);
    EXPECT_TRUE(r.has_command_result()) << r.DebugString();
    EXPECT_TRUE(r.command_result().accepted()) << r.DebugString();
    events_after_last_command = r.command_result().event_count();
    return r.command_result();
  }
  // Acts on an update when it asks this side to, and is not older than our last command
  // (updates queued before it still show the list it answered).
  void answer(const v1::MatchUpdate& u,
              const std::function<std::optional<v1::GameCommand>(const v1::GameLegal&)>& choose) {
    if (!u.your_move() || !u.has_legal()) return;
    const auto* view = testing::view_of(u);
    if (view != nullptr && view->event_count() < events_after_last_command) return;
    if (auto c = choose(u.legal())) submit(*c);
  }
  std::uint64_t events_after_last_command = 0;
};

// `seat` resigns match `id`; whether the server agreed.
bool resigned(Seat& seat, const std::string& id);
// The record of ended match `id`, as `seat` is given it (an error envelope if none).
v1::ServerEnvelope ended_record(Seat& seat, const std::string& id);
// The simplest legal answer for a side: orders cards of just the start squares, the first
// deployment listed, otherwise the end of the phase. Nothing when there is nothing to do.
std::optional<v1::GameCommand> simple_answer(const v1::GameLegal& legal);
// Plays `seat`'s side with simple_answer() until `stop` says so, starting with `first` (the
// update its subscription brought); its last update.
v1::MatchUpdate play_simply(Seat& seat, std::optional<v1::MatchUpdate> first,
                            const std::function<bool(const v1::MatchUpdate&)>& stop,
                            std::chrono::seconds timeout);
// Both sides of a STAND! match deploy with simple_answer(), from the updates their
// subscriptions brought; then the side that moves first and its update.
std::pair<Seat*, v1::MatchUpdate> deploy_both(Seat& a, v1::MatchUpdate first_a, Seat& b,
                                              v1::MatchUpdate first_b);
// A fresh directory for one client run, and the log castra-client wrote there.
std::string dir_for(const std::string& name);
std::string log_of(const std::string& dir);
// The start of a client script: connect, register `name` (password `name`-password) by clicks
// and wait for the lobby.
std::string register_by_clicks(const std::string& name);
// Who holds a STAND! hex in a picture: its side, or nothing.
std::optional<v1::Side> holder(const v1::Snapshot& snap, const v1::Coord& hex);
// Pixels of either side's counter colour within `reach` hex sizes of a hex's centre.
int counter_pixels(const Picture& p, const v1::Coord& hex, double reach);
// Plays both sides with simple_answer() until an update says game turn `turn` has begun.
void play_until_turn(Seat& a, Seat& b, int turn);

}  // namespace castra::testing::live
