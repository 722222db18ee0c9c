// /watch/<match_id>[?code=...]: one match, live, as a guest spectator. The server decides what
// a spectator sees (the delay, sealed orders cards); the page draws the snapshots it is sent,
// the events in words, both clocks and the dice commitment, and after the end the revealed
// orders cards, the seed check and a replay slider (GetSnapshot of each log entry).
'use strict';

(function () {
  const el = castra.el, num = castra.num;
  const $ = (id) => document.getElementById(id);
  const matchId = decodeURIComponent(location.pathname.split('/')[2] || '');
  const code = new URLSearchParams(location.search).get('code') || '';
  const view = { summary: null, snapshot: null, deadlines: [0, 0], seen: new Set(), record: null, seed: '' };
  let link, replayWanted = -1, replayBusy = false;

  function status(text, kind) {
    const s = $('status');
    s.textContent = text;
    s.dataset.kind = kind || 'info';
  }

  function drawSnapshot(snap) {
    const board = castra.drawBoard(snap.state);
    const holder = $('board');
    holder.replaceChildren(board || el('p', {}, 'Waiting for the board\u2026'));
    holder.dataset.entryCount = snap.entryCount || 0;
    holder.dataset.eventCount = num(snap.eventCount);
    const turn = snap.turn || 0;
    $('turn').textContent = turn ? 'Turn ' + turn : 'Before the first turn';
    $('turn').dataset.turn = turn;
    $('phase').textContent = snap.phase ? 'Phase: ' + snap.phase : '';
    const acting = [snap.aToAct && 'A', snap.bToAct && 'B'].filter(Boolean);
    $('acting').textContent = snap.ended ? castra.outcomeWords(snap.outcome)
      : acting.length ? 'To act: side ' + acting.join(' and ') : '';
    for (const s of ['A', 'B']) $('clock-' + s).classList.toggle('acting', acting.includes(s) && !snap.ended);
    if (!window.castraFirstPaint && board) window.castraFirstPaint = performance.now();
  }

  function header(m) {
    const a = m.playerA || 'open seat', b = m.playerB || 'open seat';
    $('title').textContent = (m.scenario || matchId) + ': ' + a + ' (A) against ' + b + ' (B)';
    document.title = 'Castra: ' + a + ' v ' + b;
    $('name-A').textContent = a;
    $('name-B').textContent = b;
    $('commitment').textContent = m.diceCommitment || '\u2014';
  }

  function addEvents(events) {
    const list = $('events');
    for (const e of events || []) {
      const n = num(e.number);
      if (view.seen.has(n)) continue;
      view.seen.add(n);
      const sealed = (e.visibility || 'VISIBILITY_PUBLIC') === 'VISIBILITY_SEALED';
      const words = e.text || (sealed ? 'Side ' + castra.sideName(e.owner) + ' sealed its orders (commitment ' +
        (e.commitment || '').slice(0, 12) + '\u2026)' : 'Side ' + castra.sideName(e.owner) + ': hidden');
      list.append(el('li', { 'data-event': n, class: e.text ? '' : 'hidden-event' }, words));
    }
    list.scrollTop = list.scrollHeight;
  }

  function onUpdate(u) {
    if (u.snapshot) {
      view.snapshot = u.snapshot;
      if (!view.record) drawSnapshot(u.snapshot);
    }
    addEvents(u.events);
    if (u.deadlineAMs !== undefined || u.deadlineBMs !== undefined || u.snapshot)
      view.deadlines = [num(u.deadlineAMs), num(u.deadlineBMs)];
    if (u.spectators !== undefined) $('spectators').textContent = u.spectators + ' watching';
    if (u.spectatorDelayTurns) $('delay').textContent = 'Shown ' + u.spectatorDelayTurns + ' turns behind';
    if (u.record) ended(u.record);
  }

  function onPush(env) {
    if (env.matchUpdate && env.matchUpdate.matchId === matchId) onUpdate(env.matchUpdate);
    if (env.matchEnded && env.matchEnded.matchId === matchId) {
      view.seed = env.matchEnded.serverSeed || '';
      if (!view.record) link.request('exportRecord', { matchId }).then((r) => ended(r.record), () => {});
    }
  }

  function tick() {
    const now = Date.now();
    ['A', 'B'].forEach((s, i) => ($('time-' + s).textContent = view.record ? '\u2014' : castra.clock(view.deadlines[i], now)));
  }

  // ---- After the end -------------------------------------------------------------------

  function ended(record) {
    if (!record || view.record) return;
    view.record = record;
    document.body.dataset.state = 'ended';
    status('The match is over: ' + castra.outcomeWords(record.outcome) + '.', 'ok');
    ordersCards(record);
    seedCheck(record.serverSeed || view.seed, record.diceCommitment || (view.summary && view.summary.diceCommitment));
    const entries = (record.entries || []).length;
    const slider = $('replay');
    slider.max = entries;
    slider.value = entries;
    $('replay-box').hidden = false;
    $('replay-at').textContent = entries + ' / ' + entries;
    if (view.snapshot) drawSnapshot(view.snapshot);
  }

  function ordersCards(record) {
    const box = $('orders');
    let turn = 0;
    for (const entry of record.entries || [])
      for (const ev of entry.events || []) {
        const o = ev.optio;
        if (!o) continue;
        if (o.phaseStarted) turn = o.phaseStarted.turn || turn;
        if (!o.ordersCard) continue;
        const card = el('section', { class: 'orders-card', 'data-side': castra.sideName(o.ordersCard.side) });
        card.append(el('h3', {}, 'Side ' + castra.sideName(o.ordersCard.side) + ', turn ' + turn));
        const ul = el('ul');
        for (const p of o.ordersCard.paths || [])
          ul.append(el('li', {}, 'Leader ' + p.leader + ': ' + (p.squares || []).map((q) => q.col + ',' + q.row).join(' \u2192 ')));
        if (!ul.children.length) ul.append(el('li', {}, 'no orders'));
        card.append(ul);
        box.append(card);
      }
    $('orders-box').hidden = box.children.length === 0;
  }

  function hexBytes(hex) {
    const out = new Uint8Array(hex.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
    return out;
  }

  // docs/formats.md 2.1: commitment = SHA-256("castra/dice-commitment/v1" || server_seed).
  async function seedCheck(seedHex, commitmentHex) {
    const out = $('seed-check');
    $('seed').textContent = seedHex || '\u2014';
    if (!window.isSecureContext || !window.crypto || !crypto.subtle) {
      out.textContent = 'The seed check could not run: this page is not in a secure context (https or localhost).';
      out.dataset.result = 'not-run';
      return;
    }
    if (!seedHex || !commitmentHex || !/^([0-9a-f]{2})+$/i.test(seedHex)) {
      out.textContent = 'The seed check could not run: the seed or the commitment is missing.';
      out.dataset.result = 'not-run';
      return;
    }
    const tag = new TextEncoder().encode('castra/dice-commitment/v1');
    const seed = hexBytes(seedHex);
    const input = new Uint8Array(tag.length + seed.length);
    input.set(tag);
    input.set(seed, tag.length);
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', input));
    const hex = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
    const ok = hex === commitmentHex.toLowerCase();
    out.textContent = ok ? 'Seed check passed: the revealed seed hashes to the commitment published before the first move.'
      : 'Seed check FAILED: the revealed seed does not match the commitment.';
    out.dataset.result = ok ? 'match' : 'mismatch';
  }

  // One GetSnapshot in flight; the slider's latest value wins.
  function replayTo(k) {
    replayWanted = k;
    $('replay-at').textContent = k + ' / ' + $('replay').max;
    if (replayBusy) return;
    replayBusy = true;
    link.request('getSnapshot', { matchId, entryCount: k })
      .then((r) => { if (replayWanted === k) drawSnapshot(r.snapshot); },
        (e) => status('The replay could not load: ' + e.message, 'error'))
      .finally(() => {
        replayBusy = false;
        if (replayWanted !== k) replayTo(replayWanted);
      });
  }

  function step(d) {
    const s = $('replay');
    s.value = Math.max(0, Math.min(Number(s.max), Number(s.value) + d));
    replayTo(Number(s.value));
  }

  async function start() {
    document.body.dataset.state = 'connecting';
    $('replay').addEventListener('input', (e) => replayTo(Number(e.target.value)));
    $('replay-back').addEventListener('click', () => step(-1));
    $('replay-forward').addEventListener('click', () => step(1));
    setInterval(tick, 1000);
    link = new castra.Link(onPush, () => {
      if (!view.record && document.body.dataset.state === 'live')
        status('The connection to the server closed. Reload the page to follow the match again.', 'error');
    });
    try {
      await link.open();
      // From event 0: the first update brings the whole log for the event list.
      const ask = { matchId, hasLastSeenEvent: true, lastSeenEvent: '0' };
      if (code) ask.invitationCode = code;
      const r = await link.request('subscribeMatch', ask);
      view.summary = r.subscribed.match || {};
      header(view.summary);
      document.body.dataset.state = 'live';
      status('Watching live.', 'info');
      if (r.subscribed.spectatorDelayTurns)
        $('delay').textContent = 'Shown ' + r.subscribed.spectatorDelayTurns + ' turns behind';
    } catch (e) {
      document.body.dataset.state = 'refused';
      const why = { ERROR_BAD_INVITATION: 'This match is private: its link must carry the invitation code (?code=...).',
        ERROR_MATCH_NOT_FOUND: 'There is no match ' + matchId + '.',
        ERROR_SPECTATORS_NOT_ALLOWED: 'The players of this match do not allow spectators.' }[e.code];
      status(why || 'The match could not be opened: ' + e.message, 'error');
    }
  }

  start();
})();
