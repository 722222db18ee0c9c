// The command overlay (Optio): each command's chain drawn over the board, from the unit its
// leader stands with to every unit joined to it, and a mark on each unit out of command, all
// as the server's command view says (GetReasons). Render thread only.
#pragma once

#include "client/sdl/board_geometry.hpp"
#include "client/sdl/painter.hpp"
#include "proto/castra/v1/optio.pb.h"
#include "proto/castra/v1/reasons.pb.h"

namespace castra::client {

void draw_command_chains(Painter& p, const SquareGeometry& g, const v1::optio::State& s,
                         const v1::PieceReasons& view);

}  // namespace castra::client
