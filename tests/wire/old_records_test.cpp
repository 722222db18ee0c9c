// Records exported before the event words were worked out on the state (and before Ancient
// STAND! events stopped carrying their own words) still verify: the stored events did not
// change. The two files were written by castra-balance --record-game as built from main
// before that change (tests/data/records/README.md).
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "common/wire/any_match.hpp"

namespace castra::wire::testing {
namespace {

v1::MatchRecord record_file(const std::string& name) {
  std::ifstream in(std::string(CASTRA_SOURCE_DIR) + "/tests/data/records/" + name);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream ss;
  ss << in.rdbuf();
  v1::MatchRecord r;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(ss.str(), &r).ok()) << name;
  return r;
}

TEST(OldRecords, AnOptioRecordExportedBeforeForecastsStillVerifies) {
  const v1::MatchRecord r = record_file("optio_training_main.json");
  ASSERT_GT(r.entries_size(), 10);
  EXPECT_EQ(verify_record(r), std::nullopt);
}

TEST(OldRecords, AStandRecordExportedBeforeForecastsStillVerifies) {
  const v1::MatchRecord r = record_file("stand_training_main.json");
  ASSERT_GT(r.entries_size(), 5);
  EXPECT_EQ(verify_record(r), std::nullopt);
}

}  // namespace
}  // namespace castra::wire::testing
