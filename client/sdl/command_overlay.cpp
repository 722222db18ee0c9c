// draw_command_chains: links in each leader's colour (and a ring on his own unit), a red
// ring with a cross on each unit out of command: a shape as well as a colour.
#include "client/sdl/command_overlay.hpp"

#include <iterator>

#include "client/sdl/optio_board.hpp"
#include "client/sdl/theme.hpp"

namespace castra::client {
namespace {

SDL_Color leader_color(int leader) {
  constexpr std::size_t n = std::size(theme::kPathColors);
  return theme::kPathColors[static_cast<std::size_t>(leader > 0 ? leader - 1 : 0) % n];
}

}  // namespace

void draw_command_chains(Painter& p, const SquareGeometry& g, const v1::optio::State& s,
                         const v1::PieceReasons& view) {
  const float cell = g.cell();
  for (const v1::UnitCommand& c : view.commands()) {
    const v1::optio::Unit* u = optio_unit(s, c.unit());
    if (u == nullptr || !u->placed()) continue;
    const PointF at = g.centre(u->at().col(), u->at().row());
    if (!c.in_command()) {
      const SDL_Color bad = theme::kError;
      p.ring(at, cell * 0.44f, 3.0f, bad);
      const float d = cell * 0.16f;
      const PointF mark{at.x + cell * 0.3f, at.y - cell * 0.3f};
      p.fill_circle(mark, cell * 0.14f, theme::rgb(0xFFFFFF));
      p.line({mark.x - d * 0.6f, mark.y - d * 0.6f}, {mark.x + d * 0.6f, mark.y + d * 0.6f}, 3.0f,
             bad);
      p.line({mark.x - d * 0.6f, mark.y + d * 0.6f}, {mark.x + d * 0.6f, mark.y - d * 0.6f}, 3.0f,
             bad);
      continue;
    }
    const SDL_Color color = leader_color(c.leader());
    if (c.joined_to() == 0) {
      p.ring(at, cell * 0.46f, 4.0f, color);  // the leader's own unit: where the chain starts
      continue;
    }
    const v1::optio::Unit* to = optio_unit(s, c.joined_to());
    if (to == nullptr || !to->placed()) continue;
    const PointF from = g.centre(to->at().col(), to->at().row());
    p.line(from, at, cell * 0.07f, color);
    p.fill_circle(at, cell * 0.09f, color);
  }
}

}  // namespace castra::client
