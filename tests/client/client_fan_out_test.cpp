// The SDL client under protocol 1.1: every MatchUpdate after a move carries the viewer's board,
// so the client enters a match's room once and never subscribes again to stay current. A
// player plays a real match against the server's computer by clicks; the test reads his legal
// lists on a second connection of the same account, writes each next step into the client's
// script as the match goes (`follow`), and has the client's board follow every move it sees.
// At the end the client's own count of its requests says one SubscribeMatch, no GetSnapshot.
#include <gtest/gtest.h>

#include "client/net/protocol_client.hpp"
#include "tests/client/client_support.hpp"
#include "tests/support/server_process.hpp"

namespace castra {
namespace {

using namespace std::chrono_literals;
namespace s = v1::stand;
using testing::cell;
using testing::troop_label;

constexpr const char* kPassword = "alice-password";

// The clicks for one of `legal`'s options (deploy one type of troops, move a group to its
// farthest listed hex, at most two a phase, or end the phase), and the hex that then holds
// the player's figures (`lands`, unset for the end of a phase).
std::string clicks_for(const s::Legal& legal, int* moves_left, std::optional<v1::Coord>* lands) {
  lands->reset();
  for (const auto& g : legal.deploy()) {
    if (g.types_size() != 1 || g.destinations_size() == 0) continue;
    const auto& d = g.destinations(0);
    *lands = d.hex();
    return "click-button " + std::string(troop_label(g.types(0))) + "\nclick-cell " +
           cell(d.hex()) + "\n";
  }
  if (legal.phase() == s::PHASE_MOVE && *moves_left > 0) {
    for (const auto& g : legal.moves()) {
      if (g.destinations_size() == 0) continue;
      --*moves_left;
      const auto& d = g.destinations(g.destinations_size() - 1);
      *lands = d.hex();
      return "key Escape\nclick-cell " + cell(g.from()) + "\nclick-cell " + cell(d.hex()) + "\n";
    }
  }
  if (legal.end_phase()) return "click-button End phase\nclick-button Confirm\n";
  return "";
}

int game_turn(const v1::Snapshot& board) {
  return board.turn() > 0 ? board.turn() : board.state().stand().game_turn();
}

// The test's own connection, signed in as the client's player.
struct Watcher {
  std::unique_ptr<client::ProtocolClient> c;

  v1::ServerEnvelope call(v1::ClientEnvelope e) {
    std::string error;
    auto r = c->call(std::move(e), 10s, &error);
    EXPECT_TRUE(r) << error;
    return r ? *r : v1::ServerEnvelope{};
  }
  std::optional<v1::MatchUpdate> next_update(const std::string& id) {
    std::string error;
    auto push = c->next_push(500ms, &error);
    if (push && push->has_match_update() && push->match_update().match_id() == id)
      return push->match_update();
    return std::nullopt;
  }
};

// A live STAND! training match of alice's (side A) against the random computer.
std::string match_against_the_computer(Watcher& alice) {
  auto create = client::requests::create_match("stand/training", /*spectators=*/true);
  auto* settings = create.mutable_create_match()->mutable_settings();
  settings->set_creator_side(v1::SIDE_A);
  settings->set_computer(v1::COMPUTER_RANDOM);
  const auto created = alice.call(create);
  EXPECT_TRUE(created.has_match_created()) << created.DebugString();
  const std::string id = created.match_created().match().match_id();
  v1::ClientEnvelope sit;
  sit.mutable_provide_entropy()->set_match_id(id);
  sit.mutable_provide_entropy()->set_entropy(std::string(32, 'a'));
  EXPECT_TRUE(alice.call(sit).has_done());
  return id;
}

TEST(FanOut, TheClientSendsNoSubscribeMatchDuringNormalPlay) {
  testing::ServerProcess server(
      {"--argon2-opslimit", "1", "--argon2-memlimit", "8192", "--log-level", "debug"});
  ASSERT_TRUE(server.started()) << server.log();
  Watcher alice;
  std::string error;
  alice.c = client::ProtocolClient::connect(server.ws_url(), 5s, &error);
  ASSERT_TRUE(alice.c && alice.c->hello(5s, &error)) << error;
  ASSERT_TRUE(alice.call(client::requests::register_account("alice", kPassword)).has_session());
  const std::string id = match_against_the_computer(alice);
  ASSERT_FALSE(id.empty());

  const std::string dir = testing::make_temp_dir("castra-client-fan-out");
  const std::string script = dir + "/script.txt";
  testing::write_file(
      script, "wait snapshot timeout=30000\nwait idle timeout=30000\nprint ready\nfollow\n");
  testing::ClientProcess client(
      dir, {"--server", server.ws_url(), "--name", "alice", "--password", kPassword, "--open", id,
            "--script", script, "--exit-after", "200"});
  testing::ScriptWriter steps(script);
  ASSERT_TRUE(testing::ScriptWriter::wait_for_line(dir, "ready", 60s))
      << testing::read_file(dir + "/client.log");

  // Every board this connection is sent (alice's, for her moves and the computer's), the
  // client draws too; each time it is her move, the client's clicks make it.
  ASSERT_TRUE(alice.call(client::requests::subscribe(id)).has_subscribed());
  int boards = 0, commands = 0, moved = 0, moves_left = 2, phase = -1;
  std::uint64_t acted_at = 0;
  bool played = false;  // a whole game turn, with moves
  const auto until = std::chrono::steady_clock::now() + 150s;
  while (std::chrono::steady_clock::now() < until) {
    const auto u = alice.next_update(id);
    const v1::Snapshot* board = u ? testing::view_of(*u) : nullptr;
    if (board == nullptr) continue;
    ASSERT_TRUE(u->has_snapshot()) << "an update after a move carries the board";
    played = game_turn(*board) >= 2 && moved > 0;
    if (played || board->ended()) break;
    ++boards;
    std::string next =
        "wait board-events " + std::to_string(board->event_count()) + " timeout=30000\n";
    if (u->your_move() && u->has_legal() && board->event_count() > acted_at) {
      const auto& legal = u->legal().stand();
      if (legal.phase() != phase) {
        phase = legal.phase();
        moves_left = 2;
      }
      std::optional<v1::Coord> lands;
      const std::string clicks = clicks_for(legal, &moves_left, &lands);
      ASSERT_FALSE(clicks.empty()) << "nothing to do in " << u->legal().DebugString();
      if (legal.phase() == s::PHASE_MOVE && lands) ++moved;
      next += "wait legal timeout=30000\nwait idle timeout=30000\n" + clicks +
              "wait idle timeout=30000\n";
      // The client's board holds the move as soon as its answer came (the mover's update
      // rides in the CommandResult's frame).
      if (lands) next += "expect hex " + cell(*lands) + " side A\n";
      acted_at = board->event_count();
      ++commands;
    }
    ASSERT_TRUE(steps.run(next, 60s, dir)) << testing::read_file(dir + "/client.log");
  }
  EXPECT_TRUE(played) << "game turn 2 never began, or nobody moved";
  EXPECT_GT(commands, 5) << "alice played by clicks";
  EXPECT_GT(moved, 0) << "alice moved by clicks";
  EXPECT_GT(boards, commands) << "the computer's moves were drawn too";

  // The client's own count of what it asked: the one subscription of opening the match.
  steps.append("expect sent subscribe_match 1\nexpect sent get_snapshot 0\nquit\n");
  ASSERT_EQ(client.wait(60s), 0) << testing::read_file(dir + "/client.log");
}

}  // namespace
}  // namespace castra
