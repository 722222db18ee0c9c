#include "tests/client/live_seat.hpp"

#include <deque>

#include "client/sdl/theme.hpp"
#include "tests/support/server_process.hpp"

namespace castra::testing::live {

namespace s = v1::stand;
namespace theme = client::theme;

std::vector<std::string> server_flags() {
  return {"--argon2-opslimit", "1", "--argon2-memlimit", "8192", "--log-level", "debug"};
}

std::string password_of(const std::string& name) {
  return name + "-password";
}

// `seat` resigns match `id`; whether the server agreed.
bool resigned(Seat& seat, const std::string& id) {
  v1::ClientEnvelope resign;
  resign.mutable_resign()->set_match_id(id);
  return seat.call(resign).has_done();
}

// The record of ended match `id`, as `seat` is given it (an error envelope if none).
v1::ServerEnvelope ended_record(Seat& seat, const std::string& id) {
  v1::ClientEnvelope ask;
  ask.mutable_export_record()->set_match_id(id);
  return seat.call(ask);
}

// The simplest legal answer for a side: orders cards of just the start squares, the first
// deployment listed, otherwise the end of the phase. Nothing when there is nothing to do.
std::optional<v1::GameCommand> simple_answer(const v1::GameLegal& legal) {
  v1::GameCommand c;
  if (legal.has_optio()) {
    const auto& l = legal.optio();
    if (l.orders().submit()) {
      for (const auto& start : l.orders().starts())
        *c.mutable_optio()->mutable_submit_orders()->add_paths() = start;
      return c;
    }
    if (l.end_deployment()) {
      c.mutable_optio()->mutable_end_deployment();
      return c;
    }
    if (l.end_phase()) {
      c.mutable_optio()->mutable_end_phase();
      return c;
    }
  } else if (legal.has_stand()) {
    const auto& l = legal.stand();
    for (const auto& g : l.deploy()) {
      // One type at a time, as many as the hex takes.
      if (g.types_size() != 1 || g.destinations_size() == 0) continue;
      const auto& d = g.destinations(0);
      auto* dep = c.mutable_stand()->mutable_deploy();
      *dep->mutable_hex() = d.hex();
      *dep->mutable_figures() = d.most();
      dep->set_facing(l.side() == v1::SIDE_A ? s::FACING_SE : s::FACING_NW);
      return c;
    }
    if (l.end_phase()) {
      c.mutable_stand()->mutable_end_phase();
      return c;
    }
  }
  return std::nullopt;
}

// Plays `seat`'s side with simple_answer() until `stop` says so, starting with `first` (the
// update its subscription brought); its last update.
v1::MatchUpdate play_simply(Seat& seat, std::optional<v1::MatchUpdate> first,
                            const std::function<bool(const v1::MatchUpdate&)>& stop,
                            std::chrono::seconds timeout) {
  v1::MatchUpdate last;
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < until) {
    auto u = first ? first : seat.next_update(500ms);
    first.reset();
    if (!u) continue;
    last = *u;
    if (stop(last)) return last;
    seat.answer(*u, simple_answer);
  }
  ADD_FAILURE() << seat.name << " played until the timeout";
  return last;
}

// Both sides of a STAND! match deploy with simple_answer(), from the updates their
// subscriptions brought; then the side that moves first and its update.
std::pair<Seat*, v1::MatchUpdate> deploy_both(Seat& a, v1::MatchUpdate first_a, Seat& b,
                                              v1::MatchUpdate first_b) {
  std::deque<std::pair<Seat*, v1::MatchUpdate>> pending = {{&a, first_a}, {&b, first_b}};
  const auto until = std::chrono::steady_clock::now() + 60s;
  while (std::chrono::steady_clock::now() < until) {
    if (pending.empty()) {
      for (Seat* seat : {&a, &b})
        if (auto u = seat->next_update(100ms)) pending.push_back({seat, *u});
      continue;
    }
    auto [seat, u] = pending.front();
    pending.pop_front();
    if (u.your_move() && u.has_legal() && u.legal().stand().phase() == s::PHASE_MOVE)
      return {seat, u};
    seat->answer(u, simple_answer);
  }
  ADD_FAILURE() << "nobody reached the move phase";
  return {nullptr, {}};
}

std::string dir_for(const std::string& name) {
  return testing::make_temp_dir("castra-client-" + name);
}

std::string register_by_clicks(const std::string& name) {
  return "wait connected\n"
         "click-button name\ntype " +
         name +
         "\n"
         "click-button password\ntype " +
         name +
         "-password\n"
         "click-button Register\n"
         "wait screen lobby\n";
}

std::string log_of(const std::string& dir) {
  return testing::read_file(dir + "/client.log");
}

// Who holds a STAND! hex in a picture: its side, or nothing.
std::optional<v1::Side> holder(const v1::Snapshot& snap, const v1::Coord& hex) {
  for (const auto& t : snap.state().stand().tiles()) {
    if (t.hex().col() != hex.col() || t.hex().row() != hex.row() || !t.has_troops()) continue;
    const auto& f = t.troops().figures();
    if (f.infantry() + f.archers() + f.cavalry() + f.chariots() > 0) return t.troops().side();
  }
  return std::nullopt;
}

// Pixels of either side's counter colour within `reach` hex sizes of a hex's centre.
int counter_pixels(const Picture& p, const v1::Coord& hex, double reach) {
  const auto c = p.cell(hex.col(), hex.row());
  EXPECT_TRUE(c) << "hex " << hex.ShortDebugString() << " is not drawn";
  if (!c) return 0;
  const int h = static_cast<int>(p.cell_size() * reach);
  const SDL_Rect around{c->x - h, c->y - h, 2 * h, 2 * h};
  return p.count(rgb(theme::kSideA), around) + p.count(rgb(theme::kSideB), around);
}

// Plays both sides with simple_answer() until an update says game turn `turn` has begun.
void play_until_turn(Seat& a, Seat& b, int turn) {
  const auto until = std::chrono::steady_clock::now() + 60s;
  while (std::chrono::steady_clock::now() < until) {
    for (Seat* seat : {&a, &b}) {
      auto u = seat->next_update(100ms);
      if (!u) continue;
      const auto* view = testing::view_of(*u);
      if (view != nullptr && view->turn() >= turn) return;
      seat->answer(*u, simple_answer);
    }
  }
  ADD_FAILURE() << "game turn " << turn << " never began";
}

}  // namespace castra::testing::live
