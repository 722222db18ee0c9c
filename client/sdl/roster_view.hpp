// A campaign roster as castra-client draws it (an Optio army's leaders and units by command,
// a STAND! army's figures by type, and what the opponent has not shown yet), and the
// RosterPicker, the player's choice of who fights the next battle, made on his own roster:
// Optio units and leaders toggled (units counted against the battle's limit), STAND! figures
// per type with - and +. The picker counts and keeps the choice and the screen will not send
// one above the limit; every rule (a leader with no unit of his command...) is the server's to
// judge. Render thread only.
#pragma once

#include <SDL.h>

#include <set>
#include <string>

#include "client/sdl/ui.hpp"
#include "proto/castra/v1/campaign.pb.h"

namespace castra::client {

class RosterPicker {
 public:
  // Starts afresh when the choice is for another battle (key: campaign and node).
  void reset_for(const std::string& key);
  bool unit_chosen(int id) const { return units_.count(id) != 0; }
  bool leader_chosen(int id) const { return leaders_.count(id) != 0; }
  void toggle_unit(int id);
  void toggle_leader(int id);
  const v1::stand::Figures& figures() const { return figures_; }
  // Adds `delta` figures of one troop type (0 infantry .. 3 chariots), within 0 and `have`.
  void add_figures(int troop, int delta, int have);
  void clear();
  // What counts against the battle's limit: units (Optio) or figures (STAND!).
  int counted(bool optio) const;
  v1::Selection selection(bool optio) const;

 private:
  std::string key_;
  std::set<int> units_;
  std::set<int> leaders_;
  v1::stand::Figures figures_;
};

// How one roster column is drawn.
struct RosterColumn {
  v1::Side side = v1::SIDE_A;
  std::string player;
  const v1::Roster* roster = nullptr;
  std::uint32_t hidden_units = 0;  // the opponent's, not yet seen in battle
  std::uint32_t hidden_figures = 0;
  bool optio = true;
  bool mine = false;
  RosterPicker* picker = nullptr;         // the choice is made on this roster now
  const v1::Selection* sealed = nullptr;  // the player's own selection, sealed
};

// Draws the column in r, scrolled by *scroll pixels (the wheel over it scrolls). Notes the
// regions "roster-a"/"roster-b", "unit ID" and "leader ID" (their badges), "hidden-a"/"hidden-b";
// the picker's buttons are "Pick unit ID", "Pick leader ID", "More TYPE", "Fewer TYPE".
void draw_roster(Ui& ui, const RosterColumn& c, const SDL_Rect& r, int* scroll);

}  // namespace castra::client
