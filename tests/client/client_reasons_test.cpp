// castra-client explains, against the real castra-server: selecting one's own unit that has
// no legal action shows the rule that stops it (asked of the server, GetReasons), and the
// command toggle draws each command's chain from the server's command view. Screenshots are
// written to the test's directory and looked at.
#include <gtest/gtest.h>

#include <google/protobuf/util/json_util.h>

#include <string>

#include "client/net/protocol_client.hpp"
#include "client/sdl/theme.hpp"
#include "tests/client/client_support.hpp"
#include "tests/support/server_process.hpp"

namespace castra {
namespace {

using namespace std::chrono_literals;
using testing::Picture;
using testing::rgb;
namespace theme = client::theme;
namespace o = v1::optio;

struct Seat {
  std::unique_ptr<client::ProtocolClient> c;
  std::string match_id;
  std::uint64_t seq = 0;

  static Seat registered(const std::string& url, const std::string& name) {
    Seat s;
    std::string error;
    s.c = client::ProtocolClient::connect(url, 5s, &error);
    EXPECT_TRUE(s.c && s.c->hello(5s, &error)) << error;
    EXPECT_TRUE(s.call(client::requests::register_account(name, name + "-password")).has_session());
    return s;
  }
  v1::ServerEnvelope call(v1::ClientEnvelope e) {
    std::string error;
    auto r = c->call(std::move(e), 10s, &error);
    EXPECT_TRUE(r) << error;
    return r ? *r : v1::ServerEnvelope{};
  }
  v1::GameLegal legal() {
    v1::ClientEnvelope e;
    e.mutable_get_legal()->set_match_id(match_id);
    return call(e).legal().legal();
  }
  bool submit(const v1::GameCommand& command) {
    v1::ClientEnvelope e;
    e.mutable_submit_command()->set_match_id(match_id);
    e.mutable_submit_command()->set_client_seq(++seq);
    *e.mutable_submit_command()->mutable_command() = command;
    return call(e).command_result().accepted();
  }
  v1::PieceReasons reasons(std::optional<int> unit) {
    v1::ClientEnvelope e;
    e.mutable_get_reasons()->set_match_id(match_id);
    if (unit) e.mutable_get_reasons()->mutable_piece()->set_unit(*unit);
    return call(e).reasons();
  }
  // The board as this player is shown it: the catch-up update of a subscription.
  std::optional<o::State> board() {
    EXPECT_TRUE(call(client::requests::subscribe(match_id)).has_subscribed());
    std::string error;
    while (auto push = c->next_push(5s, &error)) {
      if (!push->has_match_update()) continue;
      if (const auto* view = testing::view_of(push->match_update())) return view->state().optio();
    }
    ADD_FAILURE() << "no board came: " << error;
    return std::nullopt;
  }
};

// Each side hands in the orders card of its subcommanders' start squares.
bool orders_in(Seat& seat) {
  const auto l = seat.legal().optio();
  v1::GameCommand c;
  for (const auto& start : l.orders().starts())
    *c.mutable_optio()->mutable_submit_orders()->add_paths() = start;
  return seat.submit(c);
}

const o::Unit* unit_of(const o::State& s, int id) {
  for (const auto& u : s.units())
    if (u.id() == id) return &u;
  return nullptr;
}

int pixels_near(const Picture& p, std::uint32_t color, SDL_Point at, int h) {
  return p.count(color, SDL_Rect{at.x - h, at.y - h, 2 * h, 2 * h});
}

TEST(ClientReasons, SelectingAUnitThatHasMovedShowsTheRuleAndTheToggleDrawsTheChains) {
  testing::ServerProcess server(
      {"--argon2-opslimit", "1", "--argon2-memlimit", "8192", "--log-level", "debug"});
  ASSERT_TRUE(server.started()) << server.log();
  Seat alice = Seat::registered(server.ws_url(), "alice");
  Seat bob = Seat::registered(server.ws_url(), "bob");
  auto create = client::requests::create_match("optio/cannae", true);
  create.mutable_create_match()->mutable_settings()->set_creator_side(v1::SIDE_A);
  alice.match_id = alice.call(create).match_created().match().match_id();
  ASSERT_FALSE(alice.match_id.empty());
  v1::ClientEnvelope sit;
  sit.mutable_provide_entropy()->set_match_id(alice.match_id);
  sit.mutable_provide_entropy()->set_entropy(std::string(32, 'a'));
  ASSERT_TRUE(alice.call(sit).has_done());
  ASSERT_TRUE(bob.call(client::requests::join_match(alice.match_id, std::string(32, 'b')))
                  .has_match_joined());
  bob.match_id = alice.match_id;
  ASSERT_TRUE(orders_in(alice));
  ASSERT_TRUE(orders_in(bob));

  // Alice advances one of Cannae's Roman heavy infantry units (3 to 9: no shot) one square,
  // as the server's list offers it; then it can do nothing more this phase.
  const auto legal = alice.legal().optio();
  int unit = 0;
  v1::GameCommand advance;
  for (const auto& ul : legal.units()) {
    if (unit != 0 || ul.unit() < 3 || ul.unit() > 9) continue;
    for (const auto& a : ul.advances()) {
      if (unit != 0 || a.charge_target() != 0 || a.steps_size() != 1) continue;
      unit = ul.unit();
      advance.mutable_optio()->mutable_advance()->set_unit(unit);
      *advance.mutable_optio()->mutable_advance()->mutable_steps() = a.steps();
    }
  }
  ASSERT_NE(unit, 0);
  ASSERT_TRUE(alice.submit(advance));
  // And her cavalry unit 2, joined to unit 1 and its subcommander, rides three squares off,
  // out of its command's chain.
  v1::GameCommand ride;
  const v1::GameLegal after = alice.legal();
  for (const auto& ul : after.optio().units()) {
    if (ul.unit() != 2) continue;
    for (const auto& a : ul.advances()) {
      if (ride.has_optio() || a.charge_target() != 0 || a.steps_size() != 3) continue;
      ride.mutable_optio()->mutable_advance()->set_unit(2);
      *ride.mutable_optio()->mutable_advance()->mutable_steps() = a.steps();
    }
  }
  ASSERT_TRUE(ride.has_optio());
  ASSERT_TRUE(alice.submit(ride));
  const auto told = alice.reasons(unit);
  ASSERT_FALSE(told.can_act()) << told.DebugString();
  const auto& to = advance.optio().advance().steps(0);
  const std::string at = std::to_string(to.col()) + " " + std::to_string(to.row());
  const auto shown = alice.board();
  ASSERT_TRUE(shown);
  const o::State& st = *shown;

  const std::string dir = testing::make_temp_dir("castra-client-reasons");
  testing::write_file(dir + "/script.txt",
                      "wait snapshot timeout=30000\nwait legal timeout=30000\n"
                      "click-cell " +
                          at +
                          "\n"
                          "wait reasons optio.5.once timeout=20000\nframes 3\n"
                          "screenshot blocked.png\n"
                          "key c\nwait reasons view timeout=20000\nframes 3\n"
                          "screenshot chains.png\nkey c\nframes 3\nscreenshot plain.png\nquit\n");
  testing::ClientProcess client(
      dir, {"--server", server.ws_url(), "--name", "alice", "--password", "alice-password",
            "--open", alice.match_id, "--script", dir + "/script.txt", "--exit-after", "100"});
  ASSERT_EQ(client.wait(120s), 0) << testing::read_file(dir + "/client.log");

  // The reason is shown under the unit's details, in words with its rule.
  auto blocked = Picture::load(dir + "/blocked.png");
  ASSERT_TRUE(blocked);
  const auto reasons = blocked->region("reasons");
  ASSERT_TRUE(reasons) << "no reasons panel in " << dir << "/blocked.png";
  // The reason's words and its rule, inside the panel.
  for (const char* said : {"has already moved this", "rule optio.5.once"}) {
    const auto words = blocked->text(said);
    ASSERT_TRUE(words) << "\"" << said << "\" is not written in " << dir << "/blocked.png";
    EXPECT_TRUE(SDL_HasIntersection(&*words, &*reasons)) << said << " is outside its panel";
  }

  // The chains: every link drawn in its leader's colour at its midpoint; nothing without the
  // toggle.
  auto chains = Picture::load(dir + "/chains.png");
  auto plain = Picture::load(dir + "/plain.png");
  ASSERT_TRUE(chains && plain);
  const auto view = alice.reasons(std::nullopt);
  ASSERT_GT(view.commands_size(), 0);
  int links = 0;
  for (const auto& c : view.commands()) {
    if (!c.in_command() || c.joined_to() == 0) continue;
    const o::Unit* a = unit_of(st, c.unit());
    const o::Unit* b = unit_of(st, c.joined_to());
    const auto pa = chains->cell(a->at().col(), a->at().row());
    const auto pb = chains->cell(b->at().col(), b->at().row());
    ASSERT_TRUE(pa && pb);
    const SDL_Point mid{(pa->x + pb->x) / 2, (pa->y + pb->y) / 2};
    const auto color = rgb(theme::kPathColors[static_cast<std::size_t>(c.leader() - 1) %
                                              std::size(theme::kPathColors)]);
    EXPECT_GT(pixels_near(*chains, color, mid, 3), 0)
        << "unit " << c.unit() << " to " << c.joined_to();
    EXPECT_EQ(pixels_near(*plain, color, mid, 3), 0) << "unit " << c.unit();
    ++links;
  }
  EXPECT_GT(links, 3) << "Cannae's lines are chains of several units";
  // Every unit out of command is ringed in red; unit 2 is one of them.
  int out = 0;
  for (const auto& c : view.commands()) {
    if (c.in_command()) continue;
    const o::Unit* u = unit_of(st, c.unit());
    const auto pu = chains->cell(u->at().col(), u->at().row());
    ASSERT_TRUE(pu);
    const int h = static_cast<int>(chains->cell_size() * 0.5);
    EXPECT_GT(pixels_near(*chains, rgb(theme::kError), *pu, h), 30) << "unit " << c.unit();
    EXPECT_EQ(pixels_near(*plain, rgb(theme::kError), *pu, h), 0) << "unit " << c.unit();
    out += c.unit() == 2 ? 1 : 0;
  }
  EXPECT_EQ(out, 1) << "unit 2 is out of command";
}

// The simplest STAND! deployment: one type at a time, as many as the first listed hex takes;
// else the end of the phase.
std::optional<v1::GameCommand> deploy_or_end(const v1::stand::Legal& l) {
  v1::GameCommand c;
  for (const auto& g : l.deploy()) {
    if (g.types_size() != 1 || g.destinations_size() == 0) continue;
    auto* dep = c.mutable_stand()->mutable_deploy();
    *dep->mutable_hex() = g.destinations(0).hex();
    *dep->mutable_figures() = g.destinations(0).most();
    return c;
  }
  if (l.end_phase()) {
    c.mutable_stand()->mutable_end_phase();
    return c;
  }
  return std::nullopt;
}

TEST(ClientReasons, SelectingAStandHexWithNoEnemyNextToItInTheFightPhaseShowsTheRule) {
  testing::ServerProcess server(
      {"--argon2-opslimit", "1", "--argon2-memlimit", "8192", "--log-level", "debug"});
  ASSERT_TRUE(server.started()) << server.log();
  Seat seats[2] = {Seat::registered(server.ws_url(), "alice"),
                   Seat::registered(server.ws_url(), "bob")};
  auto create = client::requests::create_match("stand/training", true);
  const std::string id = seats[0].call(create).match_created().match().match_id();
  ASSERT_FALSE(id.empty());
  v1::ClientEnvelope sit;
  sit.mutable_provide_entropy()->set_match_id(id);
  sit.mutable_provide_entropy()->set_entropy(std::string(32, 'a'));
  ASSERT_TRUE(seats[0].call(sit).has_done());
  ASSERT_TRUE(
      seats[1].call(client::requests::join_match(id, std::string(32, 'b'))).has_match_joined());
  seats[0].match_id = seats[1].match_id = id;
  // Both deploy; the side that moves first ends its move phase at once: in the fight phase
  // its hexes, far from the enemy, have nothing to attack.
  int mover = -1;
  for (int round = 0; round < 300 && mover < 0; ++round) {
    for (int k = 0; k < 2 && mover < 0; ++k) {
      const auto l = seats[k].legal().stand();
      if (l.phase() == v1::stand::PHASE_MOVE && l.end_phase()) {
        mover = k;
      } else if (auto c = deploy_or_end(l)) {
        ASSERT_TRUE(seats[k].submit(*c));
      }
    }
  }
  ASSERT_GE(mover, 0) << "nobody reached the move phase";
  v1::GameCommand end;
  end.mutable_stand()->mutable_end_phase();
  ASSERT_TRUE(seats[mover].submit(end));
  EXPECT_EQ(seats[mover].legal().stand().attacks_size(), 0);
  // One of the mover's hexes, from the board he is shown.
  EXPECT_TRUE(seats[mover].call(client::requests::subscribe(id)).has_subscribed());
  std::optional<v1::Coord> hex;
  std::string error;
  while (!hex) {
    auto push = seats[mover].c->next_push(5s, &error);
    ASSERT_TRUE(push) << error;
    const auto* view = push->has_match_update() ? testing::view_of(push->match_update()) : nullptr;
    if (view == nullptr) continue;
    for (const auto& t : view->state().stand().tiles()) {
      if (!hex && t.has_troops() && t.troops().side() == (mover == 0 ? v1::SIDE_A : v1::SIDE_B))
        hex = t.hex();
    }
  }
  ASSERT_TRUE(hex);
  const std::string name = mover == 0 ? "alice" : "bob";
  const std::string dir = testing::make_temp_dir("castra-client-reasons-stand");
  testing::write_file(dir + "/script.txt",
                      "wait snapshot timeout=30000\nwait phase fight timeout=30000\n"
                      "click-cell " +
                          std::to_string(hex->col()) + " " + std::to_string(hex->row()) +
                          "\nwait reasons stand.4.target timeout=20000\nframes 3\n"
                          "screenshot blocked.png\nquit\n");
  testing::ClientProcess client(
      dir, {"--server", server.ws_url(), "--name", name, "--password", name + "-password", "--open",
            id, "--script", dir + "/script.txt", "--exit-after", "100"});
  ASSERT_EQ(client.wait(120s), 0) << testing::read_file(dir + "/client.log");
  auto blocked = Picture::load(dir + "/blocked.png");
  ASSERT_TRUE(blocked);
  const auto reasons = blocked->region("reasons");
  ASSERT_TRUE(reasons) << "no reasons panel in " << dir << "/blocked.png";
  // The reason's words and its rule, inside the panel (the words' length depends on the hex's
  // name, which the roll-off decides, so they are read, not counted in pixels).
  for (const char* said : {"no enemy hex is next to", "rule stand.4.target"}) {
    const auto words = blocked->text(said);
    ASSERT_TRUE(words) << "\"" << said << "\" is not written in " << dir << "/blocked.png";
    EXPECT_TRUE(SDL_HasIntersection(&*words, &*reasons)) << said << " is outside its panel";
  }
}

}  // namespace
}  // namespace castra
