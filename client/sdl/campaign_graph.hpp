// The battle graph of a campaign as castra-client draws it: one box per battle of the
// definition, in columns by distance from the first battle (A's result branches above B's), an
// arrow per result edge, the edges the campaign took in theme::kCampaignPath, each fought
// battle's result on its node, and the battle selected for or fought now ringed. Drawn from the
// definition and the history the server sent; it decides nothing. Render thread only.
#pragma once

#include <SDL.h>

#include <string>
#include <vector>

#include "client/sdl/ui.hpp"
#include "proto/castra/v1/campaign.pb.h"

namespace castra::client {

struct GraphLayout {
  struct Node {
    std::string id;
    int column = 0;
    SDL_Rect box{};
  };
  // One arrow from one battle to the next, for every result that leads there.
  struct Edge {
    int from = 0;  // indices into nodes
    int to = 0;
    std::vector<v1::Outcome::Kind> results;
    // Arrows between columns leave and enter a box side by side, not from one point: the
    // pixels to move the start and the end off the middle of their sides.
    float start_shift = 0;
    float end_shift = 0;
  };
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  int columns = 0;
  int index_of(const std::string& id) const;
};

// Where each battle and edge goes in `area`.
GraphLayout layout_campaign_graph(const v1::CampaignDefinition& d, const SDL_Rect& area);

// Draws the graph with the path taken, the results and the current battle. Notes the regions
// tests read: "graph", "node ID", "result ID" (a fought battle's result strip), "current-node",
// and "edge FROM>TO" (a small square on the arrow near its start, clear of its label).
void draw_campaign_graph(Ui& ui, const v1::CampaignView& view, const SDL_Rect& area);

}  // namespace castra::client
