// StandPlay: the player's hands on an Ancient STAND! board. It turns clicks on hexes into the
// commands the server's legal list allows (deploy, move a group of figures along the listed
// path, face, set a posture, attack) and lets the player choose how many figures go. It
// decides nothing the legal list has not said. Render thread only.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "client/sdl/board_geometry.hpp"
#include "client/sdl/client.hpp"
#include "client/sdl/stand_board.hpp"
#include "client/sdl/ui.hpp"

namespace castra::client {

class StandPlay {
 public:
  StandOverlay board(Ui& ui, Client& client, const SDL_Rect& area, const HexGeometry& g);
  int panel(Ui& ui, Client& client, const SDL_Rect& r);
  std::optional<v1::GameCommand> end_command(const Client& client, std::string* label,
                                             std::string* question) const;
  std::string hint(const Client& client) const;
  void forget();
  std::optional<Cell> selected() const { return selected_; }

 private:
  const v1::stand::Legal* legal(const Client& client) const;
  // The move (or deployment) group in use: the chosen one at the selected hex.
  const v1::stand::Legal::Group* group(const Client& client) const;
  void click_cell(Client& client, const Cell& c);
  v1::stand::Figures figures_for(const Client& client, const v1::stand::Legal::Group& g,
                                 const v1::stand::Legal::Destination& d) const;

  std::optional<Cell> selected_;
  int group_index_ = 0;  // among the groups of the selected hex
  // Deployment: the troop types (a mask) chosen to place, -1 the first offered; and the
  // buttons' slots, each a mask, kept in place while types run out so that nothing shifts
  // under the cursor.
  int deploy_types_ = -1;
  std::vector<int> deploy_slots_;
  std::array<int, 4> wanted_{99, 99, 99, 99};  // figures of each type the player asks to move
  int deploy_facing_ = -1;
  std::optional<Cell> hover_;
  std::optional<v1::stand::AttackForecast> hover_forecast_;  // the hovered attack's
};

}  // namespace castra::client
