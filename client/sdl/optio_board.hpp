// OptioBoard: draws an Optio battlefield from a viewer's projected optio.State (terrain,
// coordinates, units with facing, formation, bases, morale, shaken, disorder, missile hits,
// leaders) and the overlays the player's selection asks for. Render thread only.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "client/sdl/board_geometry.hpp"
#include "client/sdl/painter.hpp"
#include "proto/castra/v1/optio.pb.h"

namespace castra::client {

struct OptioOverlay {
  std::optional<int> selected_unit;
  struct Destination {
    Cell at;
    bool charge = false;
  };
  std::vector<Destination> destinations;  // where the selected unit may advance
  std::vector<Cell> placements;           // where the selected unit may deploy
  std::vector<int> shoot_targets;         // enemy units it may shoot at
  std::vector<int> leader_targets;        // units the selected leader may join
  std::optional<Cell> hover;
  std::string hover_text;  // what the unit under the cursor is called ("16 cavalry: ...")
  struct Path {
    std::vector<Cell> squares;
    SDL_Color color{};
    int style = 0;      // which of theme::kPathDashes it is drawn in (its colour's index)
    int progress = -1;  // index of the progress square, -1 unknown
    bool active = false;
    std::string label;
  };
  std::vector<Path> paths;      // orders paths (the editor's, or the player's own card)
  std::vector<Cell> path_next;  // squares the active path may be extended to
  std::vector<Cell> corridor;   // squares within the active subcommander's range of his path
  // The last move made (from, through, to) and the squares where fights just happened.
  std::vector<Cell> trail;
  std::vector<Cell> flashes;
  std::optional<v1::Side> zone_side;  // tint this side's deployment zone
  // Morale and condition badges; a scenario's preview has no engine to give its morale.
  bool badges = true;
};

// Draws the board into `area`; `g` must have been made for that area and the state's size.
void draw_optio_board(Painter& p, const SDL_Rect& area, const SquareGeometry& g,
                      const v1::optio::State& s, const OptioOverlay& overlay);

// The unit standing on a square, if any (routed and unplaced units stand nowhere).
const v1::optio::Unit* optio_unit_at(const v1::optio::State& s, int col, int row);
const v1::optio::Unit* optio_unit(const v1::optio::State& s, int id);
v1::optio::Terrain optio_terrain_at(const v1::optio::State& s, int col, int row);

}  // namespace castra::client
