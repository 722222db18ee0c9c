// The watch link of a match (issue 18, "Share"): the page castra-server serves at
// /watch/<match_id> on the same host and port as its WebSocket, with a private match's
// invitation code, which the page needs to be let in. Pure; any thread.
#pragma once

#include <string>

namespace castra::client {

// "ws://host:port/ws" -> "http://host:port/watch/<id>" (wss -> https), "?code=..." appended
// when `invitation_code` is not empty; empty when `ws_url` is not a ws:// or wss:// URL.
std::string watch_link(const std::string& ws_url, const std::string& match_id,
                       const std::string& invitation_code);

}  // namespace castra::client
