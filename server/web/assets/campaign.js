// /campaign/<campaign_id>[?code=...]: one campaign as a guest spectator sees it (its public
// view, pushed again after every change): the sides, the score, the battle being selected for
// or fought (with a link to watch it), and the battles fought so far.
'use strict';

(function () {
  const el = castra.el;
  const $ = (id) => document.getElementById(id);
  const campaignId = decodeURIComponent(location.pathname.split('/')[2] || '');
  const code = new URLSearchParams(location.search).get('code') || '';
  const STAGES = { STAGE_NONE: 'not started', STAGE_SELECTING: 'choosing who fights', STAGE_FIGHTING: 'fighting', STAGE_OVER: 'over' };

  function battleName(def, node) {
    const b = ((def && def.battles) || []).find((x) => x.id === node);
    return (b && b.name) || node || '';
  }

  function show(v) {
    const s = v.summary || {}, def = v.definition || {};
    document.body.dataset.state = s.status === 'CAMPAIGN_FINISHED' ? 'ended' : 'live';
    $('title').textContent = s.title || def.title || campaignId;
    $('players').textContent = (s.playerA || 'open') + ' (A) against ' + (s.playerB || 'open') + ' (B)';
    $('score').textContent = 'Battles won: A ' + (s.winsA || 0) + ', B ' + (s.winsB || 0) + ', drawn ' + (s.draws || 0);
    $('stage').textContent = s.status === 'CAMPAIGN_FINISHED' ? castra.outcomeWords(s.outcome)
      : 'Now: ' + (STAGES[s.stage || 'STAGE_NONE'] || '') + (s.node ? ', ' + battleName(def, s.node) : '') + (s.paused ? ' (paused)' : '');
    $('stage').dataset.stage = s.stage || 'STAGE_NONE';
    const now = $('now');
    now.replaceChildren();
    if (s.battleMatchId) {
      const q = code ? '?code=' + encodeURIComponent(code) : '';
      now.append(el('a', { href: '/watch/' + encodeURIComponent(s.battleMatchId) + q, id: 'watch-battle' }, 'Watch ' + battleName(def, s.node)));
    }
    const list = $('history');
    list.replaceChildren();
    for (const b of v.history || []) {
      const li = el('li', { 'data-node': b.node }, battleName(def, b.node) + ': ' + castra.outcomeWords(b.outcome) + ' ');
      if (b.matchId) li.append(el('a', { href: '/watch/' + encodeURIComponent(b.matchId) }, 'replay'));
      list.append(li);
    }
    if (!list.children.length) list.append(el('li', {}, 'No battle fought yet.'));
    $('description').textContent = def.description || '';
  }

  async function start() {
    const link = new castra.Link((env) => {
      if (env.campaignUpdated && env.campaignUpdated.campaign) show(env.campaignUpdated.campaign);
    });
    try {
      await link.open();
      const r = await link.request('subscribeCampaign', code ? { campaignId, invitationCode: code } : { campaignId });
      show(r.campaign);
      $('status').textContent = 'Following live.';
    } catch (e) {
      document.body.dataset.state = 'refused';
      $('status').textContent = e.code === 'ERROR_BAD_INVITATION'
        ? 'This campaign is private: its link must carry the invitation code (?code=...).'
        : 'The campaign could not be opened: ' + e.message;
    }
  }

  start();
})();
