// Campaigns: every campaign this server hosts, on the service thread. A campaign is a small
// state machine over its StoredCampaign (docs/rules/campaigns.md): open until a second player
// joins; then, for each battle of its graph, a selection stage (both players choose in secret
// who fights, each with his entropy for the battle's dice, before a deadline; a missed one
// fields the definition's default) and a fighting stage (the battle is a match hosted by the
// runtime's match actor like any other); after the battle the carry-over (a pure function of
// the battle's record) gives the rosters of the next. Every transition is one writer job on
// the campaign's row, committed before anyone is told (`done`, CampaignHooks::changed); a
// campaign takes one transition at a time, later requests wait for the write in flight. The
// state in memory is the one source of truth while the campaign is hosted; the store is where
// it is made durable. Side effects (hosting and seating a battle, holding its clocks while
// paused) are re-derived from the committed state, so a restart between any two steps finishes
// them (recover()).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "proto/castra/v1/campaign.pb.h"
#include "server/base/clock.hpp"
#include "server/base/failure.hpp"
#include "server/campaign/campaign_store.hpp"
#include "server/campaign/definitions.hpp"
#include "server/runtime/runtime.hpp"

namespace castra::campaign_server {

namespace v1 = castra::v1;
using Post = std::function<void(std::function<void()>)>;

// A deadline reminder for a player outside the client (webhook, e-mail).
struct Reminder {
  std::int64_t account = 0;
  std::string kind;  // "selection_due", "selection_deadline_soon", "campaign_paused", ...
  std::string campaign_id;
  std::string subject;
  std::string text;
  std::int64_t deadline_ms = 0;
};

struct CampaignHooks {
  // After every committed change: the campaign's players and followers are told.
  std::function<void(const v1::StoredCampaign&)> changed;
  std::function<void(const Reminder&)> remind;
  // A battle has both its players seated: it has begun (its players' lobbies are told).
  std::function<void(const store::MatchRow&)> battle_started;
  // Cluster mode: the failure that sends a campaign's change to the node hosting the
  // campaigns (ERROR_MATCH_ELSEWHERE), nothing while this node hosts them. Set, the campaigns
  // are hosted here only from host(true) (this node took the campaigns role) to host(false);
  // empty, always (one server alone).
  std::function<std::optional<server::Failure>()> elsewhere;
};

struct CampaignOptions {
  int max_open_per_account = 10;
  // A player whose selection is not in is reminded this long before its deadline.
  std::int64_t remind_before_ms = 24LL * 3600 * 1000;
};

class Campaigns {
 public:
  Campaigns(CampaignStore& store, const Definitions& definitions, runtime::Runtime& runtime,
            Post to_service, const server::Clock& clock, CampaignOptions options,
            CampaignHooks hooks);

  template <class T>
  using Done = std::function<void(server::Result<T>)>;
  using StateDone = Done<v1::StoredCampaign>;

  // Loads every unfinished campaign and finishes what a stop interrupted (a battle not yet
  // hosted or seated, a battle that ended while the server was down, a paused battle's
  // clocks). Call once, after the runtime's recover() and before the first tick().
  void recover();
  // Cluster mode: this node begins to host the campaigns (every unfinished one is loaded, as
  // recover() does) or stops (they leave memory; another node hosts them now). Service thread.
  void host(bool hosting);

  void create(std::int64_t account, const std::string& definition, v1::CampaignSettings settings,
              bool is_private, StateDone done);
  // Takes the free side of an open campaign, or the vacant side of a live one.
  void join(std::int64_t account, const std::string& id, const std::string& code, StateDone done);
  void leave(std::int64_t account, const std::string& id, StateDone done);
  // A refused selection is an accepted request whose result names the rule.
  void submit_selection(std::int64_t account, const std::string& id, const std::string& node,
                        const v1::Selection& selection, const std::string& entropy,
                        Done<v1::SelectionResult> done);
  void pause(std::int64_t account, const std::string& id, bool pause, StateDone done);
  void resign(std::int64_t account, const std::string& id, StateDone done);

  // The campaign as committed now (from memory, or the store for a finished one).
  std::optional<v1::StoredCampaign> find(const std::string& id);
  std::vector<v1::StoredCampaign> list(v1::CampaignStatus status, const std::string& ruleset,
                                       int limit);
  // The account's campaigns, those where an action of his is due first.
  std::vector<v1::StoredCampaign> mine(std::int64_t account, int limit);
  // Whether `account` has something to do in `c` now: a selection to make, a battle move.
  bool action_due(const v1::StoredCampaign& c, std::int64_t account);
  // The exported record of a finished campaign, every battle's match record included.
  server::Result<v1::CampaignRecord> record(const std::string& id);
  // A hosted match ended (the runtime's notice): if it is a campaign's battle, the campaign
  // moves on.
  void battle_ended(const std::string& match_id);
  // A side of a hosted match has to act and its player has no connection: if the match is a
  // campaign's battle, he is reminded outside the client ("your_move").
  void battle_move_due(const std::string& match_id, std::int64_t account, std::int64_t deadline_ms);
  // Selection deadlines, vacancies and reminders; the server calls it every few hundred ms.
  void tick();
  const Definitions& definitions() const { return definitions_; }

 private:
  struct Live {
    v1::StoredCampaign state;
    bool writing = false;
    std::deque<std::function<void()>> queue;
  };
  // Mutates a copy of the campaign's committed state; a failure refuses the change. Returns
  // whether anything changed (no write when not).
  using Change = std::function<std::optional<server::Failure>(v1::StoredCampaign&)>;

  std::shared_ptr<Live> live(const std::string& id);
  // Why a change must be asked of another node, or nothing while this node hosts campaigns.
  std::optional<server::Failure> elsewhere() const;
  // Runs `change` when the campaign has no write in flight; a changed state is written, made
  // the campaign's after the commit, told (hooks.changed), settled, and then `done` gets it.
  void transact(const std::string& id, Change change, StateDone done);
  void write(const std::shared_ptr<Live>& live, v1::StoredCampaign next, StateDone done);
  void drain(const std::shared_ptr<Live>& live);
  // The side effects the committed state asks for (campaign_battle.cpp).
  void settle(const v1::StoredCampaign& c);
  void host_battle(const v1::StoredCampaign& c);
  void seat_battle(const v1::StoredCampaign& c, const std::shared_ptr<runtime::MatchHost>& host);
  void hold_battle(const v1::StoredCampaign& c, const std::shared_ptr<runtime::MatchHost>& host);
  void remind_selection(const v1::StoredCampaign& c, const std::string& kind);

  CampaignStore& store_;
  const Definitions& definitions_;
  runtime::Runtime& runtime_;
  Post to_service_;
  const server::Clock& clock_;
  const CampaignOptions options_;
  const CampaignHooks hooks_;
  bool hosts_campaigns_;
  std::map<std::string, std::shared_ptr<Live>> live_;  // unfinished, and finished ones asked for
  std::map<std::string, std::string> by_battle_;       // battle match id -> campaign id
  std::set<std::string> hosting_;                      // battles whose creation is in flight
};

}  // namespace castra::campaign_server
