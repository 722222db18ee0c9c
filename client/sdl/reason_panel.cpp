// draw_reasons: the server's refusals in words, deduplicated, with their rule ids.
#include "client/sdl/reason_panel.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "client/sdl/theme.hpp"

namespace castra::client {
namespace {

// The kinds whose refusal is worth saying while the piece may still do something else.
bool main_move(const std::string& action) {
  return action == "advance" || action == "move" || action == "attack";
}

int line(Painter& p, const std::string& text, int x, int y, int w, SDL_Color c, int size,
         Weight weight = Weight::kRegular) {
  for (const std::string& l : p.wrap(text, size, w, weight)) {
    p.text(l, x, y, size, c, Align::kLeft, weight);
    y += p.line_height(size, weight);
  }
  return y;
}

}  // namespace

int draw_reasons(Ui& ui, const v1::PieceReasons* reasons, int x, int y, int w) {
  if (reasons == nullptr || (reasons->can_act() && reasons->refusals_size() == 0)) return y;
  Painter& p = ui.painter();
  const int top = y;
  std::vector<std::string> said;
  const SDL_Color warn = theme::rgb(0xF0A040);
  bool header = false;
  for (const v1::Refusal& r : reasons->refusals()) {
    if (reasons->can_act() && !main_move(r.action())) continue;
    if (std::find(said.begin(), said.end(), r.why().message()) != said.end()) continue;
    said.push_back(r.why().message());
    if (!header) {
      y = line(p, reasons->can_act() ? "Why not:" : "Cannot act now:", x, y + 4, w, warn, 14,
               Weight::kBold);
      header = true;
    }
    const std::string what = reasons->can_act() ? "No " + r.action() + ": " : "";
    y = line(p, what + r.why().message(), x + 8, y, w - 8, theme::kText, 13);
    y = line(p, "rule " + r.why().rule(), x + 8, y, w - 8, theme::kTextDim, 11, Weight::kMono);
  }
  if (header) ui.note_region("reasons", SDL_Rect{x, top, w, y - top});
  return y + 4;
}

v1::Piece unit_piece(int unit) {
  v1::Piece p;
  p.set_unit(unit);
  return p;
}

v1::Piece hex_piece(int col, int row) {
  v1::Piece p;
  p.mutable_hex()->set_col(col);
  p.mutable_hex()->set_row(row);
  return p;
}

}  // namespace castra::client
