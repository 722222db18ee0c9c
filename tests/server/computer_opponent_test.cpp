// Playing the computer through the real server: a player creates a match against the
// computer (MatchSettings.computer) in each rule set at each strength, and plays it to its end
// over WebSockets with the rules-blind Picker, acting on the updates his side is pushed; the
// record verifies; the listing names the computer's side and never offers the match to
// others; a computer match survives a server restart mid-game and the computer plays on.
#include <gtest/gtest.h>
#include <signal.h>

#include <optional>
#include <string>
#include <vector>

#include "common/wire/any_match.hpp"
#include "tests/server/picker.hpp"
#include "tests/server/protocol_support.hpp"

namespace castra::testing {
namespace {

namespace req = client::requests;

// The protocol tests' flags with the real scenarios (optio/training, stand/training), fast
// enough for whole games.
std::vector<std::string> flags() {
  return {"--argon2-opslimit",     "1",
          "--argon2-memlimit",     "8192",
          "--scenarios",           source_dir() + "/scenarios",
          "--log-level",           "debug",
          "--messages-per-second", "10000",
          "--message-burst",       "10000"};
}

v1::ClientEnvelope against_computer(const std::string& scenario, v1::ComputerStrength strength,
                                    v1::Side creator_side) {
  v1::ClientEnvelope e = req::create_match(scenario, /*spectators=*/true);
  e.mutable_create_match()->mutable_settings()->set_computer(strength);
  e.mutable_create_match()->mutable_settings()->set_creator_side(creator_side);
  return e;
}

v1::ClientEnvelope sit(const std::string& id) {
  v1::ClientEnvelope e;
  e.mutable_provide_entropy()->set_match_id(id);
  e.mutable_provide_entropy()->set_entropy(client_entropy());
  return e;
}

v1::ClientEnvelope get_legal(const std::string& id) {
  v1::ClientEnvelope e;
  e.mutable_get_legal()->set_match_id(id);
  return e;
}

v1::ClientEnvelope submit(const std::string& id, std::uint64_t seq, const v1::GameCommand& c) {
  v1::ClientEnvelope e;
  auto* s = e.mutable_submit_command();
  s->set_match_id(id);
  s->set_client_seq(seq);
  *s->mutable_command() = c;
  return e;
}

const v1::Snapshot& status_of(const v1::MatchUpdate& u) {
  return u.has_snapshot() ? u.snapshot() : u.status();
}

std::optional<v1::MatchSummary> listed(client::ProtocolClient& c, v1::MatchStatus status,
                                       const std::string& id) {
  const auto list = call(c, req::list_matches(status, 100));
  for (const auto& m : list.matches().matches()) {
    if (m.match_id() == id) return m;
  }
  return std::nullopt;
}

// A human at the table: he acts when the update his side was pushed last says it is his move,
// on the legal list the server gives him then, with the Picker.
struct Seat {
  client::ProtocolClient* client = nullptr;
  std::string id;
  rules::Side side = rules::Side::kA;
  Picker picker;
  std::uint64_t seq = 0;
  std::optional<v1::MatchUpdate> latest;
  int commands = 0;

  // Takes the pushes that have come, waiting for more while they give him nothing to do.
  bool catch_up() {
    std::string error;
    while (auto p = client->next_push(0ms, &error))
      take(*p);
    while (!latest || !(latest->your_move() || over())) {
      auto p = client->next_push(20s, &error);
      if (!p) return false;
      take(*p);
    }
    return true;
  }
  void take(const v1::ServerEnvelope& p) {
    if (p.has_match_update() && p.match_update().match_id() == id) latest = p.match_update();
  }
  bool over() const { return latest && (latest->has_record() || status_of(*latest).ended()); }

  // Plays until the match is over, or `limit` commands; false when he was left without a move.
  bool play(int limit = 5000) {
    for (int n = 0; n < limit; ++n) {
      if (!catch_up()) return false;
      if (over()) return true;
      const auto legal = call(*client, get_legal(id));
      latest.reset();  // the next move waits for the update that follows this one
      if (!legal.has_legal()) continue;
      const auto command = picker.pick(legal.legal().legal(), side);
      if (!command) continue;  // the computer moved first; its update is on the way
      const auto result = call(*client, submit(id, ++seq, *command));
      EXPECT_TRUE(result.has_command_result()) << result.DebugString();
      if (result.command_result().accepted()) ++commands;
    }
    return true;
  }
};

v1::MatchRecord record_of(client::ProtocolClient& c, const std::string& id) {
  v1::ClientEnvelope e;
  e.mutable_export_record()->set_match_id(id);
  const auto reply = call(c, e);
  EXPECT_TRUE(reply.has_record()) << reply.DebugString();
  return reply.record();
}

int commands_of(const v1::MatchRecord& record, v1::Side side, int from_entry = 0) {
  int n = 0;
  for (int i = from_entry; i < record.entries_size(); ++i) {
    n += record.entries(i).kind() == v1::ENTRY_COMMAND && record.entries(i).side() == side;
  }
  return n;
}

// alice plays `scenario` against the computer at `strength`, from the lobby to its end.
void expect_played_to_its_end(const std::string& scenario, v1::ComputerStrength strength,
                              v1::Side alice_side) {
  ServerProcess server(flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player carol = registered(server.ws_url(), "carol");
  const auto created = call(*alice.client, against_computer(scenario, strength, alice_side));
  ASSERT_TRUE(created.has_match_created()) << created.DebugString();
  const std::string id = created.match_created().match().match_id();
  ASSERT_FALSE(error_of(call(*alice.client, sit(id))));
  ASSERT_TRUE(call(*alice.client, req::subscribe(id)).has_subscribed());

  // Everyone sees who plays: alice, and the computer by name on the other side.
  const auto summary = listed(*carol.client, v1::MATCH_LIVE, id);
  ASSERT_TRUE(summary) << "a live match against the computer is listed for spectators";
  const std::string computer =
      strength == v1::COMPUTER_RANDOM ? "Computer (random)" : "Computer (greedy)";
  const bool alice_a = alice_side == v1::SIDE_A;
  EXPECT_EQ(summary->player_a(), alice_a ? "alice" : computer);
  EXPECT_EQ(summary->player_b(), alice_a ? computer : "alice");
  EXPECT_EQ(summary->settings().computer(), strength);

  Seat seat;
  seat.client = alice.client.get();
  seat.id = id;
  seat.side = alice_a ? rules::Side::kA : rules::Side::kB;
  ASSERT_TRUE(seat.play()) << "alice was left without a move";
  ASSERT_TRUE(seat.over());
  const v1::MatchRecord record = record_of(*alice.client, id);
  ASSERT_TRUE(record.has_outcome());
  EXPECT_EQ(wire::verify_record(record), std::nullopt);
  const v1::Side computer_side = alice_a ? v1::SIDE_B : v1::SIDE_A;
  EXPECT_GT(commands_of(record, computer_side), 3) << "the computer played its side";
  EXPECT_GT(seat.commands, 3);
  EXPECT_TRUE(listed(*carol.client, v1::MATCH_FINISHED, id));
  EXPECT_TRUE(server_alive(server));
}

TEST(ComputerOpponent, APlayerPlaysOptioTrainingToItsEndAgainstTheRandomComputer) {
  expect_played_to_its_end("optio/training", v1::COMPUTER_RANDOM, v1::SIDE_A);
}

TEST(ComputerOpponent, APlayerPlaysOptioTrainingToItsEndAgainstTheGreedyComputer) {
  expect_played_to_its_end("optio/training", v1::COMPUTER_GREEDY, v1::SIDE_B);
}

TEST(ComputerOpponent, APlayerPlaysStandTrainingToItsEndAgainstTheRandomComputer) {
  expect_played_to_its_end("stand/training", v1::COMPUTER_RANDOM, v1::SIDE_B);
}

TEST(ComputerOpponent, APlayerPlaysStandTrainingToItsEndAgainstTheGreedyComputer) {
  expect_played_to_its_end("stand/training", v1::COMPUTER_GREEDY, v1::SIDE_A);
}

TEST(ComputerOpponent, AMatchAgainstTheComputerIsNeverOpenToOthers) {
  ServerProcess server(flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player carol = registered(server.ws_url(), "carol");
  const auto created =
      call(*alice.client, against_computer("optio/training", v1::COMPUTER_GREEDY, v1::SIDE_A));
  ASSERT_TRUE(created.has_match_created()) << created.DebugString();
  const auto& made = created.match_created().match();
  EXPECT_EQ(made.player_b(), "Computer (greedy)") << "the computer sits down at once";
  EXPECT_EQ(made.status(), v1::MATCH_OPEN);
  const std::string id = made.match_id();

  EXPECT_FALSE(listed(*carol.client, v1::MATCH_OPEN, id));
  EXPECT_EQ(error_of(call(*carol.client, req::join_match(id, client_entropy()))),
            v1::ERROR_MATCH_FULL);
  ASSERT_FALSE(error_of(call(*alice.client, sit(id))));
  EXPECT_FALSE(listed(*carol.client, v1::MATCH_OPEN, id));
  const auto live = listed(*carol.client, v1::MATCH_LIVE, id);
  ASSERT_TRUE(live) << "alice's entropy started the match";
  EXPECT_EQ(live->player_a(), "alice");
  EXPECT_EQ(live->player_b(), "Computer (greedy)");
  EXPECT_EQ(error_of(call(*carol.client, req::join_match(id, client_entropy()))),
            v1::ERROR_MATCH_NOT_OPEN);
  // A strength the protocol does not know is refused.
  auto unknown = against_computer("optio/training", v1::COMPUTER_GREEDY, v1::SIDE_A);
  unknown.mutable_create_match()->mutable_settings()->set_computer(
      static_cast<v1::ComputerStrength>(99));
  EXPECT_EQ(error_of(call(*alice.client, unknown)), v1::ERROR_INVALID_REQUEST);
}

TEST(ComputerOpponent, AComputerMatchSurvivesARestartMidGameAndTheComputerPlaysOn) {
  const std::string dir = make_temp_dir("castra-computer-restart");
  std::string id;
  Seat seat;
  std::uint32_t entries_before = 0;
  {
    ServerProcess server(flags(), dir);
    ASSERT_TRUE(server.started()) << server.log();
    Player alice = registered(server.ws_url(), "alice");
    const auto created =
        call(*alice.client, against_computer("optio/training", v1::COMPUTER_GREEDY, v1::SIDE_A));
    id = created.match_created().match().match_id();
    ASSERT_FALSE(error_of(call(*alice.client, sit(id))));
    ASSERT_TRUE(call(*alice.client, req::subscribe(id)).has_subscribed());
    seat.client = alice.client.get();
    seat.id = id;
    ASSERT_TRUE(seat.play(14));
    ASSERT_FALSE(seat.over()) << "the restart comes mid-game";
    ASSERT_TRUE(seat.catch_up());
    entries_before = status_of(*seat.latest).entry_count();
    // A crash, not a clean stop: every acknowledged command is in the store all the same.
    server.signal(SIGKILL);
    server.wait(5s);
  }
  ServerProcess again(flags(), dir);
  ASSERT_TRUE(again.started()) << again.log();
  Player alice{greeted_client(again.ws_url()), "alice", ""};
  ASSERT_TRUE(call(*alice.client, req::login("alice", "alice-password")).has_session());
  ASSERT_TRUE(call(*alice.client, req::subscribe(id)).has_subscribed());
  seat.client = alice.client.get();
  seat.latest.reset();
  ASSERT_TRUE(seat.play()) << "alice was left without a move after the restart";
  ASSERT_TRUE(seat.over());
  const v1::MatchRecord record = record_of(*alice.client, id);
  EXPECT_EQ(wire::verify_record(record), std::nullopt);
  EXPECT_GT(commands_of(record, v1::SIDE_B, static_cast<int>(entries_before)), 0)
      << "the computer played on after the restart";
}

}  // namespace
}  // namespace castra::testing
