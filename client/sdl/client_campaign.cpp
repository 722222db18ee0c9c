// Client's campaign verbs: the lobby's campaign lists and form, following one campaign
// (SubscribeCampaign, CampaignUpdated), selections, pause, resignation, the battles, and the
// exported record. Render thread only, like the rest of Client.
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "client/sdl/client.hpp"
#include "client/sdl/dice_check.hpp"
#include "client/sdl/labels.hpp"

namespace castra::client {

namespace pbu = google::protobuf::util;

namespace {

constexpr std::uint32_t kListLimit = 50;
// What moved, when a cluster sends a campaign's change to the node hosting the campaigns.
const std::string kCampaigns = "Campaigns";

const v1::BattleNode* node_named(const v1::CampaignView& v, const std::string& id) {
  for (const auto& b : v.definition().battles())
    if (b.id() == id) return &b;
  return nullptr;
}

std::string battle_name(const v1::CampaignView& v, const std::string& id) {
  const auto* b = node_named(v, id);
  return b != nullptr && !b->name().empty() ? b->name() : id;
}

}  // namespace

// ---- the lobby ----------------------------------------------------------------------------

void Client::refresh_campaigns() {
  if (lobby_.definitions.empty()) {
    v1::ClientEnvelope e;
    e.mutable_list_campaign_definitions();
    ++lobby_.in_flight;
    session_.request(std::move(e), [this](const v1::ServerEnvelope& r) {
      --lobby_.in_flight;
      if (!r.has_campaign_definitions()) return report_campaigns(r);
      const auto& d = r.campaign_definitions().definitions();
      lobby_.definitions.assign(d.begin(), d.end());
    });
  }
  auto list = [this](v1::CampaignStatus status, std::vector<v1::CampaignSummary>* into) {
    v1::ClientEnvelope e;
    e.mutable_list_campaigns()->set_status(status);
    e.mutable_list_campaigns()->set_limit(kListLimit);
    ++lobby_.in_flight;
    session_.request(std::move(e), [this, into](const v1::ServerEnvelope& r) {
      --lobby_.in_flight;
      if (!r.has_campaigns()) return report_campaigns(r);
      into->assign(r.campaigns().campaigns().begin(), r.campaigns().campaigns().end());
    });
  };
  list(v1::CAMPAIGN_OPEN, &lobby_.campaigns_open);
  list(v1::CAMPAIGN_LIVE, &lobby_.campaigns_live);
  list(v1::CAMPAIGN_FINISHED, &lobby_.campaigns_finished);
  if (account_.signed_in && !account_.guest) {
    v1::ClientEnvelope e;
    e.mutable_my_campaigns()->set_limit(kListLimit);
    ++lobby_.in_flight;
    session_.request(std::move(e), [this](const v1::ServerEnvelope& r) {
      --lobby_.in_flight;
      if (!r.has_campaigns()) return report_campaigns(r);
      auto& mine = lobby_.campaigns_mine;
      mine.assign(r.campaigns().campaigns().begin(), r.campaigns().campaigns().end());
      // The server lists those with an action due first; kept so whatever its order.
      std::stable_partition(mine.begin(), mine.end(),
                            [](const v1::CampaignSummary& c) { return c.my_action(); });
    });
  }
}

void Client::report_campaigns(const v1::ServerEnvelope& r) {
  if (!r.has_error()) return;
  // Said once, not at every refresh (a server without campaigns answers each list so).
  const std::string text = describe_error(r.error());
  if (text == lobby_.campaigns_error) return;
  lobby_.campaigns_error = text;
  say("Campaigns: " + text, MessageKind::kError);
}

void Client::create_campaign(const NewCampaign& n) {
  v1::ClientEnvelope e;
  auto* c = e.mutable_create_campaign();
  c->set_definition(n.definition);
  c->set_is_private(n.is_private);
  auto* s = c->mutable_settings();
  s->set_creator_side(n.side);
  s->set_creator_side_random(n.side_random);
  s->set_selection_days(static_cast<std::uint32_t>(std::clamp(n.selection_days, 1, 30)));
  s->set_spectators_allowed(n.campaign_spectators);
  auto* b = s->mutable_battle();
  const auto& tc = kTimeControls[std::clamp(n.time_control, 0, 2)];
  b->mutable_time_control()->set_kind(tc.kind);
  b->mutable_time_control()->set_seconds_per_move(tc.seconds_per_move);
  b->mutable_time_control()->set_disconnect_grace_seconds(tc.grace_seconds);
  b->set_spectators_allowed(n.battle_spectators);
  b->set_spectator_delay_turns(static_cast<std::uint32_t>(std::max(0, n.delay_turns)));
  session_.request(std::move(e), [this, n](const v1::ServerEnvelope& r) {
    if (follow_elsewhere(
            r, [this, n] { create_campaign(n); }, kCampaigns))
      return;
    if (!r.has_campaign_created()) return report(r, "Create campaign");
    const auto& created = r.campaign_created();
    std::string text = "Campaign created: " + created.campaign().title() + ".";
    if (!created.invitation_code().empty())
      text += " Invitation code: " + created.invitation_code();
    say(text, MessageKind::kOk);
    open_campaign(created.campaign().campaign_id(), created.invitation_code());
  });
}

void Client::join_campaign(const std::string& campaign_id, const std::string& invitation_code) {
  v1::ClientEnvelope e;
  e.mutable_join_campaign()->set_campaign_id(campaign_id);
  e.mutable_join_campaign()->set_invitation_code(invitation_code);
  session_.request(std::move(e), [this, campaign_id, invitation_code](const v1::ServerEnvelope& r) {
    auto again = [this, campaign_id, invitation_code] {
      join_campaign(campaign_id, invitation_code);
    };
    if (follow_elsewhere(r, again, kCampaigns)) return;
    if (!r.has_campaign()) return report(r, "Join campaign");
    say("You joined the campaign " + r.campaign().summary().title() + " as " +
            side_name(r.campaign().summary().my_side()) + ".",
        MessageKind::kOk);
    open_campaign(campaign_id, invitation_code);
    apply_campaign(r.campaign());
  });
}

// ---- following a campaign -----------------------------------------------------------------

void Client::open_campaign(const std::string& campaign_id, const std::string& invitation_code) {
  campaign_ = CampaignData{};
  campaign_.id = campaign_id;
  campaign_.invitation_code = invitation_code;
  screen_ = Screen::kCampaign;
  follow_campaign();
}

void Client::follow_campaign() {
  if (campaign_.offline || campaign_.id.empty()) return;
  v1::ClientEnvelope e;
  e.mutable_subscribe_campaign()->set_campaign_id(campaign_.id);
  e.mutable_subscribe_campaign()->set_invitation_code(campaign_.invitation_code);
  const std::string id = campaign_.id;
  session_.request(std::move(e), [this, id](const v1::ServerEnvelope& r) {
    if (campaign_.id != id) return;
    if (r.has_campaign()) {
      campaign_.subscribed = true;
      return apply_campaign(r.campaign());
    }
    report(r, "Open campaign");
    if (!campaign_.view && r.has_error() && r.error().code() != v1::ERROR_UNSPECIFIED) {
      // Nothing to show: back to the lobby, with the reason said.
      campaign_ = CampaignData{};
      if (screen_ == Screen::kCampaign) screen_ = Screen::kLobby;
    }
  });
}

void Client::apply_campaign(const v1::CampaignView& view) {
  const v1::CampaignSummary& now = view.summary();
  if (campaign_.view) {
    // Say what changed, as a player would want to hear it.
    const v1::CampaignSummary& was = campaign_.view->summary();
    if (was.stage() != now.stage() || was.node() != now.node()) {
      if (now.stage() == v1::STAGE_FIGHTING)
        say("Both selections are revealed: " + battle_name(view, now.node()) + " begins.",
            MessageKind::kOk);
      else if (now.stage() == v1::STAGE_SELECTING)
        say("Next battle: " + battle_name(view, now.node()) + ". Choose who fights it.",
            MessageKind::kInfo);
      else if (now.status() == v1::CAMPAIGN_FINISHED)
        say("The campaign is over. " + outcome_text(now.outcome()), MessageKind::kOk);
      campaign_.refusal.clear();
    }
    if (was.paused() != now.paused())
      say(now.paused() ? "The campaign is paused: no deadline runs out, in the battle either."
                       : "The campaign resumes; every deadline has the time it had left.",
          MessageKind::kInfo);
    if (was.status() == v1::CAMPAIGN_OPEN && now.status() == v1::CAMPAIGN_LIVE)
      say("Your opponent has joined: the campaign begins.", MessageKind::kOk);
  }
  if (now.stage() == v1::STAGE_SELECTING && !now.battle_dice_commitment().empty())
    campaign_.dice_commitments.emplace(view.history_size(), now.battle_dice_commitment());
  campaign_.view = view;
  ++campaign_.views_received;
  if (now.status() == v1::CAMPAIGN_FINISHED && !campaign_.record && !campaign_.record_requested &&
      !campaign_.offline) {
    request_campaign_record();
  }
}

void Client::leave_campaign_screen() {
  if (!campaign_.id.empty() && !campaign_.offline && campaign_.subscribed) {
    v1::ClientEnvelope e;
    e.mutable_unsubscribe_campaign()->set_campaign_id(campaign_.id);
    session_.request(std::move(e), nullptr);
  }
  campaign_ = CampaignData{};
  screen_ = account_.signed_in ? Screen::kLobby : Screen::kLogin;
  if (account_.signed_in) refresh_lobby();
}

void Client::withdraw_campaign() {
  v1::ClientEnvelope e;
  e.mutable_leave_campaign()->set_campaign_id(campaign_.id);
  session_.request(std::move(e), [this](const v1::ServerEnvelope& r) {
    if (follow_elsewhere(
            r, [this] { withdraw_campaign(); }, kCampaigns))
      return;
    if (r.has_error()) return report(r, "Withdraw campaign");
    say("The campaign is withdrawn.", MessageKind::kOk);
    leave_campaign_screen();
  });
}

// ---- acting in it ---------------------------------------------------------------------------

void Client::submit_selection(const v1::Selection& selection) {
  if (!campaign_.view || campaign_.selection_in_flight) return;
  v1::ClientEnvelope e;
  auto* s = e.mutable_submit_selection();
  s->set_campaign_id(campaign_.id);
  s->set_node(campaign_.view->summary().node());
  *s->mutable_selection() = selection;
  s->set_entropy(random_entropy());
  campaign_.refusal.clear();
  if (campaign_.offline) {
    write_offline(*s);
    campaign_.selection_written = true;
    say("Offline: the selection was not sent (written to the commands file).", MessageKind::kInfo);
    return;
  }
  campaign_.selection_in_flight = true;
  const std::string id = campaign_.id;
  session_.request(std::move(e), [this, id, selection](const v1::ServerEnvelope& r) {
    if (campaign_.id != id) return;
    campaign_.selection_in_flight = false;
    if (follow_elsewhere(
            r, [this, selection] { submit_selection(selection); }, kCampaigns))
      return;
    if (r.has_selection_result()) {
      const auto& result = r.selection_result();
      if (!result.accepted()) {
        campaign_.refusal = describe_refusal(result.error());
        say(campaign_.refusal, MessageKind::kError);
        return;
      }
      say("Your selection is sealed; its commitment is " + result.commitment().substr(0, 16) +
              "... It is revealed when the battle starts.",
          MessageKind::kOk);
      // Shown sealed at once; the server's CampaignUpdated says the same.
      if (campaign_.view) {
        auto* sum = campaign_.view->mutable_summary();
        *campaign_.view->mutable_my_selection() = selection;
        const bool a = sum->my_side() == v1::SIDE_A;
        a ? sum->set_selection_in_a(true) : sum->set_selection_in_b(true);
        a ? campaign_.view->set_selection_commitment_a(result.commitment())
          : campaign_.view->set_selection_commitment_b(result.commitment());
        sum->set_my_action(false);
      }
      return;
    }
    if (r.has_error()) campaign_.refusal = describe_error(r.error());
    report(r, "Selection");
  });
}

void Client::pause_campaign(bool pause) {
  v1::ClientEnvelope e;
  e.mutable_pause_campaign()->set_campaign_id(campaign_.id);
  e.mutable_pause_campaign()->set_pause(pause);
  session_.request(std::move(e), [this, pause](const v1::ServerEnvelope& r) {
    if (follow_elsewhere(
            r, [this, pause] { pause_campaign(pause); }, kCampaigns))
      return;
    if (r.has_error()) return report(r, pause ? "Pause" : "Resume");
    if (r.has_campaign() && r.campaign().summary().campaign_id() == campaign_.id)
      apply_campaign(r.campaign());
    say(pause ? "You asked to pause the campaign; it pauses when both sides have asked."
              : "You asked to resume the campaign; it resumes when both sides have asked.",
        MessageKind::kOk);
  });
}

void Client::resign_campaign() {
  v1::ClientEnvelope e;
  e.mutable_resign_campaign()->set_campaign_id(campaign_.id);
  session_.request(std::move(e), [this](const v1::ServerEnvelope& r) {
    if (follow_elsewhere(
            r, [this] { resign_campaign(); }, kCampaigns))
      return;
    if (r.has_error()) return report(r, "Resign campaign");
    say("You left the campaign; your side is offered to a replacement player.", MessageKind::kInfo);
  });
}

void Client::open_battle(const std::string& match_id, bool replay) {
  if (campaign_.offline) {
    say("Offline: there is no server to open the battle from.", MessageKind::kInfo);
    return;
  }
  campaign_.battle_opened = match_id;
  // The battle's dice commitment as shown before the selections, if this client saw it: the
  // end screen checks the seed against that one.
  int number = -1;
  if (campaign_.view) {
    const auto& history = campaign_.view->history();
    for (int i = 0; i < history.size(); ++i)
      if (history[i].match_id() == match_id) number = i;
    if (number < 0 && campaign_.view->summary().battle_match_id() == match_id)
      number = history.size();
  }
  const auto shown = campaign_.dice_commitments.find(number);
  replay ? open_replay(match_id) : open_match(match_id);
  if (shown != campaign_.dice_commitments.end()) match_.commitment_at_start = shown->second;
}

// ---- the record ---------------------------------------------------------------------------

void Client::request_campaign_record() {
  if (campaign_.offline || campaign_.id.empty()) return;
  campaign_.record_requested = true;
  v1::ClientEnvelope e;
  e.mutable_export_campaign()->set_campaign_id(campaign_.id);
  const std::string id = campaign_.id;
  session_.request(std::move(e), [this, id](const v1::ServerEnvelope& r) {
    if (campaign_.id != id) return;
    if (!r.has_campaign_record()) return report(r, "Campaign record");
    campaign_.record = r.campaign_record();
  });
}

std::string Client::save_campaign_record(const std::string& dir) {
  if (!campaign_.record) return "";
  pbu::JsonPrintOptions o;
  o.add_whitespace = true;
  o.preserve_proto_field_names = true;
  std::string json;
  if (!pbu::MessageToJsonString(*campaign_.record, &json, o).ok()) return "";
  const std::string path = (dir.empty() ? std::string(".") : dir) + "/castra-campaign-" +
                           campaign_.record->campaign_id() + ".json";
  std::ofstream out(path);
  out << json;
  if (!out) {
    say("Could not write " + path, MessageKind::kError);
    return "";
  }
  return path;
}

std::optional<bool> Client::battle_seed_matches(int i) const {
  if (!campaign_.record || i < 0 || i >= campaign_.record->battles_size()) return std::nullopt;
  const auto& m = campaign_.record->battles(i).match();
  // Against the commitment this client was shown before the selections, when it was; else
  // the one the record holds.
  const auto shown = campaign_.dice_commitments.find(i);
  if (shown != campaign_.dice_commitments.end() && shown->second != m.dice_commitment())
    return false;
  return dice_seed_matches(m.server_seed(), m.dice_commitment());
}

// ---- offline ------------------------------------------------------------------------------

bool Client::load_offline_campaign(const std::string& path, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot read " + path;
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  campaign_ = CampaignData{};
  campaign_.offline = true;
  screen_ = Screen::kCampaign;
  pbu::JsonParseOptions strict;
  auto take = [&](const std::string& json) {
    v1::CampaignView view;
    v1::CampaignRecord record;
    if (pbu::JsonStringToMessage(json, &view, strict).ok() && view.has_summary()) {
      apply_campaign(view);
    } else if (pbu::JsonStringToMessage(json, &record, strict).ok() && record.has_definition()) {
      campaign_.record = record;
    }
  };
  // One whole view (written with whitespace), or JSON lines: a view, then a record.
  if (v1::CampaignView whole; pbu::JsonStringToMessage(text, &whole, strict).ok()) {
    take(text);
  } else {
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line))
      if (line.find_first_not_of(" \t\r") != std::string::npos) take(line);
  }
  if (!campaign_.view) {
    *error = path + " holds no CampaignView";
    return false;
  }
  campaign_.id = campaign_.view->summary().campaign_id();
  return true;
}

}  // namespace castra::client
