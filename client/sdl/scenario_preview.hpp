// ScenarioPreview: the picker's drawing of a scenario the server sent (ScenarioInfo.scenario):
// its map and, where the scenario places them, its armies, drawn by the boards' own painters
// from a presentation-only state. Not the rules' opening position (the client has no engine):
// units a side deploys itself are not shown, and no rule is applied. Render thread only.
#pragma once

#include "client/sdl/painter.hpp"
#include "proto/castra/v1/match.pb.h"

namespace castra::client {

// The state the board painters draw for `scenario` (exposed for tests).
v1::optio::State optio_preview_state(const v1::optio::Scenario& scenario);
v1::stand::State stand_preview_state(const v1::stand::Scenario& scenario);

// Draws the scenario into `area`, fitted whole.
void draw_scenario_preview(Painter& p, const SDL_Rect& area, const v1::ScenarioFile& scenario);

}  // namespace castra::client
