// Campaigns end to end through the real castra-server over WebSockets (issue 13): two players
// play a three-battle campaign of each rule set from the lobby to its result, with secret
// selections; the server is killed and restarted in the middle of a battle and between two;
// the rosters after each battle are the hand-written ones below; a spectator follows the
// campaign and never sees a selection before the battle it is for begins (its raw frames); a
// missed selection deadline fields the definition's default; a pause holds the selection
// deadline and the battle's clocks; the exported campaign record verifies.
#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "common/wire/campaign_play.hpp"
#include "tests/server/picker.hpp"
#include "tests/server/protocol_support.hpp"

namespace castra::testing {
namespace {

namespace req = client::requests;
using google::protobuf::util::MessageDifferencer;

std::vector<std::string> flags(std::vector<std::string> extra = {}) {
  extra.insert(extra.begin(), {"--tick-ms", "20"});
  return play_flags(extra);
}

template <class M>
M from_json(const std::string& json) {
  M m;
  const auto status = google::protobuf::util::JsonStringToMessage(json, &m);
  EXPECT_TRUE(status.ok()) << status.ToString() << "\n" << json;
  return m;
}

// What one rule set's run expects, written by hand from the test definitions
// (tests/data/scenarios/campaigns/test-*.json) and docs/rules/campaigns.md.
struct Plan {
  std::string definition;
  v1::Selection refused;      // at "stand": breaks a selection rule
  v1::Selection alice;        // at "stand": side A's choice
  v1::Selection bob_default;  // at "stand": the default fielded for side B's missed deadline
  // The rosters after "first", after "stand" and after "last" (no battle is fought out, so no
  // unit routs and no figure is lost: what changes is morale recovery and reinforcements).
  v1::Roster a_first, b_first, a_stand, b_stand, a_last, b_last;
  v1::Roster a_before_last;  // side A's after "stand" with the reinforcement of "last"
  // How the definition decides the campaign: by battles won, or by the last battle.
  bool decided_by_last_battle = false;
};

Plan optio_plan() {
  Plan p;
  p.definition = "test-optio";
  // Leader 2 commands the equites (command 2), who are not selected.
  p.refused = from_json<v1::Selection>(R"({"units": [1, 2], "leaders": [1, 2]})");
  p.alice = from_json<v1::Selection>(R"({"units": [1, 3], "leaders": [1, 2]})");
  // Units in roster order up to the limit of 3, with every leader who has a unit of his command.
  p.bob_default = from_json<v1::Selection>(R"({"units": [11, 12, 13], "leaders": [3, 4]})");
  // Every unit fought "first": morale at the end (unchanged) + 1, at most the type's firm +
  // shaken (heavy infantry 4, cavalry 3, warband 3, light cavalry 2).
  p.a_first = from_json<v1::Roster>(R"({"army": "Rome", "optio": {
      "units": [
        {"id": 1, "type": "UNIT_TYPE_HEAVY_INFANTRY", "bases": 2, "command": 1, "morale": 3, "name": "hastati"},
        {"id": 2, "type": "UNIT_TYPE_HEAVY_INFANTRY", "bases": 2, "command": 1, "morale": 4, "name": "principes"},
        {"id": 3, "type": "UNIT_TYPE_CAVALRY", "bases": 2, "command": 2, "morale": 3, "name": "equites"}],
      "leaders": [
        {"id": 1, "general": true, "command": 1, "name": "consul"},
        {"id": 2, "command": 2, "name": "prefect"}]}})");
  p.b_first = from_json<v1::Roster>(R"({"army": "Carthage", "optio": {
      "units": [
        {"id": 11, "type": "UNIT_TYPE_WARBAND", "bases": 2, "command": 3, "morale": 3, "name": "Gauls"},
        {"id": 12, "type": "UNIT_TYPE_WARBAND", "bases": 2, "command": 3, "morale": 3, "name": "Celtiberians"},
        {"id": 13, "type": "UNIT_TYPE_LIGHT_CAVALRY", "bases": 2, "command": 4, "morale": 2, "name": "Numidians"}],
      "leaders": [
        {"id": 3, "general": true, "command": 3, "name": "Hannibal"},
        {"id": 4, "command": 4, "name": "Maharbal"}]}})");
  p.a_stand = from_json<v1::Roster>(R"({"army": "Rome", "optio": {
      "units": [
        {"id": 1, "type": "UNIT_TYPE_HEAVY_INFANTRY", "bases": 2, "command": 1, "morale": 4, "name": "hastati"},
        {"id": 2, "type": "UNIT_TYPE_HEAVY_INFANTRY", "bases": 2, "command": 1, "morale": 4, "name": "principes"},
        {"id": 3, "type": "UNIT_TYPE_CAVALRY", "bases": 2, "command": 2, "morale": 3, "name": "equites"}],
      "leaders": [
        {"id": 1, "general": true, "command": 1, "name": "consul"},
        {"id": 2, "command": 2, "name": "prefect"}]}})");
  p.b_stand = p.b_first;
  // The velites arrive before "last" at full morale (0), and fight it (skirmishers: 1 + 1 = 2).
  p.a_before_last = from_json<v1::Roster>(R"({"army": "Rome", "optio": {
      "units": [
        {"id": 1, "type": "UNIT_TYPE_HEAVY_INFANTRY", "bases": 2, "command": 1, "morale": 4, "name": "hastati"},
        {"id": 2, "type": "UNIT_TYPE_HEAVY_INFANTRY", "bases": 2, "command": 1, "morale": 4, "name": "principes"},
        {"id": 3, "type": "UNIT_TYPE_CAVALRY", "bases": 2, "command": 2, "morale": 3, "name": "equites"},
        {"id": 4, "type": "UNIT_TYPE_SKIRMISHERS", "bases": 2, "command": 1, "name": "velites"}],
      "leaders": [
        {"id": 1, "general": true, "command": 1, "name": "consul"},
        {"id": 2, "command": 2, "name": "prefect"}]}})");
  p.a_last = from_json<v1::Roster>(R"({"army": "Rome", "optio": {
      "units": [
        {"id": 1, "type": "UNIT_TYPE_HEAVY_INFANTRY", "bases": 2, "command": 1, "morale": 4, "name": "hastati"},
        {"id": 2, "type": "UNIT_TYPE_HEAVY_INFANTRY", "bases": 2, "command": 1, "morale": 4, "name": "principes"},
        {"id": 3, "type": "UNIT_TYPE_CAVALRY", "bases": 2, "command": 2, "morale": 3, "name": "equites"},
        {"id": 4, "type": "UNIT_TYPE_SKIRMISHERS", "bases": 2, "command": 1, "morale": 2, "name": "velites"}],
      "leaders": [
        {"id": 1, "general": true, "command": 1, "name": "consul"},
        {"id": 2, "command": 2, "name": "prefect"}]}})");
  p.b_last = p.b_first;
  return p;
}

Plan stand_plan() {
  Plan p;
  p.definition = "test-stand";
  p.refused = from_json<v1::Selection>(R"({"figures": {"infantry": 5, "archers": 2}})");  // 7 > 6
  p.alice = from_json<v1::Selection>(R"({"figures": {"infantry": 4, "chariots": 2}})");
  // Six of ten figures by largest remainder: infantry 6*6/10 = 3.6, archers 1.2, chariots 1.2
  // -> 3, 1, 1 and the one left to infantry (the largest remainder).
  p.bob_default =
      from_json<v1::Selection>(R"({"figures": {"infantry": 4, "archers": 1, "chariots": 1}})");
  p.a_first = from_json<v1::Roster>(
      R"({"army": "Egypt", "stand": {"figures": {"infantry": 6, "archers": 2, "chariots": 2}}})");
  p.b_first = from_json<v1::Roster>(
      R"({"army": "Hatti", "stand": {"figures": {"infantry": 6, "archers": 2, "chariots": 2}}})");
  p.a_stand = p.a_first;
  p.b_stand = p.b_first;
  p.a_last = from_json<v1::Roster>(
      R"({"army": "Egypt", "stand": {"figures": {"infantry": 8, "archers": 2, "chariots": 2}}})");
  p.a_before_last = p.a_last;
  p.b_last = p.b_first;
  p.decided_by_last_battle = true;
  return p;
}

v1::ClientEnvelope pause(const std::string& id, bool on) {
  v1::ClientEnvelope e;
  e.mutable_pause_campaign()->set_campaign_id(id);
  e.mutable_pause_campaign()->set_pause(on);
  return e;
}

v1::CampaignView view(Player& p, const std::string& id) {
  auto reply = call(*p.client, get_campaign(id));
  EXPECT_TRUE(reply.has_campaign()) << reply.DebugString();
  return reply.campaign();
}

// The campaign once `done` holds: the server moves a campaign on by itself (after a commit, a
// hosted battle, a deadline) and tells its players each time (CampaignUpdated), so this waits
// for those pushes; a test failure after 20 s.
v1::CampaignView view_when(Player& p, const std::string& id,
                           const std::function<bool(const v1::CampaignView&)>& done) {
  const auto until = std::chrono::steady_clock::now() + 20s;
  v1::CampaignView v = view(p, id);
  std::string error;
  while (!done(v) && std::chrono::steady_clock::now() < until) {
    auto push = p.client->next_push(std::chrono::duration_cast<std::chrono::milliseconds>(
                                        until - std::chrono::steady_clock::now()),
                                    &error);
    if (!push) break;
    if (push->has_campaign_updated() &&
        push->campaign_updated().campaign().summary().campaign_id() == id) {
      v = push->campaign_updated().campaign();
    }
  }
  EXPECT_TRUE(done(v)) << v.DebugString();
  return v;
}

// The summary of one of the player's matches once `done` holds for it: as MyMatches has it,
// then as the server pushes it (MatchUpdated: a campaign's battle that begins is one); a test
// failure after 20 s.
v1::MatchSummary match_when(Player& p, const std::string& match_id,
                            const std::function<bool(const v1::MatchSummary&)>& done) {
  const auto until = std::chrono::steady_clock::now() + 20s;
  v1::MatchSummary found;
  v1::ClientEnvelope e;
  e.mutable_my_matches();
  const auto reply = call(*p.client, e);
  for (const auto& m : reply.matches().matches()) {
    if (m.match_id() == match_id) found = m;
  }
  std::string error;
  while (!done(found) && std::chrono::steady_clock::now() < until) {
    auto push = p.client->next_push(std::chrono::duration_cast<std::chrono::milliseconds>(
                                        until - std::chrono::steady_clock::now()),
                                    &error);
    if (!push) break;
    if (push->has_match_updated() && push->match_updated().match().match_id() == match_id) {
      found = push->match_updated().match();
    }
  }
  EXPECT_TRUE(done(found)) << "match " << match_id << " never got there: " << found.DebugString();
  return found;
}

// The server's own clock (Pong), which runs fast under --clock-speed.
std::int64_t server_time(Player& p) {
  v1::ClientEnvelope e;
  e.mutable_ping()->set_nonce(1);
  return call(*p.client, e).pong().server_time_ms();
}

void wait_server_time_past(Player& p, std::int64_t ms) {
  const auto until = std::chrono::steady_clock::now() + 20s;
  while (server_time(p) <= ms && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(20ms);
  ASSERT_GT(server_time(p), ms);
}

Player signed_in(const std::string& url, const std::string& name) {
  Player p{greeted_client(url), name, ""};
  EXPECT_TRUE(call(*p.client, req::login(name, name + "-password")).has_session());
  return p;
}

Player spectator(const std::string& url, const std::string& id) {
  Player p{greeted_client(url), "guest", ""};
  EXPECT_TRUE(call(*p.client, req::guest()).has_session());
  v1::ClientEnvelope e;
  e.mutable_subscribe_campaign()->set_campaign_id(id);
  EXPECT_TRUE(call(*p.client, e).has_campaign());
  return p;
}

// Every CampaignUpdated push the spectator has been sent so far: all that came before the
// reply to a request of its own.
void collect(Player& spectator, const std::string& id, std::vector<v1::ServerEnvelope>* frames) {
  view(spectator, id);
  std::string error;
  while (auto push = spectator.client->next_push(0ms, &error)) {
    if (push->has_campaign_updated()) frames->push_back(*push);
  }
}

const v1::Roster& own_roster(const v1::CampaignView& v, v1::Side side) {
  return side == v1::SIDE_A ? v.roster_a() : v.roster_b();
}

void expect_roster(const v1::Roster& actual, const v1::Roster& expected, const char* what) {
  EXPECT_TRUE(MessageDifferencer::Equivalent(actual, expected))
      << what << "\nactual:   " << actual.ShortDebugString()
      << "\nexpected: " << expected.ShortDebugString();
}

// What a battle shows of a roster: the units and leaders (Optio) or figures (STAND!) it fielded.
v1::Roster fielded_part(const v1::Roster& roster, const v1::Selection& fielded) {
  v1::Roster out;
  out.set_army(roster.army());
  if (roster.has_stand()) {
    *out.mutable_stand()->mutable_figures() = fielded.figures();
    return out;
  }
  out.mutable_optio();
  for (const auto& u : roster.optio().units()) {
    if (std::count(fielded.units().begin(), fielded.units().end(), u.id()))
      *out.mutable_optio()->add_units() = u;
  }
  for (const auto& l : roster.optio().leaders()) {
    if (std::count(fielded.leaders().begin(), fielded.leaders().end(), l.id()))
      *out.mutable_optio()->add_leaders() = l;
  }
  return out;
}

bool has_battle(const v1::CampaignView& v, const std::string& node) {
  for (const auto& b : v.history()) {
    if (b.node() == node) return true;
  }
  return false;
}

// One whole campaign of `plan`'s rule set; `dir` keeps the database across restarts.
void play_campaign(const Plan& plan) {
  const std::string dir = make_temp_dir("castra-campaign");
  std::string id;
  std::string first_match;
  std::vector<v1::ServerEnvelope> frames;  // the spectator's, over every server run
  {
    ServerProcess server(flags(), dir);
    ASSERT_TRUE(server.started()) << server.log();
    Player alice = registered(server.ws_url(), "alice");
    Player bob = registered(server.ws_url(), "bob");
    auto created = call(*alice.client, create_campaign(plan.definition));
    ASSERT_TRUE(created.has_campaign_created()) << created.DebugString();
    id = created.campaign_created().campaign().campaign_id();
    Player carol = spectator(server.ws_url(), id);

    v1::ClientEnvelope join;
    join.mutable_join_campaign()->set_campaign_id(id);
    auto joined = call(*bob.client, join);
    ASSERT_TRUE(joined.has_campaign()) << joined.DebugString();
    EXPECT_EQ(joined.campaign().summary().stage(), v1::STAGE_SELECTING);
    EXPECT_EQ(joined.campaign().summary().node(), "first");
    EXPECT_FALSE(joined.campaign().summary().battle_dice_commitment().empty());

    // "first" takes the whole roster: each player only gives his entropy.
    for (Player* p : {&alice, &bob}) {
      auto r = call(*p->client, select(id, "first", v1::Selection()));
      ASSERT_TRUE(r.has_selection_result() && r.selection_result().accepted()) << r.DebugString();
    }
    auto fighting = view_when(alice, id, [](const v1::CampaignView& v) {
      return v.summary().stage() == v1::STAGE_FIGHTING;
    });
    first_match = fighting.summary().battle_match_id();
    const auto live = match_when(
        alice, first_match, [](const v1::MatchSummary& m) { return m.status() == v1::MATCH_LIVE; });
    EXPECT_EQ(live.dice_commitment(), joined.campaign().summary().battle_dice_commitment())
        << "the battle is fought with the seed committed to before anyone gave his entropy";

    // One move in the battle, then the server dies in the middle of it.
    v1::ClientEnvelope legal;
    legal.mutable_get_legal()->set_match_id(first_match);
    const auto first_to_act = live.a_to_act() ? &alice : &bob;
    auto l = call(*first_to_act->client, legal);
    ASSERT_TRUE(l.has_legal()) << l.DebugString();
    Picker picker;
    auto command =
        picker.pick(l.legal().legal(), live.a_to_act() ? rules::Side::kA : rules::Side::kB);
    ASSERT_TRUE(command);
    v1::ClientEnvelope submit;
    submit.mutable_submit_command()->set_match_id(first_match);
    submit.mutable_submit_command()->set_client_seq(1);
    *submit.mutable_submit_command()->mutable_command() = *command;
    auto submitted = call(*first_to_act->client, submit);
    ASSERT_TRUE(submitted.command_result().accepted()) << submitted.DebugString();
    collect(carol, id, &frames);
    server.signal(SIGKILL);
    server.wait(5s);
  }
  {
    ServerProcess server(flags(), dir);
    ASSERT_TRUE(server.started()) << server.log();
    Player alice = signed_in(server.ws_url(), "alice");
    Player bob = signed_in(server.ws_url(), "bob");
    Player carol = spectator(server.ws_url(), id);
    auto v = view(alice, id);
    EXPECT_EQ(v.summary().stage(), v1::STAGE_FIGHTING);
    EXPECT_EQ(v.summary().battle_match_id(), first_match);
    // The battle goes on where it was; side A resigns it: side B wins "first".
    ASSERT_FALSE(error_of(call(*alice.client, resign_match(first_match))));
    auto stand = view_when(alice, id, [](const v1::CampaignView& c) {
      return c.summary().stage() == v1::STAGE_SELECTING && c.summary().node() == "stand";
    });
    ASSERT_EQ(stand.history_size(), 1);
    EXPECT_EQ(stand.history(0).outcome().kind(), v1::Outcome::WIN_B);
    expect_roster(own_roster(stand, v1::SIDE_A), plan.a_first, "side A after first");
    expect_roster(own_roster(view(bob, id), v1::SIDE_B), plan.b_first, "side B after first");
    collect(carol, id, &frames);
    server.signal(SIGKILL);
    server.wait(5s);
  }
  std::string last_match;
  {
    // Between two battles: everything is as it was.
    ServerProcess server(flags(), dir);
    ASSERT_TRUE(server.started()) << server.log();
    Player alice = signed_in(server.ws_url(), "alice");
    Player carol = spectator(server.ws_url(), id);
    auto v = view(alice, id);
    EXPECT_EQ(v.summary().node(), "stand");
    expect_roster(own_roster(v, v1::SIDE_A), plan.a_first, "side A after a restart");
    auto refused = call(*alice.client, select(id, "stand", plan.refused));
    ASSERT_TRUE(refused.has_selection_result()) << refused.DebugString();
    EXPECT_FALSE(refused.selection_result().accepted());
    EXPECT_EQ(refused.selection_result().error().rule().rfind("campaign.selection", 0), 0u)
        << refused.DebugString();
    auto chosen = call(*alice.client, select(id, "stand", plan.alice));
    ASSERT_TRUE(chosen.selection_result().accepted()) << chosen.DebugString();
    v = view(alice, id);
    EXPECT_TRUE(MessageDifferencer::Equivalent(v.my_selection(), plan.alice));
    EXPECT_EQ(v.selection_commitment_a(), chosen.selection_result().commitment());
    collect(carol, id, &frames);
    server.signal(SIGKILL);
    server.wait(5s);
  }
  {
    // Side B never selects for "stand": at 20,000 times real time its day runs out in seconds.
    ServerProcess server(flags({"--clock-speed", "20000"}), dir);
    ASSERT_TRUE(server.started()) << server.log();
    Player alice = signed_in(server.ws_url(), "alice");
    Player bob = signed_in(server.ws_url(), "bob");
    Player carol = spectator(server.ws_url(), id);
    auto stand = view_when(alice, id, [](const v1::CampaignView& c) {
      return c.summary().node() == "stand" && c.summary().stage() == v1::STAGE_FIGHTING;
    });
    collect(carol, id, &frames);
    const std::string stand_match = stand.summary().battle_match_id();
    match_when(alice, stand_match,
               [](const v1::MatchSummary& m) { return m.status() == v1::MATCH_LIVE; });
    ASSERT_FALSE(error_of(call(*alice.client, resign_match(stand_match))));
    auto last = view_when(alice, id, [](const v1::CampaignView& c) {
      return c.summary().node() == "last" && c.summary().stage() == v1::STAGE_SELECTING;
    });
    ASSERT_EQ(last.history_size(), 2);
    const auto& fought = last.history(1);
    EXPECT_EQ(fought.outcome().kind(), v1::Outcome::WIN_B);
    EXPECT_TRUE(MessageDifferencer::Equivalent(fought.selection_a(), plan.alice));
    EXPECT_TRUE(MessageDifferencer::Equivalent(fought.selection_b(), plan.bob_default))
        << fought.selection_b().ShortDebugString();
    expect_roster(own_roster(last, v1::SIDE_A), plan.a_before_last, "side A before last");
    expect_roster(fought.roster_a_after(), plan.a_stand, "side A after stand");
    expect_roster(view(bob, id).history(1).roster_b_after(), plan.b_stand, "side B after stand");
    // Side A sees of side B's army at "stand" what fought there, no more.
    EXPECT_TRUE(MessageDifferencer::Equivalent(fought.roster_b_before(),
                                               fielded_part(plan.b_first, plan.bob_default)))
        << fought.roster_b_before().ShortDebugString();

    // Both ask to pause: the selection deadline no longer runs.
    const std::int64_t deadline = last.summary().deadline_ms();
    ASSERT_GT(deadline, 0);
    ASSERT_FALSE(error_of(call(*alice.client, pause(id, true))));
    EXPECT_FALSE(view(bob, id).summary().paused()) << "one side's wish is not a pause";
    ASSERT_FALSE(error_of(call(*bob.client, pause(id, true))));
    EXPECT_TRUE(view(bob, id).summary().paused());
    wait_server_time_past(alice, deadline);
    auto held = view(alice, id);
    EXPECT_EQ(held.summary().stage(), v1::STAGE_SELECTING) << "the paused deadline passed";
    EXPECT_FALSE(held.summary().selection_in_b());
    // Selections may still be made; the battle's clocks are held from its start.
    for (Player* p : {&alice, &bob}) {
      auto r = call(*p->client, select(id, "last", v1::Selection()));
      ASSERT_TRUE(r.selection_result().accepted()) << r.DebugString();
    }
    auto battle = view_when(alice, id, [](const v1::CampaignView& c) {
      return c.summary().stage() == v1::STAGE_FIGHTING;
    });
    last_match = battle.summary().battle_match_id();
    match_when(alice, last_match, [](const v1::MatchSummary& m) {
      return m.status() == v1::MATCH_LIVE && (m.deadline_a_ms() > 0 || m.deadline_b_ms() > 0);
    });
    collect(carol, id, &frames);
    server.signal(SIGKILL);
    server.wait(5s);
  }
  {
    // Still paused after a restart, at a million times real time: fourteen days in a second.
    ServerProcess server(flags({"--clock-speed", "1000000"}), dir);
    ASSERT_TRUE(server.started()) << server.log();
    Player alice = signed_in(server.ws_url(), "alice");
    Player bob = signed_in(server.ws_url(), "bob");
    Player carol = spectator(server.ws_url(), id);
    const auto started = match_when(
        alice, last_match, [](const v1::MatchSummary& m) { return m.status() == v1::MATCH_LIVE; });
    wait_server_time_past(alice, std::max(started.deadline_a_ms(), started.deadline_b_ms()));
    EXPECT_EQ(match_when(alice, last_match, [](const v1::MatchSummary&) { return true; }).status(),
              v1::MATCH_LIVE)
        << "a deadline ran out while the campaign was paused";
    EXPECT_TRUE(view(alice, id).summary().paused());
    // Resumed, the acting side's fourteen days run out: the battle is forfeited.
    ASSERT_FALSE(error_of(call(*alice.client, pause(id, false))));
    ASSERT_FALSE(error_of(call(*bob.client, pause(id, false))));
    auto over = view_when(alice, id, [](const v1::CampaignView& c) {
      return c.summary().status() == v1::CAMPAIGN_FINISHED;
    });
    ASSERT_EQ(over.history_size(), 3);
    // "first" and "stand" to side B (side A resigned both), "last" to whoever did not run out
    // of time first.
    EXPECT_EQ(over.history(1).outcome().kind(), v1::Outcome::WIN_B);
    const auto last_result = over.history(2).outcome().kind();
    // By battles won, side B's two are a majority whatever "last" gave.
    const auto expected = plan.decided_by_last_battle ? last_result : v1::Outcome::WIN_B;
    EXPECT_EQ(over.summary().outcome().kind(), expected) << over.summary().ShortDebugString();
    expect_roster(over.history(2).roster_a_after(), plan.a_last, "side A after last");
    expect_roster(view(bob, id).history(2).roster_b_after(), plan.b_last, "side B after last");
    collect(carol, id, &frames);

    // The record verifies, and names what a tampered one breaks.
    v1::ClientEnvelope e;
    e.mutable_export_campaign()->set_campaign_id(id);
    auto exported = call(*carol.client, e);
    ASSERT_TRUE(exported.has_campaign_record()) << exported.DebugString();
    EXPECT_EQ(wire::verify_campaign(exported.campaign_record()), std::nullopt);
    EXPECT_EQ(exported.campaign_record().battles_size(), 3);
  }

  // The spectator never saw side A's "stand" selection before "stand" began.
  ASSERT_FALSE(frames.empty());
  const std::string secret = plan.alice.SerializeAsString();
  for (const auto& f : frames) {
    const auto& v = f.campaign_updated().campaign();
    if (has_battle(v, "stand")) break;
    EXPECT_EQ(v.my_selection().ByteSizeLong(), 0u);
    EXPECT_EQ(f.SerializeAsString().find(secret), std::string::npos)
        << "a spectator's frame holds the selection: " << f.ShortDebugString();
  }
}

// Both campaigns in both encodings: CampaignEndToEnd.X binary, JsonProtocol.CampaignEndToEnd_X
// with every player and the spectator on JSON text frames.
CASTRA_ENCODED_TEST(CampaignEndToEnd,
                    AnOptioCampaignOfThreeBattlesWithSecretSelectionsRestartsAndAPause) {
  play_campaign(optio_plan());
}

CASTRA_ENCODED_TEST(CampaignEndToEnd,
                    AStandCampaignOfThreeBattlesWithSecretSelectionsRestartsAndAPause) {
  play_campaign(stand_plan());
}

v1::ClientEnvelope join_campaign(const std::string& id, const std::string& code = "") {
  v1::ClientEnvelope e;
  e.mutable_join_campaign()->set_campaign_id(id);
  e.mutable_join_campaign()->set_invitation_code(code);
  return e;
}

std::vector<v1::CampaignSummary> listed(Player& p, v1::CampaignStatus status) {
  v1::ClientEnvelope e;
  e.mutable_list_campaigns()->set_status(status);
  const auto reply = call(*p.client, e);
  return {reply.campaigns().campaigns().begin(), reply.campaigns().campaigns().end()};
}

std::vector<v1::CampaignSummary> mine(Player& p) {
  v1::ClientEnvelope e;
  e.mutable_my_campaigns();
  const auto reply = call(*p.client, e);
  return {reply.campaigns().campaigns().begin(), reply.campaigns().campaigns().end()};
}

TEST(CampaignEndToEnd, ASideLeftIsOfferedToAReplacementAndEveryRequestIsChecked) {
  ServerProcess server(flags());
  ASSERT_TRUE(server.started()) << server.log();
  Player alice = registered(server.ws_url(), "alice");
  Player bob = registered(server.ws_url(), "bob");
  Player carol = registered(server.ws_url(), "carol");
  Player guest{greeted_client(server.ws_url()), "guest", ""};
  ASSERT_TRUE(call(*guest.client, req::guest()).has_session());
  EXPECT_EQ(error_of(call(*guest.client, create_campaign("test-optio"))),
            v1::ERROR_GUEST_NOT_ALLOWED);
  EXPECT_EQ(error_of(call(*alice.client, create_campaign("no-such-campaign"))),
            v1::ERROR_DEFINITION_NOT_FOUND);

  v1::ClientEnvelope definitions;
  definitions.mutable_list_campaign_definitions();
  EXPECT_EQ(call(*guest.client, definitions).campaign_definitions().definitions_size(), 2);

  const std::string id = call(*alice.client, create_campaign("test-optio"))
                             .campaign_created()
                             .campaign()
                             .campaign_id();
  // A private one: nobody but its players sees it without the code.
  auto hidden = create_campaign("test-stand");
  hidden.mutable_create_campaign()->set_is_private(true);
  const auto made = call(*alice.client, hidden).campaign_created();
  ASSERT_FALSE(made.invitation_code().empty());
  const std::string secret_id = made.campaign().campaign_id();
  EXPECT_EQ(error_of(call(*carol.client, get_campaign(secret_id))), v1::ERROR_BAD_INVITATION);
  EXPECT_EQ(error_of(call(*carol.client, join_campaign(secret_id))), v1::ERROR_BAD_INVITATION);
  std::vector<std::string> open;
  for (const auto& c : listed(guest, v1::CAMPAIGN_OPEN))
    open.push_back(c.campaign_id());
  EXPECT_EQ(open, std::vector<std::string>{id}) << "a private campaign is never listed";

  ASSERT_TRUE(call(*bob.client, join_campaign(id)).has_campaign());
  EXPECT_EQ(error_of(call(*carol.client, join_campaign(id))), v1::ERROR_CAMPAIGN_NOT_OPEN);
  EXPECT_EQ(error_of(call(*alice.client, select(id, "stand", v1::Selection()))),
            v1::ERROR_NO_SELECTION_DUE);
  EXPECT_EQ(error_of(call(*carol.client, select(id, "first", v1::Selection()))),
            v1::ERROR_NOT_IN_CAMPAIGN);
  // The private one is still open; it is withdrawn. The live one cannot be.
  v1::ClientEnvelope leave;
  leave.mutable_leave_campaign()->set_campaign_id(secret_id);
  EXPECT_FALSE(error_of(call(*alice.client, leave)));
  EXPECT_EQ(view(alice, secret_id).summary().status(), v1::CAMPAIGN_CLOSED);
  leave.mutable_leave_campaign()->set_campaign_id(id);
  EXPECT_EQ(error_of(call(*alice.client, leave)), v1::ERROR_CAMPAIGN_NOT_OPEN);

  // Alice has a selection to make: her live campaign comes before the closed one.
  auto alices = mine(alice);
  ASSERT_EQ(alices.size(), 2u);
  EXPECT_EQ(alices[0].campaign_id(), id);
  EXPECT_TRUE(alices[0].my_action());
  EXPECT_FALSE(alices[1].my_action());

  ASSERT_TRUE(
      call(*bob.client, select(id, "first", v1::Selection())).selection_result().accepted());
  EXPECT_EQ(error_of(call(*bob.client, select(id, "first", v1::Selection()))),
            v1::ERROR_NO_SELECTION_DUE)
      << "a selection in is never made twice";
  EXPECT_FALSE(mine(bob)[0].my_action());

  // Bob leaves: his side is offered, without his selection, and carol takes it.
  v1::ClientEnvelope resign;
  resign.mutable_resign_campaign()->set_campaign_id(id);
  EXPECT_FALSE(error_of(call(*bob.client, resign)));
  auto vacant = listed(guest, v1::CAMPAIGN_OPEN);
  ASSERT_EQ(vacant.size(), 1u);
  EXPECT_TRUE(vacant[0].vacancy());
  EXPECT_EQ(vacant[0].vacant_side(), v1::SIDE_B);
  EXPECT_FALSE(vacant[0].selection_in_b());
  auto taken = call(*carol.client, join_campaign(id));
  ASSERT_TRUE(taken.has_campaign()) << taken.DebugString();
  EXPECT_EQ(taken.campaign().summary().player_b(), "carol");
  EXPECT_EQ(taken.campaign().summary().my_side(), v1::SIDE_B);
  EXPECT_TRUE(listed(guest, v1::CAMPAIGN_OPEN).empty());

  for (Player* p : {&alice, &carol}) {
    ASSERT_TRUE(
        call(*p->client, select(id, "first", v1::Selection())).selection_result().accepted());
  }
  auto fighting = view_when(carol, id, [](const v1::CampaignView& v) {
    return v.summary().stage() == v1::STAGE_FIGHTING;
  });
  const auto battle =
      match_when(carol, fighting.summary().battle_match_id(),
                 [](const v1::MatchSummary& m) { return m.status() == v1::MATCH_LIVE; });
  EXPECT_EQ(battle.player_a(), "alice");
  EXPECT_EQ(battle.player_b(), "carol");
  EXPECT_EQ(error_of(call(*bob.client, resign_match(battle.match_id()))), v1::ERROR_NOT_SEATED);
}

}  // namespace
}  // namespace castra::testing
