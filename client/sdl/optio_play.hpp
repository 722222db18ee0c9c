// OptioPlay: the player's hands on an Optio board. It turns clicks on squares into the
// commands the server's legal list allows (deploy, place a leader, advance or charge, rotate,
// change formation, shoot, move a leader, abandon orders) and runs the orders-card editor,
// where each subcommander's path is drawn square by square and submitted sealed. It decides
// nothing the legal list has not said. Render thread only.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "client/sdl/board_geometry.hpp"
#include "client/sdl/client.hpp"
#include "client/sdl/optio_board.hpp"
#include "client/sdl/ui.hpp"

namespace castra::client {

class OptioPlay {
 public:
  // Handles this frame's input on the board (`area`, laid out by `g`) and returns what to
  // draw over it. `acting`: the player may act now with `legal`.
  OptioOverlay board(Ui& ui, Client& client, const SDL_Rect& area, const SquareGeometry& g);
  // Draws the selection's details and its action buttons in `r`; the height used.
  int panel(Ui& ui, Client& client, const SDL_Rect& r);
  // The command that ends the current phase, and its button's words ("" when none).
  std::optional<v1::GameCommand> end_command(const Client& client, std::string* label,
                                             std::string* question) const;
  // A one-line hint for the player ("Click a unit to see its moves").
  std::string hint(const Client& client) const;
  bool editing_orders(const Client& client) const;
  void forget();  // a new match: drop the selection and the editor's paths
  // Submits the orders card as drawn (after the screen's confirmation).
  void submit_orders(Client& client);
  std::optional<int> selected() const { return selected_; }

 private:
  const v1::optio::Legal* legal(const Client& client) const;
  const v1::optio::UnitLegal* unit_legal(const Client& client, int unit) const;
  const v1::optio::LeaderLegal* leader_legal(const Client& client, int leader) const;
  void click_cell(Client& client, const Cell& c);
  void orders_click(const Client& client, const Cell& c, bool dragging);
  void sync_editor(const Client& client);
  void choose_advance(Client& client, const v1::optio::UnitLegal& ul, const Cell& c);

  std::optional<int> selected_;
  std::optional<int> moving_leader_;   // choosing the unit a leader moves to
  std::optional<int> placing_leader_;  // deployment: choosing the unit a leader starts with
  int deploy_facing_ = -1;             // -1: the side's natural facing
  int deploy_formation_ = 0;
  std::map<std::pair<int, int>, int> advance_choice_;  // square -> option index (right click)
  std::optional<Cell> hover_;
  std::optional<v1::optio::Forecast> hover_forecast_;  // the hovered charge's or shot's
  // Orders editor.
  std::vector<v1::optio::OrdersPath> paths_;
  int active_path_ = 0;
  std::uint64_t editor_for_ = ~0ull;  // the snapshot's event_count the editor was set up for
  std::optional<Cell> drag_last_;
};

}  // namespace castra::client
