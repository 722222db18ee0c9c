// The forecast panel: what the server says a hovered charge or shot (Optio) or attack
// (Ancient STAND!) will do, drawn before the click. Everything shown comes from the forecast
// the server sent with the legal list; nothing is worked out here. Render thread only.
#pragma once

#include <vector>

#include "client/sdl/ui.hpp"
#include "proto/castra/v1/match.pb.h"
#include "proto/castra/v1/optio.pb.h"
#include "proto/castra/v1/stand.pb.h"

namespace castra::client {

// Each draws in the column from x to x + w starting at y, notes the area as the region
// "forecast", and returns the y below it.
int draw_forecast(Ui& ui, const v1::optio::Forecast& f, const v1::optio::State& s, int x, int y,
                  int w);
int draw_forecast(Ui& ui, const v1::stand::AttackForecast& f, int x, int y, int w);

// The "last fight" box: the newest fight of `log` (an Optio charge combat, melee or shot, a
// STAND! attack with its d10 and casualties) in the server's words, which name both sides
// and every modifier. Notes the region "last-fight"; returns the y below it (y when the log
// holds no fight yet).
int draw_last_fight(Ui& ui, const std::vector<v1::ViewEvent>& log, int x, int y, int w);

}  // namespace castra::client
