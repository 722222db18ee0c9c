// StandBoard: draws an Ancient STAND! battlefield from a viewer's projected stand.State:
// pointy-top hexes in odd-r offset coordinates, terrain and crossings, coordinates, and each
// occupied hex's troops (figure counts by type, facing, Standing or Falling back), with the
// overlays the player's selection asks for. Render thread only.
#pragma once

#include <optional>
#include <vector>

#include "client/sdl/board_geometry.hpp"
#include "client/sdl/painter.hpp"
#include "proto/castra/v1/stand.pb.h"

namespace castra::client {

struct StandOverlay {
  std::optional<Cell> selected;
  std::vector<Cell> destinations;  // where the selected troops may move or deploy
  std::vector<Cell> targets;       // enemy hexes the selected hex may attack
  std::vector<Cell> path;          // the route to the hovered destination
  std::optional<Cell> hover;
  std::vector<Cell> trail;    // the last move
  std::vector<Cell> flashes;  // hexes that just lost figures
  bool show_zone = false;     // tint the deploying side's zone (state.zone, or its listed hexes)
  v1::Side zone_side = v1::SIDE_A;
  bool dim_moved = false;  // grey the hexes of `dim_side` whose figures have all moved
  v1::Side dim_side = v1::SIDE_A;
};

void draw_stand_board(Painter& p, const SDL_Rect& area, const HexGeometry& g,
                      const v1::stand::State& s, const StandOverlay& overlay);

const v1::stand::Tile* stand_tile(const v1::stand::State& s, int col, int row);

}  // namespace castra::client
