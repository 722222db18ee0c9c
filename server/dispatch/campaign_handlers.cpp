// The campaign requests (docs/protocol.md, "Campaigns") and the CampaignUpdated pushes: each
// follower and each of the players' connections gets its own view (campaign_view.hpp), so a
// selection is never sent to anyone before the battle it is for begins.
#include "server/campaign/campaign_view.hpp"
#include "server/campaign/campaigns.hpp"
#include "server/campaign/transitions.hpp"
#include "server/dispatch/handlers.hpp"

namespace castra::dispatch {

namespace v1 = castra::v1;
using server::fail;
using server::Result;

namespace {

constexpr int kDefaultLimit = 50;

int limit_of(std::uint32_t limit) {
  return limit == 0 ? kDefaultLimit : static_cast<int>(limit);
}

}  // namespace

v1::CampaignView Handlers::campaign_view(const v1::StoredCampaign& c, std::int64_t viewer) {
  return campaign_server::view_of(
      c, viewer, [this](std::int64_t id) { return s_.accounts.name_of(id); },
      s_.campaigns->action_due(c, viewer));
}

v1::CampaignSummary Handlers::campaign_summary(const v1::StoredCampaign& c, std::int64_t viewer) {
  return campaign_server::summary_of(
      c, viewer, [this](std::int64_t id) { return s_.accounts.name_of(id); },
      s_.campaigns->action_due(c, viewer));
}

std::optional<server::Failure> Handlers::may_follow(const Client& client,
                                                    const v1::StoredCampaign& c,
                                                    const std::string& code) {
  const std::int64_t viewer = client.account_id;
  if (viewer != 0 && (campaign_server::side_of(c, viewer) >= 0 || c.creator() == viewer)) {
    return std::nullopt;
  }
  if (!c.settings().spectators_allowed()) {
    return fail(v1::ERROR_SPECTATORS_NOT_ALLOWED, "this campaign has no spectators");
  }
  const std::string& expected = c.settings().invitation_code();
  if (!expected.empty() && expected != code) {
    return fail(v1::ERROR_BAD_INVITATION, "wrong invitation code");
  }
  return std::nullopt;
}

void Handlers::list_campaign_definitions(Call& call) {
  v1::ServerEnvelope e;
  auto* list = e.mutable_campaign_definitions();
  for (const auto* d :
       s_.campaigns->definitions().list(call.request.list_campaign_definitions().ruleset())) {
    *list->add_definitions() = *d;
  }
  call.reply.ok(std::move(e));
}

void Handlers::create_campaign(Call& call) {
  const auto& r = call.request.create_campaign();
  s_.campaigns->create(
      call.client.account_id, r.definition(), r.settings(), r.is_private(),
      [this, account = call.client.account_id, reply = call.reply](Result<v1::StoredCampaign> c) {
        if (!c) return reply.fail(c.failure());
        v1::ServerEnvelope e;
        auto* created = e.mutable_campaign_created();
        *created->mutable_campaign() = campaign_summary(*c, account);
        created->set_invitation_code(c->settings().invitation_code());
        reply.ok(std::move(e));
      });
}

void Handlers::join_campaign(Call& call) {
  const auto& r = call.request.join_campaign();
  s_.campaigns->join(
      call.client.account_id, r.campaign_id(), r.invitation_code(),
      [this, account = call.client.account_id, reply = call.reply](Result<v1::StoredCampaign> c) {
        if (!c) return reply.fail(c.failure());
        v1::ServerEnvelope e;
        *e.mutable_campaign() = campaign_view(*c, account);
        reply.ok(std::move(e));
      });
}

void Handlers::leave_campaign(Call& call) {
  s_.campaigns->leave(call.client.account_id, call.request.leave_campaign().campaign_id(),
                      [reply = call.reply](Result<v1::StoredCampaign> c) {
                        if (!c) return reply.fail(c.failure());
                        v1::ServerEnvelope e;
                        e.mutable_done();
                        reply.ok(std::move(e));
                      });
}

void Handlers::my_campaigns(Call& call) {
  const std::int64_t account = call.client.account_id;
  v1::ServerEnvelope e;
  auto* list = e.mutable_campaigns();
  for (const auto& c : s_.campaigns->mine(account, limit_of(call.request.my_campaigns().limit())))
    *list->add_campaigns() = campaign_summary(c, account);
  call.reply.ok(std::move(e));
}

void Handlers::list_campaigns(Call& call) {
  const auto& r = call.request.list_campaigns();
  v1::ServerEnvelope e;
  auto* list = e.mutable_campaigns();
  for (const auto& c : s_.campaigns->list(r.status(), r.ruleset(), limit_of(r.limit())))
    *list->add_campaigns() = campaign_summary(c, call.client.account_id);
  call.reply.ok(std::move(e));
}

void Handlers::get_campaign(Call& call) {
  const auto& r = call.request.get_campaign();
  auto c = s_.campaigns->find(r.campaign_id());
  if (!c) return call.reply.fail(fail(v1::ERROR_CAMPAIGN_NOT_FOUND, "no such campaign"));
  if (auto refused = may_follow(call.client, *c, r.invitation_code())) {
    return call.reply.fail(*refused);
  }
  v1::ServerEnvelope e;
  *e.mutable_campaign() = campaign_view(*c, call.client.account_id);
  call.reply.ok(std::move(e));
}

void Handlers::submit_selection(Call& call) {
  const auto& r = call.request.submit_selection();
  s_.campaigns->submit_selection(call.client.account_id, r.campaign_id(), r.node(), r.selection(),
                                 r.entropy(),
                                 [reply = call.reply](Result<v1::SelectionResult> result) {
                                   if (!result) return reply.fail(result.failure());
                                   v1::ServerEnvelope e;
                                   *e.mutable_selection_result() = std::move(*result);
                                   reply.ok(std::move(e));
                                 });
}

void Handlers::pause_campaign(Call& call) {
  const auto& r = call.request.pause_campaign();
  s_.campaigns->pause(call.client.account_id, r.campaign_id(), r.pause(),
                      [reply = call.reply](Result<v1::StoredCampaign> c) {
                        if (!c) return reply.fail(c.failure());
                        v1::ServerEnvelope e;
                        e.mutable_done();
                        reply.ok(std::move(e));
                      });
}

void Handlers::resign_campaign(Call& call) {
  s_.campaigns->resign(call.client.account_id, call.request.resign_campaign().campaign_id(),
                       [reply = call.reply](Result<v1::StoredCampaign> c) {
                         if (!c) return reply.fail(c.failure());
                         v1::ServerEnvelope e;
                         e.mutable_done();
                         reply.ok(std::move(e));
                       });
}

void Handlers::subscribe_campaign(Call& call) {
  const auto& r = call.request.subscribe_campaign();
  auto c = s_.campaigns->find(r.campaign_id());
  if (!c) return call.reply.fail(fail(v1::ERROR_CAMPAIGN_NOT_FOUND, "no such campaign"));
  if (auto refused = may_follow(call.client, *c, r.invitation_code())) {
    return call.reply.fail(*refused);
  }
  campaign_followers_[r.campaign_id()].insert(call.client.id);
  v1::ServerEnvelope e;
  *e.mutable_campaign() = campaign_view(*c, call.client.account_id);
  call.reply.ok(std::move(e));
}

void Handlers::unsubscribe_campaign(Call& call) {
  const std::string& id = call.request.unsubscribe_campaign().campaign_id();
  if (auto it = campaign_followers_.find(id); it != campaign_followers_.end()) {
    it->second.erase(call.client.id);
    if (it->second.empty()) campaign_followers_.erase(it);
  }
  v1::ServerEnvelope e;
  e.mutable_done();
  call.reply.ok(std::move(e));
}

void Handlers::export_campaign(Call& call) {
  const std::string& id = call.request.export_campaign().campaign_id();
  auto c = s_.campaigns->find(id);
  if (!c) return call.reply.fail(fail(v1::ERROR_CAMPAIGN_NOT_FOUND, "no such campaign"));
  // Its players, and anyone who may follow it (a private one's record: its players only).
  if (auto refused = may_follow(call.client, *c, "")) return call.reply.fail(*refused);
  auto record = s_.campaigns->record(id);
  if (!record) return call.reply.fail(record.failure());
  v1::ServerEnvelope e;
  *e.mutable_campaign_record() = std::move(*record);
  call.reply.ok(std::move(e));
}

void Handlers::on_campaign_changed(const v1::StoredCampaign& c) {
  std::set<std::uint64_t> told;
  auto tell = [&](Client& client) {
    if (!told.insert(client.id).second) return;
    auto connection = client.connection.lock();
    if (!connection) return;
    v1::ServerEnvelope e;
    *e.mutable_campaign_updated()->mutable_campaign() = campaign_view(c, client.account_id);
    connection->send(frame_of(e, connection->encoding()));
  };
  if (auto it = campaign_followers_.find(c.campaign_id()); it != campaign_followers_.end()) {
    for (std::uint64_t id : it->second) {
      if (Client* client = s_.clients.find(id)) tell(*client);
    }
  }
  for (std::int64_t account : {c.player_a(), c.player_b(), c.creator()}) {
    if (account == 0) continue;
    for (Client* client : s_.clients.of_account(account))
      tell(*client);
  }
}

void Handlers::remote_campaign_changed(const std::string& campaign_id) {
  // Read from the store: only the hosting node keeps campaigns in memory.
  if (auto c = s_.campaigns->find(campaign_id)) on_campaign_changed(*c);
}

void Handlers::campaign_client_gone(std::uint64_t client_id) {
  for (auto it = campaign_followers_.begin(); it != campaign_followers_.end();) {
    it->second.erase(client_id);
    it = it->second.empty() ? campaign_followers_.erase(it) : std::next(it);
  }
}

}  // namespace castra::dispatch
