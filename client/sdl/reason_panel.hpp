// The reasons panel: what the server said stops one of the player's pieces, drawn under the
// selection's details. Render thread only.
#pragma once

#include "client/sdl/ui.hpp"
#include "proto/castra/v1/reasons.pb.h"

namespace castra::client {

// Draws, from `y` in a column `w` wide at `x`, why the piece cannot act (every refusal, each
// with its rule) or, when it can, why it cannot make its main move (advance, move or attack);
// nothing without an answer. Notes what it drew as the region "reasons". Returns the y below
// it.
int draw_reasons(Ui& ui, const v1::PieceReasons* reasons, int x, int y, int w);

// The pieces GetReasons asks about.
v1::Piece unit_piece(int unit);
v1::Piece hex_piece(int col, int row);

}  // namespace castra::client
