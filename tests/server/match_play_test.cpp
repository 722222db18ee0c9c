// Server part 2 end to end: two real WebSocket clients play each rule set from the lobby to a
// result through castra-server, spectators watch (one from the start, one from mid-game),
// the exported record verifies; repeats, out-of-turn and illegal commands get their answers;
// a missed deadline forfeits, and deadlines survive a restart.
#include <google/protobuf/message.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/wire/any_match.hpp"
#include "tests/server/picker.hpp"
#include "tests/server/protocol_support.hpp"

namespace castra::testing {
namespace {

namespace req = client::requests;

// The last state hash a watcher was told, and how many events it has (its snapshot's count
// plus every event pushed after it).
struct Watched {
  std::string state_hash;
  std::uint64_t events = 0;
  bool saw_record = false;
};

Watched drain(client::ProtocolClient& c) {
  Watched w;
  std::string error;
  while (auto push = c.next_push(300ms, &error)) {
    if (!push->has_match_update()) continue;
    const auto& u = push->match_update();
    if (u.has_snapshot()) {
      w.events = u.snapshot().event_count();
      w.state_hash = u.snapshot().state_hash();
    }
    if (u.events_size() > 0) w.events = u.events(u.events_size() - 1).number() + 1;
    if (u.has_record()) w.saw_record = true;
  }
  return w;
}

struct Played {
  std::string id;
  v1::MatchRecord record;
  int commands = 0;
};

// Creates `scenario`, seats alice and bob, starts spectator `early`, plays to the end with
// both Pickers, and subscribes spectator `late` after `late_after` commands.
Played play(const std::string& scenario, Player& alice, Player& bob, client::ProtocolClient& early,
            client::ProtocolClient& late, int late_after) {
  Played out;
  auto created = call(*alice.client, req::create_match(scenario, /*spectators=*/true));
  EXPECT_TRUE(created.has_match_created()) << created.DebugString();
  out.id = created.match_created().match().match_id();
  EXPECT_FALSE(error_of(call(*alice.client, sit(out.id))));
  EXPECT_TRUE(call(early, req::subscribe(out.id)).has_subscribed());
  EXPECT_TRUE(call(*bob.client, req::join_match(out.id, client_entropy())).has_match_joined());
  Picker pickers[2];
  std::uint64_t seq[2] = {0, 0};
  Player* players[2] = {&alice, &bob};
  for (int round = 0; round < 2000; ++round) {
    auto record = call(*alice.client, export_record(out.id));
    if (record.has_record()) {
      out.record = record.record();
      break;
    }
    bool moved = false;
    for (int p = 0; p < 2; ++p) {
      const rules::Side side = p == 0 ? rules::Side::kA : rules::Side::kB;
      auto legal = call(*players[p]->client, get_legal(out.id));
      if (!legal.has_legal()) continue;
      auto cmd = pickers[p].pick(legal.legal().legal(), side);
      if (!cmd) continue;
      auto result = call(*players[p]->client, submit(out.id, ++seq[p], *cmd));
      EXPECT_TRUE(result.has_command_result()) << result.DebugString();
      if (result.command_result().accepted()) {
        moved = true;
        if (++out.commands == late_after) {
          EXPECT_TRUE(call(late, req::subscribe(out.id)).has_subscribed());
        }
      } else {
        EXPECT_EQ(result.command_result().error().rule(), "match.turn")
            << "a command from the legal list was refused: " << result.DebugString();
      }
    }
    if (!moved) {
      ADD_FAILURE() << "nobody could move at round " << round;
      break;
    }
  }
  return out;
}

void expect_played_to_a_result(const std::string& scenario) {
  ServerProcess server(play_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  Player carol = registered(server.ws_url(), "carol");
  Player dave = registered(server.ws_url(), "dave");
  const Played p = play(scenario, alice, bob, *carol.client, *dave.client, 12);
  ASSERT_GT(p.commands, 20);
  ASSERT_TRUE(p.record.has_outcome()) << "no result after " << p.commands << " commands";
  // The record of the server verifies offline, as castra-sim verify does it.
  EXPECT_EQ(wire::verify_record(p.record), std::nullopt);
  // A spectator who came mid-game ends with the same picture as one who watched it all.
  const Watched early = drain(*carol.client);
  const Watched late = drain(*dave.client);
  EXPECT_FALSE(early.state_hash.empty());
  EXPECT_EQ(early.state_hash, late.state_hash);
  EXPECT_EQ(early.events, late.events);
  EXPECT_TRUE(early.saw_record);
  EXPECT_TRUE(late.saw_record);
  EXPECT_TRUE(server_alive(server));
}

TEST(MatchPlay, TwoClientsPlayAnOptioBattleFromTheLobbyToItsResult) {
  expect_played_to_a_result("optio/test");
}

TEST(MatchPlay, TwoClientsPlayAStandBattleFromTheLobbyToItsResult) {
  expect_played_to_a_result("stand/test");
}

// A started Optio match: alice (A) and bob (B) seated, nothing played yet.
std::string started(Player& alice, Player& bob, const std::string& scenario = "optio/test") {
  auto created = call(*alice.client, req::create_match(scenario, true));
  const std::string id = created.match_created().match().match_id();
  EXPECT_FALSE(error_of(call(*alice.client, sit(id))));
  EXPECT_TRUE(call(*bob.client, req::join_match(id, client_entropy())).has_match_joined());
  return id;
}

TEST(MatchPlay, RepeatsOutOfTurnAndIllegalCommandsGetTheirAnswers) {
  ServerProcess server(play_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  const std::string id = started(alice, bob);
  Picker picker;
  auto legal = call(*alice.client, get_legal(id));
  auto cmd = picker.pick(legal.legal().legal(), rules::Side::kA);
  ASSERT_TRUE(cmd);
  const auto first = call(*alice.client, submit(id, 1, *cmd));
  ASSERT_TRUE(first.command_result().accepted()) << first.DebugString();
  // The same client_seq again: the first answer, not a second application.
  const auto again = call(*alice.client, submit(id, 1, *cmd));
  EXPECT_EQ(again.command_result().SerializeAsString(), first.command_result().SerializeAsString());
  // Side B during side A's deployment.
  const auto out_of_turn = call(*bob.client, submit(id, 1, *cmd));
  EXPECT_FALSE(out_of_turn.command_result().accepted());
  EXPECT_EQ(out_of_turn.command_result().error().rule(), "match.turn");
  // An illegal deployment: off the map.
  v1::GameCommand bad = *cmd;
  bad.mutable_optio()->mutable_deploy()->mutable_at()->set_row(99);
  const auto illegal = call(*alice.client, submit(id, 2, bad));
  EXPECT_FALSE(illegal.command_result().accepted());
  EXPECT_FALSE(illegal.command_result().error().message().empty());
  // A command that moves the other side's unit, in alice's own turn.
  ASSERT_TRUE(call(*alice.client, req::subscribe(id)).has_subscribed());
  std::string error;
  auto first_update = alice.client->next_push(3s, &error);
  while (first_update && !first_update->match_update().has_snapshot())
    first_update = alice.client->next_push(3s, &error);
  ASSERT_TRUE(first_update) << error;
  int theirs = 0;
  for (const auto& u : first_update->match_update().snapshot().state().optio().units()) {
    if (u.side() == v1::SIDE_B) theirs = u.id();
  }
  ASSERT_NE(theirs, 0);
  v1::GameCommand not_mine = *cmd;
  not_mine.mutable_optio()->mutable_deploy()->set_unit(theirs);
  const auto other_side = call(*alice.client, submit(id, 4, not_mine));
  EXPECT_FALSE(other_side.command_result().accepted());
  EXPECT_NE(other_side.command_result().error().message().find("not yours"), std::string::npos)
      << other_side.DebugString();
  // A command for the other rule set.
  v1::GameCommand other;
  other.mutable_stand()->mutable_end_phase();
  const auto wrong_game = call(*alice.client, submit(id, 5, other));
  EXPECT_FALSE(wrong_game.command_result().accepted());
  EXPECT_EQ(wrong_game.command_result().error().rule(), "wire.command");
}

TEST(MatchPlay, ARepeatAfterTheMatchEndedAndTheServerRestartedGetsTheFirstAnswer) {
  const std::string dir = make_temp_dir("castra-repeat-after-end");
  std::string id;
  v1::GameCommand cmd;
  v1::CommandResult first;
  {
    ServerProcess server(play_flags(), dir);
    ASSERT_TRUE(server.started()) << server.log();
    Player alice = registered(server.ws_url(), "alice");
    Player bob = registered(server.ws_url(), "bob");
    id = started(alice, bob);
    Picker picker;
    auto legal = call(*alice.client, get_legal(id));
    cmd = *picker.pick(legal.legal().legal(), rules::Side::kA);
    first = call(*alice.client, submit(id, 1, cmd)).command_result();
    ASSERT_TRUE(first.accepted());
    ASSERT_FALSE(error_of(call(*bob.client, resign_match(id))));
    server.signal(SIGKILL);
    server.wait(5s);
  }
  // The ended match is not loaded again at start-up; its stored answers still are found.
  ServerProcess again(play_flags(), dir);
  ASSERT_TRUE(again.started()) << again.log();
  Player alice{greeted_client(again.ws_url()), "alice", ""};
  ASSERT_TRUE(call(*alice.client, req::login("alice", "alice-password")).has_session());
  const auto repeat = call(*alice.client, submit(id, 1, cmd));
  ASSERT_TRUE(repeat.has_command_result()) << repeat.DebugString();
  EXPECT_EQ(repeat.command_result().SerializeAsString(), first.SerializeAsString());
  // A new command to the ended match is refused, and nothing is added to its record.
  EXPECT_EQ(error_of(call(*alice.client, submit(id, 2, cmd))), v1::ERROR_MATCH_NOT_LIVE);
  auto record = call(*alice.client, export_record(id));
  ASSERT_TRUE(record.has_record()) << record.DebugString();
  int commands = 0;
  for (const auto& e : record.record().entries())
    commands += e.kind() == v1::ENTRY_COMMAND;
  EXPECT_EQ(commands, 1);
}

// The first push `want` accepts within `timeout`; nothing when none came.
std::optional<v1::ServerEnvelope> push_where(
    client::ProtocolClient& c, const std::function<bool(const v1::ServerEnvelope&)>& want,
    std::chrono::milliseconds timeout = 3s) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  std::string error;
  while (std::chrono::steady_clock::now() < end) {
    auto push = c.next_push(std::chrono::duration_cast<std::chrono::milliseconds>(
                                end - std::chrono::steady_clock::now()),
                            &error);
    if (!push) return std::nullopt;
    if (want(*push)) return push;
  }
  return std::nullopt;
}

Player signed_in(const ServerProcess& server, const std::string& name) {
  Player p{greeted_client(server.ws_url()), name, ""};
  EXPECT_TRUE(call(*p.client, req::login(name, name + "-password")).has_session());
  return p;
}

TEST(MatchPlay, YourMoveReachesEveryConnectionOfThePlayerWhoMustActSubscribedOrNot) {
  ServerProcess server(play_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  Player alice_phone = signed_in(server, "alice");  // in the lobby, not in the match's room
  Player bob_phone = signed_in(server, "bob");
  const std::string id = started(alice, bob);
  auto your_move = [&id](const v1::ServerEnvelope& e) {
    return e.has_your_move() && e.your_move().match_id() == id;
  };
  // Side A deploys first: alice hears it on her other connection, bob does not.
  EXPECT_TRUE(push_where(*alice_phone.client, your_move));
  EXPECT_FALSE(push_where(*bob_phone.client, your_move, 300ms));
  // Alice plays until side B has to act; then it is bob's turn, wherever he is.
  Picker picker;
  std::uint64_t seq = 0;
  for (int i = 0; i < 100; ++i) {
    auto legal = call(*alice.client, get_legal(id));
    auto cmd = picker.pick(legal.legal().legal(), rules::Side::kA);
    if (!cmd) break;
    auto r = call(*alice.client, submit(id, ++seq, *cmd));
    if (!r.command_result().accepted()) break;
    if (legal.legal().legal().optio().end_deployment()) break;
  }
  EXPECT_TRUE(push_where(*bob_phone.client, your_move));
}

TEST(MatchPlay, PresenceChangesReachTheRoomAndTheGraceIsAnnounced) {
  ServerProcess server(play_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  v1::ClientEnvelope create = req::create_match("optio/test", true);
  auto* tc = create.mutable_create_match()->mutable_settings()->mutable_time_control();
  tc->set_kind(v1::TimeControl::LIVE);
  tc->set_seconds_per_move(600);
  tc->set_disconnect_grace_seconds(60);
  auto created = call(*alice.client, create);
  ASSERT_TRUE(created.has_match_created()) << created.DebugString();
  const std::string id = created.match_created().match().match_id();
  EXPECT_FALSE(error_of(call(*alice.client, sit(id))));
  EXPECT_TRUE(call(*bob.client, req::join_match(id, client_entropy())).has_match_joined());
  auto presence_of = [&id](v1::Side side) {
    return [&id, side](const v1::ServerEnvelope& e) {
      return e.has_presence() && e.presence().match_id() == id && e.presence().side() == side;
    };
  };
  // Alice comes into the room: she is told who is there (she is; bob is not yet).
  ASSERT_TRUE(call(*alice.client, req::subscribe(id)).has_subscribed());
  auto a_here = push_where(*alice.client, presence_of(v1::SIDE_A));
  auto b_here = push_where(*alice.client, presence_of(v1::SIDE_B));
  ASSERT_TRUE(a_here && b_here);
  EXPECT_TRUE(a_here->presence().connected());
  EXPECT_FALSE(b_here->presence().connected());
  // Bob comes into the room: alice, there already, is told.
  ASSERT_TRUE(call(*bob.client, req::subscribe(id)).has_subscribed());
  auto came = push_where(*alice.client, presence_of(v1::SIDE_B));
  ASSERT_TRUE(came);
  EXPECT_TRUE(came->presence().connected());
  // Subscribing again (a client does, for a fresh picture) is not leaving.
  ASSERT_TRUE(call(*bob.client, req::subscribe(id)).has_subscribed());
  EXPECT_FALSE(push_where(*alice.client, presence_of(v1::SIDE_B), 300ms));
  // A second connection of his changes nothing.
  Player bob_tablet = signed_in(server, "bob");
  ASSERT_TRUE(call(*bob_tablet.client, req::subscribe(id)).has_subscribed());
  EXPECT_FALSE(push_where(*alice.client, presence_of(v1::SIDE_B), 300ms));
  // Bob closes one of his two connections: he is still there.
  bob_tablet.client.reset();
  EXPECT_FALSE(push_where(*alice.client, presence_of(v1::SIDE_B), 400ms));
  // And the other: gone. Side A is to act, so no grace runs for him.
  bob.client.reset();
  auto gone = push_where(*alice.client, presence_of(v1::SIDE_B));
  ASSERT_TRUE(gone);
  EXPECT_FALSE(gone->presence().connected());
  EXPECT_EQ(gone->presence().grace_ends_ms(), 0);
  // Back again.
  Player bob_again = signed_in(server, "bob");
  ASSERT_TRUE(call(*bob_again.client, req::subscribe(id)).has_subscribed());
  auto back = push_where(*alice.client, presence_of(v1::SIDE_B));
  ASSERT_TRUE(back);
  EXPECT_TRUE(back->presence().connected());
  // Alice leaves while she has to act: bob learns when he may claim the win (60 s from now).
  const auto before = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  alice.client.reset();
  auto away = push_where(*bob_again.client, [&](const v1::ServerEnvelope& e) {
    return presence_of(v1::SIDE_A)(e) && !e.presence().connected();
  });
  ASSERT_TRUE(away);
  EXPECT_FALSE(away->presence().connected());
  EXPECT_GE(away->presence().grace_ends_ms(), before + 55'000);
  EXPECT_LE(away->presence().grace_ends_ms(), before + 65'000);
}

// What a spectator was sent: every event, each update's status, and its snapshots.
struct SpectatorLog {
  std::vector<v1::ViewEvent> events;
  std::vector<v1::Snapshot> snapshots;
  int early_statuses = 0;  // boards that showed more than the events it had been sent
  bool record = false;
  std::uint64_t known() const {
    std::uint64_t n = snapshots.empty() ? 0 : snapshots.back().event_count();
    if (!events.empty()) n = std::max<std::uint64_t>(n, events.back().number() + 1);
    return n;
  }
};

// Reads `c`'s pushes into `log` until `done` holds (waiting up to 10 s for it), then whatever
// else comes within a short quiet spell.
void take(client::ProtocolClient& c, SpectatorLog* log,
          const std::function<bool(const SpectatorLog&)>& done) {
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  std::string error;
  for (;;) {
    const bool waiting = !done(*log) && std::chrono::steady_clock::now() < deadline;
    auto push = c.next_push(waiting ? 1s : 200ms, &error);
    if (!push) {
      if (waiting) continue;
      return;
    }
    if (!push->has_match_update()) continue;
    const auto& u = push->match_update();
    for (const auto& e : u.events())
      log->events.push_back(e);
    // A board shows the moment its events reach, never beyond them: a delayed spectator's
    // board is of the past.
    if (u.has_snapshot() && !log->events.empty() &&
        u.snapshot().event_count() > log->events.back().number() + 1) {
      ++log->early_statuses;
    }
    if (u.has_snapshot()) log->snapshots.push_back(u.snapshot());
    log->record = log->record || u.has_record();
  }
}

TEST(MatchPlay, ADelayedSpectatorSeesOnlyWhatIsTheGivenTurnsOldUntilTheEnd) {
  ServerProcess server(play_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  Player carol = registered(server.ws_url(), "carol");
  Player dave = registered(server.ws_url(), "dave");
  v1::ClientEnvelope create = req::create_match("optio/test", true);
  create.mutable_create_match()->mutable_settings()->set_spectator_delay_turns(1);
  auto created = call(*alice.client, create);
  ASSERT_TRUE(created.has_match_created()) << created.DebugString();
  const std::string id = created.match_created().match().match_id();
  EXPECT_FALSE(error_of(call(*alice.client, sit(id))));
  ASSERT_TRUE(call(*carol.client, req::subscribe(id)).has_subscribed());
  EXPECT_TRUE(call(*bob.client, req::join_match(id, client_entropy())).has_match_joined());
  ASSERT_TRUE(call(*alice.client, req::subscribe(id)).has_subscribed());
  // Play into turn 3; alice's own updates say after which entry the game was in which turn.
  std::map<std::uint32_t, int> turn_after;  // entry -> the game turn once it was applied
  std::uint64_t all_events = 0;
  int turn = 0;
  Picker pickers[2];
  std::uint64_t seq[2] = {0, 0};
  Player* players[2] = {&alice, &bob};
  SpectatorLog alice_log;
  for (int round = 0; round < 500 && turn < 3; ++round) {
    for (int p = 0; p < 2 && turn < 3; ++p) {
      auto legal = call(*players[p]->client, get_legal(id));
      auto cmd = pickers[p].pick(legal.legal().legal(), p == 0 ? rules::Side::kA : rules::Side::kB);
      if (!cmd) continue;
      auto r = call(*players[p]->client, submit(id, ++seq[p], *cmd));
      if (!r.command_result().accepted()) continue;
      // Alice's update for this commit: its events and the turn after it.
      const std::uint64_t count = r.command_result().event_count();
      while (alice_log.known() < count) {
        std::string error;
        auto push = alice.client->next_push(3s, &error);
        ASSERT_TRUE(push) << error;
        if (!push->has_match_update()) continue;
        const auto& u = push->match_update();
        for (const auto& e : u.events())
          alice_log.events.push_back(e);
        if (u.has_snapshot()) alice_log.snapshots.push_back(u.snapshot());
        if (u.has_snapshot()) turn = u.snapshot().turn();
      }
      turn_after[r.command_result().entry()] = turn;
      all_events = count;
    }
  }
  ASSERT_EQ(turn, 3);
  // Every event of an entry that left the game in turn 2 or before, and nothing later.
  std::uint64_t visible = 0;
  for (const auto& e : alice_log.events) {
    auto it = turn_after.find(e.entry());
    if (it == turn_after.end() || it->second <= 2) visible = e.number() + 1;
  }
  ASSERT_GT(visible, 0u);
  ASSERT_LT(visible, all_events);
  SpectatorLog early;
  take(*carol.client, &early, [&](const SpectatorLog& l) { return l.known() >= visible; });
  EXPECT_EQ(early.known(), visible);
  for (const auto& e : early.events) {
    auto it = turn_after.find(e.entry());
    if (it != turn_after.end()) {
      EXPECT_LE(it->second, 2) << "event " << e.number();
    }
  }
  EXPECT_EQ(early.early_statuses, 0) << "a live status would tell a delayed spectator the present";
  // One who comes now gets a picture of the same moment.
  ASSERT_TRUE(call(*dave.client, req::subscribe(id)).has_subscribed());
  SpectatorLog late;
  take(*dave.client, &late, [](const SpectatorLog& l) { return !l.snapshots.empty(); });
  ASSERT_EQ(late.snapshots.size(), 1u);
  EXPECT_EQ(late.snapshots[0].event_count(), visible);
  EXPECT_LE(late.snapshots[0].turn(), 2);
  // At the end the delay is lifted: everything, and the record.
  ASSERT_FALSE(error_of(call(*bob.client, resign_match(id))));
  auto has_record = [](const SpectatorLog& l) { return l.record; };
  take(*carol.client, &early, has_record);
  take(*dave.client, &late, has_record);
  EXPECT_TRUE(early.record);
  EXPECT_TRUE(late.record);
  SpectatorLog alice_end;
  take(*alice.client, &alice_end, has_record);
  EXPECT_EQ(early.known(), std::max(all_events, alice_end.known()));
  EXPECT_EQ(early.known(), late.known());
  EXPECT_EQ(early.early_statuses + late.early_statuses, 0);
}

v1::ClientEnvelope get_snapshot(const std::string& id, std::uint32_t entries) {
  v1::ClientEnvelope e;
  e.mutable_get_snapshot()->set_match_id(id);
  e.mutable_get_snapshot()->set_entry_count(entries);
  return e;
}

// The state hash `c` was told in the update that brought it to `events` events.
std::string hash_at(client::ProtocolClient& c, std::uint64_t events) {
  std::string error;
  while (auto push = c.next_push(3s, &error)) {
    if (!push->has_match_update() || !push->match_update().has_snapshot()) continue;
    const auto& st = push->match_update().snapshot();
    if (st.event_count() == events) return st.state_hash();
  }
  ADD_FAILURE() << "no update reached " << events << " events: " << error;
  return {};
}

TEST(MatchPlay, GetSnapshotShowsEachPlayerHisOwnPastAndAnEndedMatchToAnyone) {
  ServerProcess server(play_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  Player carol = registered(server.ws_url(), "carol");
  const std::string id = started(alice, bob);
  ASSERT_TRUE(call(*alice.client, req::subscribe(id)).has_subscribed());
  ASSERT_TRUE(call(*bob.client, req::subscribe(id)).has_subscribed());
  // Play through the deployments and the sealed orders; each player's live hash per entry.
  std::map<std::uint32_t, std::string> seen[2];  // entries -> the hash that side was shown
  Picker pickers[2];
  std::uint64_t seq[2] = {0, 0};
  Player* players[2] = {&alice, &bob};
  int commands = 0;
  for (int round = 0; round < 200 && commands < 24; ++round) {
    for (int p = 0; p < 2; ++p) {
      auto legal = call(*players[p]->client, get_legal(id));
      auto cmd = pickers[p].pick(legal.legal().legal(), p == 0 ? rules::Side::kA : rules::Side::kB);
      if (!cmd) continue;
      auto r = call(*players[p]->client, submit(id, ++seq[p], *cmd));
      if (!r.command_result().accepted()) continue;
      ++commands;
      const std::uint32_t entries = r.command_result().entry() + 1;
      for (int q = 0; q < 2; ++q)
        seen[q][entries] = hash_at(*players[q]->client, r.command_result().event_count());
    }
  }
  ASSERT_GE(commands, 24);
  // Each player is shown his own past exactly as he saw it live (orders cards included: the
  // two views differ where a card is sealed).
  int differing = 0;
  for (const auto& [entries, hash] : seen[0]) {
    for (int q = 0; q < 2; ++q) {
      auto r = call(*players[q]->client, get_snapshot(id, entries));
      ASSERT_TRUE(r.has_snapshot()) << r.DebugString();
      EXPECT_EQ(r.snapshot().entry_count(), entries);
      EXPECT_EQ(r.snapshot().state_hash(), seen[q][entries])
          << "side " << q << " entry " << entries;
    }
    differing += seen[0][entries] != seen[1][entries];
  }
  EXPECT_GT(differing, 0) << "no sealed orders were played: the test shows nothing";
  // Someone not seated sees nothing of a running match's past.
  EXPECT_EQ(error_of(call(*carol.client, get_snapshot(id, 1))), v1::ERROR_NOT_SEATED);
  // Once ended, anyone sees any moment, everything revealed; the last is the record's final.
  ASSERT_FALSE(error_of(call(*bob.client, resign_match(id))));
  auto record = call(*carol.client, export_record(id));
  ASSERT_TRUE(record.has_record()) << record.DebugString();
  const auto n = static_cast<std::uint32_t>(record.record().entries_size());
  auto last = call(*carol.client, get_snapshot(id, n));
  ASSERT_TRUE(last.has_snapshot()) << last.DebugString();
  EXPECT_EQ(last.snapshot().state_hash(), record.record().final_state_hash());
  EXPECT_TRUE(last.snapshot().ended());
  auto first = call(*carol.client, get_snapshot(id, 1));
  ASSERT_TRUE(first.has_snapshot()) << first.DebugString();
  EXPECT_EQ(first.snapshot().event_count(),
            record.record().entries(0).first_event() +
                static_cast<std::uint64_t>(record.record().entries(0).events_size()));
  EXPECT_EQ(error_of(call(*carol.client, get_snapshot(id, n + 1))), v1::ERROR_INVALID_REQUEST);
}

TEST(MatchPlay, AResumingClientGetsExactlyTheEventsItMissed) {
  ServerProcess server(play_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  const std::string id = started(alice, bob);
  EXPECT_TRUE(call(*bob.client, req::subscribe(id)).has_subscribed());
  Watched before = drain(*bob.client);
  // Bob goes away; alice deploys three units meanwhile.
  bob.client.reset();
  Picker picker;
  for (std::uint64_t seq = 1; seq <= 3; ++seq) {
    auto legal = call(*alice.client, get_legal(id));
    ASSERT_TRUE(
        call(*alice.client, submit(id, seq, *picker.pick(legal.legal().legal(), rules::Side::kA)))
            .command_result()
            .accepted());
  }
  Player back{greeted_client(server.ws_url()), "bob", ""};
  ASSERT_TRUE(call(*back.client, req::login("bob", "bob-password")).has_session());
  v1::ClientEnvelope resume = req::subscribe(id);
  resume.mutable_subscribe_match()->set_has_last_seen_event(true);
  resume.mutable_subscribe_match()->set_last_seen_event(before.events);
  ASSERT_TRUE(call(*back.client, resume).has_subscribed());
  std::string error;
  auto push = back.client->next_push(2s, &error);
  ASSERT_TRUE(push && push->has_match_update()) << error;
  const auto& u = push->match_update();
  EXPECT_TRUE(u.has_snapshot()) << "protocol 1.1: the board comes with the first update";
  ASSERT_GT(u.events_size(), 0);
  EXPECT_EQ(u.events(0).number(), before.events);
  // Three deployments, one event each: exactly what it missed.
  EXPECT_EQ(static_cast<std::uint64_t>(u.events(u.events_size() - 1).number()) + 1 - before.events,
            3u);
}

TEST(MatchPlay, AMissedLiveDeadlineForfeitsAndDeadlinesSurviveARestart) {
  const std::string dir = make_temp_dir("castra-deadline");
  std::string id;
  {
    ServerProcess server(play_flags({"--tick-ms", "20"}), dir);
    ASSERT_TRUE(server.started()) << server.log();
    Player alice = registered(server.ws_url(), "alice");
    Player bob = registered(server.ws_url(), "bob");
    v1::ClientEnvelope create = req::create_match("optio/test", true);
    create.mutable_create_match()->mutable_settings()->mutable_time_control()->set_seconds_per_move(
        30);
    auto created = call(*alice.client, create);
    ASSERT_TRUE(created.has_match_created()) << created.DebugString();
    id = created.match_created().match().match_id();
    EXPECT_FALSE(error_of(call(*alice.client, sit(id))));
    EXPECT_TRUE(call(*bob.client, req::join_match(id, client_entropy())).has_match_joined());
    // The clock is running for side A; the server goes down and comes back before it ends.
    server.signal(SIGKILL);
    server.wait(5s);
  }
  // The restarted server runs its clocks 40 times fast: the 30 s deadline ends in under a second.
  ServerProcess again(play_flags({"--tick-ms", "20", "--clock-speed", "40"}), dir);
  ASSERT_TRUE(again.started()) << again.log();
  Player alice{greeted_client(again.ws_url()), "alice", ""};
  ASSERT_TRUE(call(*alice.client, req::login("alice", "alice-password")).has_session());
  // The room is sent the record at the end, or at once if the end came first, however long
  // the clock takes.
  ASSERT_TRUE(call(*alice.client, req::subscribe(id)).has_subscribed());
  const auto ended = push_where(
      *alice.client, [](const v1::ServerEnvelope& e) { return e.match_update().has_record(); },
      30s);
  ASSERT_TRUE(ended) << again.log();
  auto record = call(*alice.client, export_record(id));
  ASSERT_TRUE(record.has_record()) << record.DebugString() << again.log();
  EXPECT_EQ(record.record().outcome().kind(), v1::Outcome::WIN_B);
  EXPECT_NE(record.record().outcome().reason().find("deadline"), std::string::npos);
  EXPECT_EQ(wire::verify_record(record.record()), std::nullopt);
}

// A frame as bytes with what differs between two matches by nature masked: ids, the dice
// commitment of each match's own seed, clock readings, and the commitment values of sealed
// events. State hashes are NOT masked: a viewer's hash must not depend on hidden content.
void mask(google::protobuf::Message* m) {
  static const std::set<std::string> kStrings = {"match_id", "dice_commitment", "commitment"};
  static const std::set<std::string> kTimes = {"created_ms",     "updated_ms",   "deadline_a_ms",
                                               "deadline_b_ms",  "deadline_ms",  "sent_ms",
                                               "server_time_ms", "grace_ends_ms"};
  const auto* r = m->GetReflection();
  std::vector<const google::protobuf::FieldDescriptor*> fields;
  r->ListFields(*m, &fields);
  for (const auto* f : fields) {
    using FD = google::protobuf::FieldDescriptor;
    if (f->cpp_type() == FD::CPPTYPE_MESSAGE) {
      if (f->is_repeated()) {
        for (int i = 0; i < r->FieldSize(*m, f); ++i)
          mask(r->MutableRepeatedMessage(m, f, i));
      } else {
        mask(r->MutableMessage(m, f));
      }
    } else if (!f->is_repeated() && f->cpp_type() == FD::CPPTYPE_STRING &&
               kStrings.count(f->name())) {
      r->SetString(m, f, "*");
    } else if (!f->is_repeated() && f->cpp_type() == FD::CPPTYPE_INT64 && kTimes.count(f->name())) {
      r->SetInt64(m, f, 0);
    }
  }
}

// Every frame `c` received: as it came on the wire (binary or JSON text), and masked, replies
// in order and pushes in order (how the two interleave depends on timing, not on anything
// hidden).
struct Frames {
  std::vector<std::string> raw;
  std::vector<std::string> masked;         // replies
  std::vector<std::string> masked_pushes;  // pushes
};

// The spectator count goes out at most once a tick, so where such an update falls among the
// others depends on the clock, not on anything hidden; it is compared raw only (its bytes
// still may not hold the orders).
bool count_only(const v1::ServerEnvelope& e) {
  if (!e.has_match_update()) return false;
  v1::MatchUpdate u = e.match_update();
  u.clear_match_id();
  u.clear_spectators();
  return u.ByteSizeLong() == 0;
}

class Recording {
 public:
  explicit Recording(client::ProtocolClient& c) : c_(c) {}
  v1::ServerEnvelope call(v1::ClientEnvelope request) {
    std::string error;
    auto id = c_.send(std::move(request), &error);
    EXPECT_TRUE(id) << error;
    for (;;) {
      auto frame = next(5s, &error);
      if (!frame) {
        ADD_FAILURE() << "no reply: " << error;
        return {};
      }
      if (frame->request_id() == *id) return *frame;
    }
  }
  void drain() {
    std::string error;
    while (next(300ms, &error)) {
    }
  }
  Frames frames;

 private:
  // The next frame, kept: its bytes as they came, then the envelope they hold.
  std::optional<v1::ServerEnvelope> next(std::chrono::milliseconds timeout, std::string* error) {
    auto raw = c_.socket().receive(timeout, error);
    if (!raw) return std::nullopt;
    v1::ServerEnvelope e;
    EXPECT_TRUE(c_.decode(*raw, c_.socket().received_text(), &e)) << "not a ServerEnvelope";
    frames.raw.push_back(*raw);
    keep(e);
    return e;
  }
  void keep(const v1::ServerEnvelope& e) {
    v1::ServerEnvelope m = e;
    mask(&m);
    if (m.request_id() != 0) {
      m.set_request_id(1);  // ids run on per client across the two matches
      frames.masked.push_back(m.SerializeAsString());
    } else if (!count_only(m)) {
      frames.masked_pushes.push_back(m.SerializeAsString());
    }
  }
  client::ProtocolClient& c_;
};

// Bob's own pieces in optio/test (units 11-16, leaders 3 and 4) and one of alice's: what he
// asks GetReasons about after every command, so that the reasons frames join the compared ones.
std::vector<v1::ClientEnvelope> reasons_requests(const std::string& id) {
  std::vector<v1::ClientEnvelope> out;
  for (int unit : {11, 12, 13, 14, 15, 16, 5}) {
    v1::ClientEnvelope& e = out.emplace_back();
    e.mutable_get_reasons()->set_match_id(id);
    e.mutable_get_reasons()->mutable_piece()->set_unit(unit);
  }
  for (int leader : {3, 4}) {
    v1::ClientEnvelope& e = out.emplace_back();
    e.mutable_get_reasons()->set_match_id(id);
    e.mutable_get_reasons()->mutable_piece()->set_leader(leader);
  }
  return out;
}

// One Optio match played to the move phase of turn 2, side A's orders paths going
// `a_extra` squares past their starts; what bob (side B) and carol (a spectator) received,
// bob's reasons for his pieces after every round included.
struct Seen {
  Frames bob;
  Frames carol;
  std::string planted;  // side A's first orders path, as its message would be on bob's wire
};

Seen play_with_orders(Player& alice, Player& bob, Player& carol, int a_extra) {
  Seen seen;
  Recording b(*bob.client);
  Recording c(*carol.client);
  auto created = call(*alice.client, req::create_match("optio/test", true));
  const std::string id = created.match_created().match().match_id();
  EXPECT_FALSE(error_of(call(*alice.client, sit(id))));
  c.call(req::subscribe(id));
  b.call(req::join_match(id, client_entropy()));
  b.call(req::subscribe(id));
  Picker pick_a;
  pick_a.orders_extra = a_extra;
  Picker pick_b;
  std::uint64_t seq_a = 0;
  std::uint64_t seq_b = 0;
  int phases = 0;
  for (int round = 0; round < 200 && phases < 4; ++round) {
    auto legal_a = call(*alice.client, get_legal(id));
    if (auto cmd = pick_a.pick(legal_a.legal().legal(), rules::Side::kA)) {
      if (cmd->optio().has_submit_orders()) {
        seen.planted = wire_text(*bob.client, cmd->optio().submit_orders().paths(0));
      }
      auto r = call(*alice.client, submit(id, ++seq_a, *cmd));
      if (r.command_result().accepted() && cmd->optio().has_end_phase()) ++phases;
    }
    auto legal_b = b.call(get_legal(id));
    if (auto cmd = pick_b.pick(legal_b.legal().legal(), rules::Side::kB)) {
      auto r = b.call(submit(id, ++seq_b, *cmd));
      if (r.command_result().accepted() && cmd->optio().has_end_phase()) ++phases;
    }
    for (const auto& ask : reasons_requests(id)) {
      EXPECT_TRUE(b.call(ask).has_reasons());
    }
  }
  EXPECT_FALSE(call(*alice.client, export_record(id)).has_record()) << "the match must not be over";
  b.drain();
  c.drain();
  seen.bob = std::move(b.frames);
  seen.carol = std::move(c.frames);
  return seen;
}

// Reports the first frame that differs, readably.
void expect_same(const std::vector<std::string>& a, const std::vector<std::string>& b,
                 const std::string& who) {
  EXPECT_EQ(a.size(), b.size()) << who << " received a different number of frames";
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (a[i] == b[i]) continue;
    v1::ServerEnvelope x;
    v1::ServerEnvelope y;
    x.ParseFromString(a[i]);
    y.ParseFromString(b[i]);
    ADD_FAILURE() << who << ": frame " << i << " differs:\n"
                  << x.ShortDebugString().substr(0, 2000) << "\n---\n"
                  << y.ShortDebugString().substr(0, 2000);
    return;
  }
}

bool contains(const std::vector<std::string>& frames, const std::string& pattern) {
  for (const auto& f : frames) {
    if (f.find(pattern) != std::string::npos) return true;
  }
  return false;
}

// Also the reasons frames (bob's replies): who is in command and what stops a piece are
// worked out on bob's own projection, never from side A's orders.
// In both encodings: MatchPlay.X binary, JsonProtocol.MatchPlay_X in JSON text frames.
CASTRA_ENCODED_TEST(MatchPlay, OrdersCardsNeverReachTheOpponentOrSpectatorsFrameByFrame) {
  ServerProcess server(play_flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  Player carol = registered(server.ws_url(), "carol");
  const Seen one = play_with_orders(alice, bob, carol, 3);
  const Seen two = play_with_orders(alice, bob, carol, 0);
  ASSERT_GT(one.bob.raw.size(), 20u);
  ASSERT_GT(one.planted.size(), two.planted.size());
  expect_same(one.bob.masked, two.bob.masked, "the opponent's replies");
  expect_same(one.bob.masked_pushes, two.bob.masked_pushes, "the opponent's pushes");
  expect_same(one.carol.masked, two.carol.masked, "a spectator's replies");
  expect_same(one.carol.masked_pushes, two.carol.masked_pushes, "a spectator's pushes");
  EXPECT_FALSE(contains(one.bob.raw, one.planted));
  EXPECT_FALSE(contains(one.carol.raw, one.planted));
}

}  // namespace
}  // namespace castra::testing
