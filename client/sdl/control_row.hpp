// ControlRow: lays out the match screen's row of action buttons so that none overlaps another:
// the actions flow from the left, the buttons pinned to the right (Lobby, zoom) stay clear of
// them, and on a narrow window every button takes its short label, then the pinned group drops
// its optional buttons (zoom, which the wheel and keys also do). Render thread only.
#pragma once

#include <SDL.h>

#include <string>
#include <vector>

#include "client/sdl/painter.hpp"

namespace castra::client {

struct RowButton {
  std::string label;        // as drawn when there is room
  std::string short_label;  // on a narrow window ("" keeps the label)
  int width = 0;            // with its long label
  bool optional = false;    // may be left out on a narrow window (pinned buttons only)
};

struct RowLayout {
  bool compact = false;          // short labels, font 13
  std::vector<SDL_Rect> left;    // one per left button; w 0: no room for it
  std::vector<SDL_Rect> pinned;  // one per pinned button, right to left; w 0: left out
  int left_end = 0;              // x after the last left button
  int pinned_start = 0;          // x of the leftmost pinned button
};

// `left` flows from r.x + 12; `pinned` is listed right to left from the row's right end.
RowLayout lay_out_row(Painter& p, const SDL_Rect& r, int y, int h,
                      const std::vector<RowButton>& left, const std::vector<RowButton>& pinned);

}  // namespace castra::client
