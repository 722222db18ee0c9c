// Share (issue 18): castra-client's match screen shows the match's watch link, the page
// castra-server serves at /watch/<match_id>, with a private match's invitation code.
#include <gtest/gtest.h>

#include "client/net/protocol_client.hpp"
#include "tests/client/client_support.hpp"
#include "tests/client/live_seat.hpp"
#include "tests/support/server_process.hpp"

namespace castra {
namespace {

using namespace testing::live;
using testing::Picture;

TEST(ClientShare, TheMatchScreenShowsThePrivateMatchsWatchLinkWithItsCode) {
  testing::ServerProcess server(server_flags());
  ASSERT_TRUE(server.started()) << server.log();
  const std::string dir = dir_for("share");
  testing::write_file(dir + "/script.txt", register_by_clicks("alice") +
                                               "wait button optio/training\n"
                                               "click-button optio/training\n"
                                               "click-button Private\n"
                                               "click-button Create match\n"
                                               "wait screen match\n"
                                               "wait message dice commitment\n"
                                               "frames 3\nscreenshot share.png\nquit\n");
  ASSERT_EQ(testing::run_client(dir, {"--server", server.ws_url(), "--script", dir + "/script.txt",
                                      "--exit-after", "100"}),
            0)
      << log_of(dir);
  auto p = Picture::load(dir + "/share.png");
  ASSERT_TRUE(p);
  const auto links = p->regions_starting("watch-link ");
  ASSERT_EQ(links.size(), 1u) << "the link is drawn once";
  const std::string link = links[0].first.substr(std::string("watch-link ").size());
  const std::string prefix = "http://127.0.0.1:" + std::to_string(server.port()) + "/watch/";
  ASSERT_EQ(link.rfind(prefix, 0), 0u) << link;
  const auto q = link.find("?code=");
  ASSERT_NE(q, std::string::npos) << "a private match's link carries its code: " << link;
  const std::string id = link.substr(prefix.size(), q - prefix.size());
  const std::string code = link.substr(q + 6);
  EXPECT_EQ(code.size(), 10u) << link;
  // The link's id and code are the match's: a guest gets in with them, not without the code.
  Seat watcher = Seat::guest(server.ws_url());
  v1::ClientEnvelope without;
  without.mutable_subscribe_match()->set_match_id(id);
  EXPECT_EQ(watcher.call(without).error().code(), v1::ERROR_BAD_INVITATION);
  v1::ClientEnvelope with = without;
  with.mutable_subscribe_match()->set_invitation_code(code);
  EXPECT_TRUE(watcher.call(with).has_subscribed()) << link;
}

}  // namespace
}  // namespace castra
