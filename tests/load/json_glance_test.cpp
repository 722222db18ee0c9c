// LoadJsonGlance: castra-load's glance at a JSON spectator frame (tools/load/json_glance.hpp)
// reads what the server's printing options write (the .proto's names, 64-bit ids as strings)
// and walks past everything it does not read, strings with quotes and brackets in them too.
#include "tools/load/json_glance.hpp"

#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <string>

namespace castra::load {
namespace {

namespace v1 = castra::v1;

// As the server prints a frame (server/base/encoding.cpp, docs/protocol.md "Encodings").
std::string as_server_prints(const v1::ServerEnvelope& e) {
  google::protobuf::util::JsonPrintOptions o;
  o.preserve_proto_field_names = true;
  std::string out;
  EXPECT_TRUE(google::protobuf::util::MessageToJsonString(e, &out, o).ok());
  return out;
}

TEST(LoadJsonGlance, AnUpdateGivesItsMatchEntryCountEndAndRecordAndNothingElse) {
  v1::ServerEnvelope e;
  auto* u = e.mutable_match_update();
  u->set_match_id("m-1");
  u->mutable_snapshot()->set_entry_count(7);
  u->mutable_snapshot()->set_ended(true);
  u->mutable_snapshot()->set_phase("a \"}] {[ b");  // to be skipped whole
  u->mutable_snapshot()->set_event_count(12);
  u->set_your_move(true);
  u->mutable_record();
  u->set_spectators(3);
  v1::ServerEnvelope g;
  ASSERT_TRUE(glance_json(as_server_prints(e), &g)) << as_server_prints(e);
  EXPECT_EQ(g.request_id(), 0u);
  ASSERT_TRUE(g.has_match_update());
  EXPECT_EQ(g.match_update().match_id(), "m-1");
  EXPECT_EQ(g.match_update().snapshot().entry_count(), 7u);
  EXPECT_TRUE(g.match_update().snapshot().ended());
  EXPECT_TRUE(g.match_update().has_record());
  EXPECT_FALSE(g.match_update().has_status());
  EXPECT_EQ(g.match_update().snapshot().event_count(), 0u);  // not read
  EXPECT_EQ(g.match_update().snapshot().phase(), "");
  EXPECT_FALSE(g.match_update().your_move());
  EXPECT_EQ(g.match_update().spectators(), 0u);
}

TEST(LoadJsonGlance, ACountUpdateHasNoBoardAndAProtocol10StatusIsRead) {
  v1::ServerEnvelope count;
  count.mutable_match_update()->set_match_id("m-2");
  count.mutable_match_update()->set_spectators(10000);
  v1::ServerEnvelope g;
  ASSERT_TRUE(glance_json(as_server_prints(count), &g));
  EXPECT_EQ(g.match_update().match_id(), "m-2");
  EXPECT_FALSE(g.match_update().has_snapshot());
  EXPECT_FALSE(g.match_update().has_record());

  v1::ServerEnvelope old;
  old.mutable_match_update()->set_match_id("m-3");
  old.mutable_match_update()->mutable_status()->set_entry_count(4);
  ASSERT_TRUE(glance_json(as_server_prints(old), &g));
  EXPECT_EQ(g.match_update().status().entry_count(), 4u);
  EXPECT_FALSE(g.match_update().status().ended());
}

TEST(LoadJsonGlance, AMatchEndedGivesItsMatchAndOtherPushesNoBody) {
  v1::ServerEnvelope ended;
  ended.mutable_match_ended()->set_match_id("m-4");
  ended.mutable_match_ended()->set_server_seed("00ff");
  v1::ServerEnvelope g;
  ASSERT_TRUE(glance_json(as_server_prints(ended), &g));
  EXPECT_EQ(g.match_ended().match_id(), "m-4");
  EXPECT_EQ(g.match_ended().server_seed(), "");

  v1::ServerEnvelope other;
  other.mutable_match_updated()->mutable_match()->set_match_id("m-5");
  ASSERT_TRUE(glance_json(as_server_prints(other), &g));
  EXPECT_EQ(g.body_case(), v1::ServerEnvelope::BODY_NOT_SET);
}

TEST(LoadJsonGlance, AReplyIsParsedInFull) {
  v1::ServerEnvelope reply;
  reply.set_request_id(123456789012345ull);
  reply.mutable_subscribed()->set_spectator_delay_turns(2);
  v1::ServerEnvelope g;
  ASSERT_TRUE(glance_json(as_server_prints(reply), &g)) << as_server_prints(reply);
  EXPECT_EQ(g.request_id(), 123456789012345ull);
  EXPECT_EQ(g.subscribed().spectator_delay_turns(), 2u);
}

TEST(LoadJsonGlance, WhatIsNotAnObjectOrHoldsTheWrongTypeIsRefused) {
  v1::ServerEnvelope g;
  EXPECT_FALSE(glance_json("", &g));
  EXPECT_FALSE(glance_json("[1]", &g));
  EXPECT_FALSE(
      glance_json(R"({"match_update":{"match_id":"m","snapshot":{"entry_count":"x"}}})", &g));
  EXPECT_FALSE(glance_json(R"({"match_update":{"snapshot":{"entry_count":1}}})", &g));
  EXPECT_FALSE(glance_json(R"({"match_update":{"match_id":"m","snapshot":{"ended":1}}})", &g));
  EXPECT_FALSE(glance_json(R"({"match_update":{"match_id":"m")", &g));
  EXPECT_FALSE(glance_json(R"({"request_id":"seven"})", &g));
}

}  // namespace
}  // namespace castra::load
