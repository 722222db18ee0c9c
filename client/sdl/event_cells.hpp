// The board cells an event names, for "where did this happen" (a click on a log line): every
// coordinate the event carries, and for Optio the squares of the units and leaders it names by
// number, read from the picture shown. Presentation only: it reads the event's fields, it
// decides nothing. Render thread only.
#pragma once

#include <vector>

#include "client/sdl/board_geometry.hpp"
#include "proto/castra/v1/match.pb.h"

namespace castra::client {

// Each cell once, in the order the event names them; empty for a hidden event or one that
// names no place (a phase beginning).
std::vector<Cell> event_cells(const v1::ViewEvent& e, const v1::Snapshot* shown);

}  // namespace castra::client
