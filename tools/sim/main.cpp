// castra-sim: runs a scenario and a command script offline, and verifies match records.
// The subcommands arrive with the match core (issue 3); until then they say so and fail.
#include <CLI/CLI.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  CLI::App app{"castra-sim: play and verify Castra matches offline"};
  app.require_subcommand(1);
  app.add_subcommand("run", "Play a scenario and a command script; print the events");
  app.add_subcommand("verify", "Re-check every step of an exported match record");
  CLI11_PARSE(app, argc, argv);
  std::fprintf(stderr, "castra-sim: %s is not built yet (issue 3)\n",
               app.get_subcommands().front()->get_name().c_str());
  return 2;
}
