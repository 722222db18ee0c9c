// Envelope encode and decode: the frames of one mid-game command, as the server's dispatch
// parses and frames them (reply.cpp, server_app.cpp). Messages, the second argument:
//   0 submit     the ClientEnvelope with the next command (SubmitCommand)
//   1 update     the MatchUpdate push to the side that must act: the command's events, its
//                status and its legal list
//   2 spectator  the same command's MatchUpdate push to a spectator: events and status
//   3 snapshot   the first MatchUpdate push after a spectator subscribes mid-game: a snapshot
#include <benchmark/benchmark.h>

#include <array>
#include <optional>
#include <string>

#include "proto/castra/v1/protocol.pb.h"
#include "server/dispatch/reply.hpp"
#include "tools/bench/allocations.hpp"
#include "tools/bench/bench_server.hpp"

namespace castra::bench {
namespace {

struct Frames {
  v1::ClientEnvelope submit;
  std::array<v1::ServerEnvelope, 3> pushes;  // update, spectator, snapshot
  std::string error;
};

v1::ServerEnvelope push_of(const v1::MatchUpdate& update) {
  v1::ServerEnvelope e;
  *e.mutable_match_update() = update;
  return e;
}

// The frames of game `g` at its mid-game position, taken from a real MatchHost.
Frames frames_of(const Game& g) {
  Frames f;
  std::unique_ptr<store::SqliteMatchStore> store =
      open_store(":memory:", store::Durability::kFull, &f.error);
  if (!store) return f;
  server::ManualClock clock(1'700'000'000'000);
  auto host = start_host(g, "bench-frames", g.mid - 1, *store, clock, &f.error);
  if (!host) return f;
  const rules::Side mover = side_of(g.lines[g.mid]);
  auto player = std::make_shared<KeepingObserver>();
  auto spectator = std::make_shared<KeepingObserver>();
  host->subscribe(rules::viewer_of(mover), host->seen()->events, player);
  host->subscribe(rules::Viewer::kSpectator, host->seen()->events, spectator);
  Latch latch;
  if (!play(*host, g, g.mid - 1, latch)) {
    f.error = "the mid-game command is refused";
    return f;
  }
  f.pushes[0] = push_of(player->last());
  f.pushes[1] = push_of(spectator->last());
  // Read before: a newcomer's subscription sends everyone a new spectator count.
  auto late = std::make_shared<KeepingObserver>();
  host->subscribe(rules::Viewer::kSpectator, std::nullopt, late);
  f.pushes[2] = push_of(late->last());
  f.submit.set_request_id(1000);
  auto* submit = f.submit.mutable_submit_command();
  submit->set_match_id(host->id());
  submit->set_client_seq(g.mid);
  *submit->mutable_command() = g.lines[g.mid].command();
  return f;
}

const Frames& frames(std::int64_t which) {
  static const Frames kOptio = frames_of(game(0));
  static const Frames kStand = frames_of(game(1));
  return which == 0 ? kOptio : kStand;
}

const google::protobuf::Message& message(const Frames& f, std::int64_t kind) {
  if (kind == 0) return f.submit;
  return f.pushes[static_cast<std::size_t>(kind - 1)];
}

void label(benchmark::State& state) {
  static const char* const kKinds[] = {"submit", "update", "spectator", "snapshot"};
  state.SetLabel(game(state.range(0)).name + " " + kKinds[state.range(1)]);
}

// Serialises the envelope into a new string, as the server's frame_of and the client's
// send do.
void BM_EnvelopeEncode(benchmark::State& state) {
  const Frames& f = frames(state.range(0));
  if (!f.error.empty()) return state.SkipWithError(f.error.c_str());
  const google::protobuf::Message& m = message(f, state.range(1));
  AllocationMeter meter;
  for (auto _ : state)
    benchmark::DoNotOptimize(m.SerializeAsString());
  meter.report(state);
  state.counters["frame_bytes"] = static_cast<double>(m.ByteSizeLong());
  label(state);
}

// Parses the frame into a new envelope, as the server does for a request and the client for
// a push.
void BM_EnvelopeDecode(benchmark::State& state) {
  const Frames& f = frames(state.range(0));
  if (!f.error.empty()) return state.SkipWithError(f.error.c_str());
  const std::string bytes = message(f, state.range(1)).SerializeAsString();
  const bool client = state.range(1) == 0;
  AllocationMeter meter;
  for (auto _ : state) {
    if (client) {
      v1::ClientEnvelope e;
      benchmark::DoNotOptimize(e.ParseFromString(bytes));
    } else {
      v1::ServerEnvelope e;
      benchmark::DoNotOptimize(e.ParseFromString(bytes));
    }
  }
  meter.report(state);
  state.counters["frame_bytes"] = static_cast<double>(bytes.size());
  label(state);
}

// What the server does for each watcher of a command: the update copied into its envelope
// and framed (match_handlers.cpp's ConnectionObserver).
void BM_EnvelopeFramePush(benchmark::State& state) {
  const Frames& f = frames(state.range(0));
  if (!f.error.empty()) return state.SkipWithError(f.error.c_str());
  const v1::MatchUpdate& update =
      f.pushes[static_cast<std::size_t>(state.range(1) - 1)].match_update();
  AllocationMeter meter;
  for (auto _ : state) {
    v1::ServerEnvelope e;
    *e.mutable_match_update() = update;
    benchmark::DoNotOptimize(dispatch::frame_of(e, server::Encoding::kBinary));
  }
  meter.report(state);
  label(state);
}

// The same push for a JSON connection (castra.v1.json): once per view for a room, as the
// binary frame is; frame_bytes is the JSON text's size.
void BM_EnvelopeFramePushJson(benchmark::State& state) {
  const Frames& f = frames(state.range(0));
  if (!f.error.empty()) return state.SkipWithError(f.error.c_str());
  const v1::MatchUpdate& update =
      f.pushes[static_cast<std::size_t>(state.range(1) - 1)].match_update();
  AllocationMeter meter;
  std::size_t bytes = 0;
  for (auto _ : state) {
    v1::ServerEnvelope e;
    *e.mutable_match_update() = update;
    auto frame = dispatch::frame_of(e, server::Encoding::kJson);
    bytes = frame->size();
    benchmark::DoNotOptimize(frame);
  }
  meter.report(state);
  state.counters["frame_bytes"] = static_cast<double>(bytes);
  label(state);
}

BENCHMARK(BM_EnvelopeEncode)->ArgNames({"game", "message"})->ArgsProduct({{0, 1}, {0, 1, 2, 3}});
BENCHMARK(BM_EnvelopeDecode)->ArgNames({"game", "message"})->ArgsProduct({{0, 1}, {0, 1, 2, 3}});
BENCHMARK(BM_EnvelopeFramePush)->ArgNames({"game", "message"})->ArgsProduct({{0, 1}, {1, 2, 3}});
BENCHMARK(BM_EnvelopeFramePushJson)
    ->ArgNames({"game", "message"})
    ->ArgsProduct({{0, 1}, {1, 2, 3}});

}  // namespace
}  // namespace castra::bench
