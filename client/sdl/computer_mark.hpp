// The computer mark: which side of a match the server's computer opponent plays (from the
// match's summary, as the server lists it to everyone), and the badge the lobby and the match
// screen draw beside that side's name. Presentation only. Render thread only (it draws).
#pragma once

#include <optional>
#include <string>

#include "client/sdl/painter.hpp"
#include "client/sdl/ui.hpp"
#include "proto/castra/v1/protocol.pb.h"

namespace castra::client {

// "random", "greedy"; "" for COMPUTER_NONE.
std::string computer_strength_name(v1::ComputerStrength s);

// The side the computer plays, or nullopt when the match is between two people (or, before
// the server has seated anyone, when the creator let chance pick his side).
std::optional<v1::Side> computer_side(const v1::MatchSummary& m);

// The width of the badge.
int computer_mark_width(Painter& p, v1::ComputerStrength s, int size);

// Draws the badge ("COMPUTER greedy") with its left edge at x, centred on the line at cy, and
// notes it as region `region` for the tests; the width it took.
int draw_computer_mark(Ui& ui, v1::ComputerStrength s, int x, float cy, int size,
                       const std::string& region);

}  // namespace castra::client
