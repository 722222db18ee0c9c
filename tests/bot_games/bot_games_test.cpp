// BotGames: two castra-bot players (BotPlayer, the program's own code) play whole matches of
// both rule sets through the real castra-server, one creating the match and the other joining
// it from the open list; the record the server exports verifies offline. A bot whose
// connection is lost mid-game (the server killed and started again) comes back and finishes.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "client/net/protocol_client.hpp"
#include "common/wire/any_match.hpp"
#include "tests/support/server_process.hpp"
#include "tools/bot/bot_link.hpp"
#include "tools/bot/bot_player.hpp"

namespace castra::testing {
namespace {

using namespace std::chrono_literals;
namespace v1 = castra::v1;
using bot::GameResult;
using bot::Seating;
using bot::Strength;

// Cheap password hashing, bots playing as fast as the server answers, the real scenarios.
std::vector<std::string> server_flags() {
  return {"--argon2-opslimit",     "1",      "--argon2-memlimit", "8192",
          "--messages-per-second", "10000",  "--message-burst",   "10000",
          "--durability",          "normal", "--scenarios",       source_dir() + "/scenarios"};
}

// Where the server is now: it moves to a new port when a test starts it again.
class Address {
 public:
  explicit Address(std::string url) : url_(std::move(url)) {}
  void set(std::string url) {
    std::lock_guard lock(mu_);
    url_ = std::move(url);
  }
  std::string get() const {
    std::lock_guard lock(mu_);
    return url_;
  }

 private:
  mutable std::mutex mu_;
  std::string url_;
};

struct Seat {
  std::string name;
  Strength strength;
  Seating seating;
  std::string scenario;
  std::uint64_t seed;
  std::function<bool(const v1::ClientEnvelope&)> lose_reply = {};
};

struct Played {
  GameResult result;
  int reconnects = 0;
  std::string link_error;
};

// One bot, as castra-bot runs it: open the link, then play one match.
Played play_seat(const Address& address, const Seat& seat) {
  bot::LinkOptions lo;
  lo.server = [&address] { return address.get(); };
  lo.name = seat.name;
  lo.password = seat.name + "-password";
  lo.give_up_after = 20s;
  lo.lose_reply = seat.lose_reply;
  bot::BotLink link(std::move(lo));
  Played p;
  if (!link.open()) {
    p.link_error = link.error();
    return p;
  }
  bot::PlayerOptions po;
  po.seating = seat.seating;
  po.scenario = seat.scenario;
  po.strength = seat.strength;
  po.seed = seat.seed;
  po.find_timeout = 20s;
  p.result = bot::BotPlayer(link, po).play_one();
  p.reconnects = link.reconnects();
  return p;
}

// Two bots in their own threads: `a` creates a match of `scenario`, `b` joins it from the
// open list. `meanwhile` runs on the test's thread while they play; `joiner_loses` picks the
// requests whose replies the joiner's connection loses.
std::pair<Played, Played> play_pair(
    const Address& address, const std::string& scenario, Strength a, Strength b, std::uint64_t seed,
    const std::function<void()>& meanwhile = {},
    std::function<bool(const v1::ClientEnvelope&)> joiner_loses = {}) {
  Played first;
  Played second;
  std::thread creator([&] {
    first = play_seat(address, {"creator", a, Seating::kCreate, scenario, seed});
  });
  std::thread joiner([&] {
    second =
        play_seat(address, {"joiner", b, Seating::kJoinOpen, scenario, seed + 1000, joiner_loses});
  });
  if (meanwhile) meanwhile();
  creator.join();
  joiner.join();
  return {std::move(first), std::move(second)};
}

// A guest's connection, for what anyone may ask.
std::unique_ptr<client::ProtocolClient> guest(const std::string& url) {
  std::string error;
  auto c = client::ProtocolClient::connect(url, 5s, &error);
  EXPECT_TRUE(c) << error;
  if (!c) return nullptr;
  EXPECT_TRUE(c->hello(5s, &error)) << error;
  auto session = c->call(client::requests::guest(), 5s, &error);
  EXPECT_TRUE(session && session->has_session()) << error;
  return c;
}

v1::MatchRecord exported(const std::string& url, const std::string& match_id) {
  auto c = guest(url);
  if (!c) return {};
  v1::ClientEnvelope e;
  e.mutable_export_record()->set_match_id(match_id);
  std::string error;
  auto reply = c->call(e, 5s, &error);
  EXPECT_TRUE(reply && reply->has_record()) << error << (reply ? reply->DebugString() : "");
  return reply ? reply->record() : v1::MatchRecord();
}

void expect_finished(const Played& p, const std::string& who) {
  EXPECT_EQ(p.link_error, "") << who;
  EXPECT_TRUE(p.result.finished) << who << " did not finish: " << p.result.error;
  EXPECT_EQ(p.result.refused, 0) << who << " sent a command the server refused";
}

// Both bots played the one match to its end, on opposite sides, and the record the server
// exports is the one they were sent and verifies offline.
void expect_a_verified_end(const Address& address, const std::pair<Played, Played>& pair) {
  const auto& [a, b] = pair;
  expect_finished(a, "the creator");
  expect_finished(b, "the joiner");
  if (!a.result.finished || !b.result.finished) return;
  EXPECT_EQ(a.result.match_id, b.result.match_id);
  EXPECT_NE(a.result.side, b.result.side);
  EXPECT_GT(a.result.commands + b.result.commands, 10);
  const v1::MatchRecord record = exported(address.get(), a.result.match_id);
  EXPECT_EQ(record.SerializeAsString(), a.result.record.SerializeAsString());
  EXPECT_EQ(record.SerializeAsString(), b.result.record.SerializeAsString());
  EXPECT_FALSE(record.outcome().reason().empty());
  EXPECT_EQ(wire::verify_record(record), std::nullopt);
}

void expect_bots_finish(const std::string& scenario, Strength a, Strength b) {
  ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Address address(server.ws_url());
  expect_a_verified_end(address, play_pair(address, scenario, a, b, 7));
}

TEST(BotGames, GreedyAgainstRandomPlayOptioTrainingToAVerifiedEnd) {
  expect_bots_finish("optio/training", Strength::kGreedy, Strength::kRandom);
}

TEST(BotGames, RandomAgainstRandomPlayOptioTrainingToAVerifiedEnd) {
  expect_bots_finish("optio/training", Strength::kRandom, Strength::kRandom);
}

TEST(BotGames, GreedyAgainstRandomPlayOptioCannaeToAVerifiedEnd) {
  expect_bots_finish("optio/cannae", Strength::kGreedy, Strength::kRandom);
}

TEST(BotGames, RandomAgainstRandomPlayOptioCannaeToAVerifiedEnd) {
  expect_bots_finish("optio/cannae", Strength::kRandom, Strength::kRandom);
}

TEST(BotGames, GreedyAgainstRandomPlayStandTrainingToAVerifiedEnd) {
  expect_bots_finish("stand/training", Strength::kGreedy, Strength::kRandom);
}

TEST(BotGames, RandomAgainstRandomPlayStandTrainingToAVerifiedEnd) {
  expect_bots_finish("stand/training", Strength::kRandom, Strength::kRandom);
}

TEST(BotGames, GreedyAgainstRandomPlayStandQadeshToAVerifiedEnd) {
  expect_bots_finish("stand/qadesh", Strength::kGreedy, Strength::kRandom);
}

TEST(BotGames, RandomAgainstRandomPlayStandQadeshToAVerifiedEnd) {
  expect_bots_finish("stand/qadesh", Strength::kRandom, Strength::kRandom);
}

// Waits, as a spectator, until `scenario`'s live match has `entries` log entries; false when
// that did not happen within 20 s (or the match ended first).
bool watch_until(const std::string& url, int entries) {
  auto c = guest(url);
  if (!c) return false;
  std::string error;
  const auto give_up = std::chrono::steady_clock::now() + 20s;
  std::string id;
  while (id.empty() && std::chrono::steady_clock::now() < give_up) {
    auto list = c->call(client::requests::list_matches(v1::MATCH_LIVE), 5s, &error);
    if (list && list->matches().matches_size() > 0) {
      id = list->matches().matches(0).match_id();
    } else {
      std::this_thread::sleep_for(20ms);  // the bots are still seating themselves
    }
  }
  if (id.empty() || !c->call(client::requests::subscribe(id), 5s, &error)) return false;
  while (std::chrono::steady_clock::now() < give_up) {
    auto push = c->next_push(1s, &error);
    if (!push || !push->has_match_update()) continue;
    const auto& u = push->match_update();
    const v1::Snapshot& now = u.has_snapshot() ? u.snapshot() : u.status();
    if (now.ended()) return false;
    if (now.entry_count() >= static_cast<std::uint32_t>(entries)) return true;
  }
  return false;
}

TEST(BotGames, BotsWhoseServerIsKilledMidGameReconnectAndFinishTheMatch) {
  const std::string dir = make_temp_dir("castra-bot-games");
  auto server = std::make_unique<ServerProcess>(server_flags(), dir);
  ASSERT_TRUE(server->started()) << server->log();
  Address address(server->ws_url());
  bool killed = false;
  auto pair = play_pair(address, "optio/cannae", Strength::kGreedy, Strength::kRandom, 11, [&] {
    if (!watch_until(address.get(), 12)) return;
    server->signal(SIGKILL);
    server->wait(5s);
    killed = true;
    server = std::make_unique<ServerProcess>(server_flags(), dir);
    if (server->started()) address.set(server->ws_url());
  });
  ASSERT_TRUE(killed) << "the match was not seen in play";
  ASSERT_TRUE(server->started()) << server->log();
  expect_a_verified_end(address, pair);
  EXPECT_GE(pair.first.reconnects, 1);
  EXPECT_GE(pair.second.reconnects, 1);
  // Whether a command was caught in flight by the kill depends on timing; it is shown.
  RecordProperty("commands_sent_again",
                 std::to_string(pair.first.result.resent + pair.second.result.resent));
}

TEST(BotGames, ABotThatLosesTheAnswerToItsCommandSendsItAgainAndFinishesTheMatch) {
  ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Address address(server.ws_url());
  // The joiner's connection goes down right after its 3rd command is sent, and twice in a
  // row for its 8th (sends 9 and 10: the command, then its first repeat).
  int submits = 0;
  auto lose = [&submits](const v1::ClientEnvelope& e) {
    if (!e.has_submit_command()) return false;
    ++submits;
    return submits == 3 || submits == 9 || submits == 10;
  };
  auto pair = play_pair(address, "optio/cannae", Strength::kGreedy, Strength::kRandom, 5, {}, lose);
  expect_a_verified_end(address, pair);
  EXPECT_EQ(pair.second.reconnects, 3);
  EXPECT_EQ(pair.second.result.resent, 3);
  EXPECT_EQ(pair.first.reconnects, 0);
}

// The next match update of `c` that `want` accepts, within 20 s.
std::optional<v1::MatchUpdate> update_where(
    client::ProtocolClient& c, const std::function<bool(const v1::MatchUpdate&)>& want) {
  const auto give_up = std::chrono::steady_clock::now() + 20s;
  std::string error;
  while (std::chrono::steady_clock::now() < give_up) {
    auto push = c.next_push(1s, &error);
    if (push && push->has_match_update() && want(push->match_update())) return push->match_update();
  }
  return std::nullopt;
}

TEST(BotGames, ABotDeclinesADrawOfferAndWinsWhenItsOpponentThenResigns) {
  ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Address address(server.ws_url());
  Played bot_played;
  std::thread bot([&] {
    bot_played =
        play_seat(address, {"bot", Strength::kGreedy, Seating::kCreate, "optio/cannae", 3});
  });
  // A person's client: joins the bot's match, waits for its own move, offers a draw.
  std::string error;
  auto human = client::ProtocolClient::connect(address.get(), 5s, &error);
  ASSERT_TRUE(human && human->hello(5s, &error)) << error;
  ASSERT_TRUE(
      human->call(client::requests::register_account("human", "human-password"), 5s, &error));
  std::string id;
  for (int tries = 0; id.empty() && tries < 500; ++tries) {
    auto list = human->call(client::requests::list_matches(v1::MATCH_OPEN), 5s, &error);
    if (list && list->matches().matches_size() > 0) {
      id = list->matches().matches(0).match_id();
    } else {
      std::this_thread::sleep_for(20ms);  // the bot is still creating it
    }
  }
  ASSERT_FALSE(id.empty());
  ASSERT_TRUE(human->call(client::requests::join_match(id, std::string(32, 'h')), 5s, &error));
  ASSERT_TRUE(human->call(client::requests::subscribe(id), 5s, &error));
  // Once it is the person's move the bot has nothing to play, so only its answer can
  // withdraw the offer.
  ASSERT_TRUE(update_where(*human, [](const v1::MatchUpdate& u) {
    const v1::Snapshot& now = u.has_snapshot() ? u.snapshot() : u.status();
    return u.your_move() && !now.a_to_act();  // the bot created the match: side A
  }));
  v1::ClientEnvelope offer;
  offer.mutable_offer_draw()->set_match_id(id);
  auto offered = human->call(offer, 5s, &error);
  ASSERT_TRUE(offered && !offered->has_error()) << error;
  EXPECT_TRUE(update_where(*human, [](const v1::MatchUpdate& u) { return u.draw_offered(); }));
  EXPECT_TRUE(update_where(*human, [](const v1::MatchUpdate& u) { return !u.draw_offered(); }));
  v1::ClientEnvelope resign;
  resign.mutable_resign()->set_match_id(id);
  auto resigned = human->call(resign, 5s, &error);
  EXPECT_TRUE(resigned && !resigned->has_error()) << error;
  bot.join();
  expect_finished(bot_played, "the bot");
  EXPECT_EQ(bot_played.result.draws_declined, 1);
  EXPECT_EQ(bot_played.result.record.outcome().kind(),
            bot_played.result.side == rules::Side::kA ? v1::Outcome::WIN_A : v1::Outcome::WIN_B);
  EXPECT_EQ(wire::verify_record(bot_played.result.record), std::nullopt);
}

}  // namespace
}  // namespace castra::testing
