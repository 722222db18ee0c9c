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
  for (const auto& ul : alice.legal().optio().units()) {
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
  EXPECT_GT(blocked->count(rgb(theme::kText), *reasons), 50) << "its words are written";

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

}  // namespace
}  // namespace castra
