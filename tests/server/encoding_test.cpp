// The two encodings in process: which subprotocol a client's header gets, the JSON text of a
// small envelope with the fixed options, and a shared frame made once per encoding.
#include <gtest/gtest.h>

#include "proto/castra/v1/protocol.pb.h"
#include "server/base/encoding.hpp"

namespace castra::server {
namespace {

TEST(JsonProtocol, NegotiationTakesTheFirstOfOurSubprotocolsInTheClientsOrder) {
  EXPECT_EQ(negotiate("castra.v1.json"), Encoding::kJson);
  EXPECT_EQ(negotiate("castra.v1"), Encoding::kBinary);
  EXPECT_EQ(negotiate("chat, castra.v1.json , castra.v1"), Encoding::kJson);
  EXPECT_EQ(negotiate("castra.v1,castra.v1.json"), Encoding::kBinary);
  EXPECT_EQ(negotiate(""), std::nullopt);
  EXPECT_EQ(negotiate("castra.v1.JSON, castra.v2"), std::nullopt);
  EXPECT_EQ(subprotocol_name(Encoding::kJson), "castra.v1.json");
  EXPECT_EQ(subprotocol_name(Encoding::kBinary), "castra.v1");
}

TEST(JsonProtocol, TheJsonTextUsesTheProtosNamesAndLeavesDefaultsOut) {
  v1::ServerEnvelope e;
  e.set_request_id(7);
  e.mutable_error()->set_code(v1::ERROR_MALFORMED);
  e.mutable_error()->set_message("x");
  EXPECT_EQ(encode(e, Encoding::kJson),
            R"({"request_id":"7","error":{"code":"ERROR_MALFORMED","message":"x"}})");
  v1::ServerEnvelope push;
  push.mutable_match_update()->set_match_id("m");
  push.mutable_match_update()->set_spectators(0);
  EXPECT_EQ(encode(push, Encoding::kJson), R"({"match_update":{"match_id":"m"}})");
  EXPECT_EQ(encode(push, Encoding::kBinary), push.SerializeAsString());
}

TEST(JsonProtocol, ReadingRefusesFieldsItDoesNotKnowAndTakesEitherSpelling) {
  v1::ClientEnvelope e;
  std::string error;
  EXPECT_TRUE(read_json(R"({"requestId":"9","ping":{"nonce":3}})", &e, &error)) << error;
  EXPECT_EQ(e.request_id(), 9u);
  EXPECT_EQ(e.ping().nonce(), 3u);
  EXPECT_FALSE(read_json(R"({"request_id":9,"ping":{"nonse":3}})", &e, &error));
  EXPECT_NE(error.find("nonse"), std::string::npos) << error;
}

TEST(JsonProtocol, ASharedFrameIsEncodedOncePerEncoding) {
  auto envelope = std::make_shared<v1::ServerEnvelope>();
  envelope->mutable_pong()->set_nonce(5);
  const Frames frames(envelope);
  const auto& json = frames.in(Encoding::kJson);
  EXPECT_EQ(*json, R"({"pong":{"nonce":"5"}})");
  EXPECT_EQ(frames.in(Encoding::kJson).get(), json.get());  // the same bytes, not a copy
  EXPECT_EQ(*frames.in(Encoding::kBinary), envelope->SerializeAsString());
  EXPECT_EQ(frames.in(Encoding::kBinary).get(), frames.in(Encoding::kBinary).get());
}

}  // namespace
}  // namespace castra::server
