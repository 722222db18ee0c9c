// /: the live and recently finished matches and campaigns, with their players, scenario and
// turn (a live match's turn from its first update: the page subscribes, reads it, and leaves).
'use strict';

(function () {
  const el = castra.el;
  const $ = (id) => document.getElementById(id);

  function matchRow(m) {
    const row = el('tr', { 'data-match': m.matchId });
    const watch = el('a', { href: '/watch/' + encodeURIComponent(m.matchId) }, m.scenario || m.matchId);
    const turn = el('td', { class: 'turn' }, m.status === 'MATCH_FINISHED' ? castra.outcomeWords(m.outcome) : '\u2026');
    row.append(el('td', {}, watch), el('td', {}, m.playerA || '\u2014'), el('td', {}, m.playerB || '\u2014'), turn);
    return [row, turn];
  }

  // A live match's first update after subscribing, by match id.
  const firstUpdate = new Map();

  async function fillTurns(link, cells) {
    for (const [id, cell] of cells) {
      try {
        const got = new Promise((resolve) => firstUpdate.set(id, resolve));
        await link.request('subscribeMatch', { matchId: id });
        const snap = await Promise.race([got, new Promise((r) => setTimeout(() => r(null), 3000))]);
        firstUpdate.delete(id);
        cell.textContent = snap ? (snap.ended ? 'over' : 'turn ' + (snap.turn || 0) + (snap.phase ? ', ' + snap.phase : '')) : '';
        await link.request('unsubscribeMatch', { matchId: id });
      } catch (e) {
        cell.textContent = '';
      }
    }
  }

  function campaignRow(c) {
    const row = el('tr', { 'data-campaign': c.campaignId });
    row.append(el('td', {}, el('a', { href: '/campaign/' + encodeURIComponent(c.campaignId) }, c.title || c.definition)),
      el('td', {}, c.playerA || '\u2014'), el('td', {}, c.playerB || '\u2014'),
      el('td', {}, c.status === 'CAMPAIGN_FINISHED' ? castra.outcomeWords(c.outcome)
        : (c.winsA || 0) + '\u2013' + (c.winsB || 0) + (c.node ? ', ' + c.node : '')));
    return row;
  }

  async function start() {
    const link = new castra.Link((env) => {
      const u = env.matchUpdate;
      if (u && u.snapshot && firstUpdate.has(u.matchId)) firstUpdate.get(u.matchId)(u.snapshot);
    });
    try {
      await link.open();
      const cells = [];
      for (const [status, id] of [['MATCH_LIVE', 'live'], ['MATCH_FINISHED', 'finished']]) {
        const r = await link.request('listMatches', { status, limit: 20 });
        const body = $(id);
        for (const m of r.matches.matches || []) {
          const [row, cell] = matchRow(m);
          body.append(row);
          if (status === 'MATCH_LIVE') cells.push([m.matchId, cell]);
        }
        if (!body.children.length) body.append(el('tr', {}, el('td', { colspan: 4 }, 'None just now.')));
      }
      for (const [status, id] of [['CAMPAIGN_LIVE', 'campaigns-live'], ['CAMPAIGN_FINISHED', 'campaigns-finished']]) {
        const r = await link.request('listCampaigns', { status, limit: 20 });
        const body = $(id);
        for (const c of r.campaigns.campaigns || []) body.append(campaignRow(c));
        if (!body.children.length) body.append(el('tr', {}, el('td', { colspan: 4 }, 'None just now.')));
      }
      $('status').textContent = '';
      await fillTurns(link, cells);
    } catch (e) {
      $('status').textContent = 'The server could not be reached: ' + e.message;
    }
  }

  start();
})();
