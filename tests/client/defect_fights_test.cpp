// Issue 20's defect 10: an attack's casualties said "(side B strength 4)" where they meant the
// strength lost. The log the client shows says "strength lost".
#include <gtest/gtest.h>

#include "tests/client/client_support.hpp"
#include "tests/support/server_process.hpp"

namespace castra {
namespace {

TEST(ClientDefect, StrengthLostIsCalledStrengthLost) {
  // The training game just after its first casualties.
  std::unique_ptr<wire::AnyMatch> m;
  std::string said;
  for (int lines = 1; lines <= 26 && said.empty(); ++lines) {
    m = testing::stand_training(lines);
    ASSERT_TRUE(m);
    for (const auto& e : m->events_for(rules::Viewer::kSideA, 0)) {
      if (e.event().stand().has_casualties() && e.event().stand().casualties().strength() > 0)
        said = e.text();
    }
  }
  ASSERT_FALSE(said.empty()) << "no casualties in the training game";
  const std::string dir = testing::make_temp_dir("castra-client-defect-10");
  testing::write_file(dir + "/view.jsonl", testing::offline_view(*m, rules::Side::kA));
  testing::write_file(
      dir + "/script.txt",
      "wait snapshot\nexpect log strength lost\nframes 3\nscreenshot log.png\nquit\n");
  const int code = testing::run_client(dir, {"--snapshot", dir + "/view.jsonl", "--script",
                                             dir + "/script.txt", "--exit-after", "100"});
  EXPECT_EQ(code, 0) << "the log does not say \"strength lost\": " << said << "\n"
                     << testing::read_file(dir + "/client.log");
}

}  // namespace
}  // namespace castra
