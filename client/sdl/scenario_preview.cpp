#include "client/sdl/scenario_preview.hpp"

#include "client/sdl/optio_board.hpp"
#include "client/sdl/stand_board.hpp"

namespace castra::client {

namespace o = v1::optio;
namespace s = v1::stand;

namespace {

// The sizes a scenario leaving them 0 gets (optio.proto: 16 x 8).
constexpr int kOptioCols = 16;
constexpr int kOptioRows = 8;
// Room round the board for the painters' coordinates.
constexpr int kMargin = 18;

}  // namespace

o::State optio_preview_state(const o::Scenario& sc) {
  o::State st;
  st.set_cols(sc.cols() == 0 ? kOptioCols : sc.cols());
  st.set_rows(sc.rows() == 0 ? kOptioRows : sc.rows());
  st.mutable_terrain()->Resize(st.cols() * st.rows(), o::TERRAIN_OPEN);
  for (const auto& t : sc.terrain()) {
    const int i = (t.at().row() - 1) * st.cols() + (t.at().col() - 1);
    if (t.at().col() >= 1 && t.at().col() <= st.cols() && i >= 0 && i < st.terrain_size())
      st.set_terrain(i, t.terrain());
  }
  for (const auto& su : sc.units()) {
    o::Unit* u = st.add_units();
    u->set_id(su.id());
    u->set_side(su.side());
    u->set_type(su.type());
    u->set_bases(su.bases());
    u->set_command(su.command());
    // Only a fixed deployment puts units on the map before the battle.
    u->set_placed(sc.deployment() == o::DEPLOYMENT_FIXED && su.has_at());
    *u->mutable_at() = su.at();
    u->set_facing(su.facing());
    u->set_formation(su.formation());
    u->set_disordered(su.disordered());
    u->set_missile_hits(su.missile_hits());
  }
  for (const auto& sl : sc.leaders()) {
    o::Leader* l = st.add_leaders();
    l->set_id(sl.id());
    l->set_side(sl.side());
    l->set_general(sl.general());
    l->set_command(sl.command());
    l->set_unit(sc.deployment() == o::DEPLOYMENT_FIXED ? sl.unit() : 0);
  }
  return st;
}

s::State stand_preview_state(const s::Scenario& sc) {
  s::State st;
  st.set_name(sc.name());
  st.set_width(sc.width());
  st.set_height(sc.height());
  st.set_turn_limit(sc.turn_limit());
  for (int row = 0; row < sc.height(); ++row) {
    for (int col = 0; col < sc.width(); ++col) {
      s::Tile* t = st.add_tiles();
      t->mutable_hex()->set_col(col);
      t->mutable_hex()->set_row(row);
    }
  }
  auto tile = [&st](const v1::Coord& c) -> s::Tile* {
    const int i = c.row() * st.width() + c.col();
    if (c.col() < 0 || c.col() >= st.width() || i < 0 || i >= st.tiles_size()) return nullptr;
    return st.mutable_tiles(i);
  };
  for (const auto& h : sc.hexes()) {
    if (s::Tile* t = tile(h.hex())) {
      t->set_terrain(h.terrain());
      t->set_crossing(h.crossing());
    }
  }
  for (const auto& pl : sc.placements()) {
    if (s::Tile* t = tile(pl.hex())) {
      s::Troops* tr = t->mutable_troops();
      tr->set_side(pl.side());
      *tr->mutable_figures() = pl.figures();
      *tr->mutable_unmoved() = pl.figures();
      tr->set_facing(pl.facing());
      tr->set_posture(pl.posture());
    }
  }
  return st;
}

void draw_scenario_preview(Painter& p, const SDL_Rect& area, const v1::ScenarioFile& scenario) {
  const Camera whole;
  if (scenario.has_optio()) {
    const o::State st = optio_preview_state(scenario.optio());
    const SquareGeometry g(area, st.cols(), st.rows(), whole, kMargin);
    OptioOverlay overlay;
    overlay.badges = false;
    draw_optio_board(p, area, g, st, overlay);
  } else if (scenario.has_stand()) {
    const s::State st = stand_preview_state(scenario.stand());
    const HexGeometry g(area, st.width(), st.height(), whole, kMargin);
    draw_stand_board(p, area, g, st, StandOverlay{});
  }
}

}  // namespace castra::client
