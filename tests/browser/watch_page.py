#!/usr/bin/python3
"""The browser half of the BrowserWatch.* tests (browser_watch_test.cpp starts the server and
the bots): Debian's chromium, headless, driven by chromium-driver through python3-selenium.
Every check that fails exits non-zero with the reason; a missing browser or driver fails too
(never skips). Expected values come from the server's own frames (the match record), read off
the page's WebSocket through Chrome's performance log, never from the page's code.

  watch_page.py assets   --port P --out DIR
  watch_page.py match    --port P --out DIR --scenario optio/training --game optio
  watch_page.py private  --port P --out DIR --match ID --code CODE
  watch_page.py campaign --port P --out DIR --campaign ID --players alice,bob
  watch_page.py limit    --port P --out DIR --limit N
"""
import argparse
import json
import os
import shutil
import sys
import time
import urllib.request

FAILURES = []


def check(ok, what):
    print(('ok    ' if ok else 'FAIL  ') + what, flush=True)
    if not ok:
        FAILURES.append(what)
    return ok


def finish():
    if FAILURES:
        print('%d check(s) failed' % len(FAILURES))
        sys.exit(1)
    sys.exit(0)


def browser(width=1280, height=900, phone=False):
    for tool in ('chromium', 'chromedriver'):
        if shutil.which(tool) is None:
            print('FAIL  %s is not installed (tools/dev installs chromium and chromium-driver)' % tool)
            sys.exit(1)
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        print('FAIL  python3-selenium is not installed (tools/dev installs it)')
        sys.exit(1)
    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which('chromium')
    for a in ('--headless=new', '--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu',
              '--window-size=%d,%d' % (width, height), '--hide-scrollbars'):
        opts.add_argument(a)
    if phone:
        opts.add_experimental_option('mobileEmulation', {
            'deviceMetrics': {'width': width, 'height': height, 'pixelRatio': 2}})
    opts.set_capability('goog:loggingPrefs', {'performance': 'ALL'})
    return webdriver.Chrome(service=Service(shutil.which('chromedriver')), options=opts)


def wait_for(what, predicate, timeout):
    """Polls `predicate` until it holds (returns its value) or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    while True:
        v = predicate()
        if v:
            return v
        if time.monotonic() > deadline:
            check(False, 'in time: ' + what)
            return None
        time.sleep(0.05)


class Frames:
    """The text frames the page's WebSocket received, in order, from the performance log."""

    def __init__(self, driver):
        self.driver = driver
        self.received = []
        self.sent = []

    def drain(self):
        for entry in self.driver.get_log('performance'):
            msg = json.loads(entry['message'])['message']
            if msg['method'] == 'Network.webSocketFrameReceived':
                self.received.append(msg['params']['response']['payloadData'])
            elif msg['method'] == 'Network.webSocketFrameSent':
                self.sent.append(msg['params']['response']['payloadData'])
        return self.received

    def parsed(self):
        out = []
        for f in self.drain():
            try:
                out.append(camel(json.loads(f)))
            except ValueError:
                pass
        return out


def camel(v):
    if isinstance(v, list):
        return [camel(x) for x in v]
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            parts = k.split('_')
            out[parts[0] + ''.join(p[:1].upper() + p[1:] for p in parts[1:])] = camel(x)
        return out
    return v


def base(port):
    return 'http://127.0.0.1:%d' % port


def shot(driver, out, name):
    path = os.path.join(out, name)
    driver.save_screenshot(path)
    print('screenshot ' + path, flush=True)


def js(driver, script, *args):
    return driver.execute_script(script, *args)


def attr(driver, selector, name):
    return js(driver, 'const e = document.querySelector(arguments[0]); return e && e.getAttribute(arguments[1]);',
              selector, name)


# ---- assets: ETags, caching, content types, page weight ----------------------------------

def get(port, path, headers=None):
    req = urllib.request.Request(base(port) + path, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def run_assets(a):
    pages = {'/': 'text/html', '/watch/0123456789abcdef0123456789abcdef': 'text/html', '/campaign/0123456789abcdef0123456789abcdef': 'text/html',
             '/assets/castra.css': 'text/css', '/assets/link.js': 'text/javascript',
             '/assets/board.js': 'text/javascript', '/assets/watch.js': 'text/javascript',
             '/assets/list.js': 'text/javascript', '/assets/campaign.js': 'text/javascript'}
    for path, kind in pages.items():
        status, headers, body = get(a.port, path)
        check(status == 200, '%s answers 200 (got %d)' % (path, status))
        check(headers.get('Content-Type', '').startswith(kind), '%s is %s (got %s)' % (path, kind, headers.get('Content-Type')))
        etag = headers.get('ETag', '')
        check(len(etag) == 34 and etag[0] == '"' and etag[-1] == '"' and not etag.startswith('W/'),
              '%s has a strong ETag (got %r)' % (path, etag))
        check('no-cache' in headers.get('Cache-Control', ''), '%s says Cache-Control no-cache' % path)
        status, headers, body = get(a.port, path, {'If-None-Match': etag})
        check(status == 304 and body == b'', '%s with If-None-Match its ETag answers 304 and no body (got %d)' % (path, status))
        status, _, _ = get(a.port, path, {'If-None-Match': 'W/' + etag})
        check(status == 200, '%s with only a weak match answers 200 (got %d)' % (path, status))
    for path in ('/watch/', '/watch/a/b', '/assets/nothing.js', '/assets/watch.html', '/nowhere'):
        status, _, _ = get(a.port, path)
        check(status == 404, '%s is not found (got %d)' % (path, status))
    # The watch page as the browser loads it, every byte.
    d = browser()
    try:
        d.get(base(a.port) + '/watch/0123456789abcdef0123456789abcdef')
        wait_for('the page loaded', lambda: js(d, 'return document.readyState') == 'complete', 10)
        weight = js(d, """
          const nav = performance.getEntriesByType('navigation')[0];
          return performance.getEntriesByType('resource').reduce((n, r) => n + r.decodedBodySize, nav.decodedBodySize);""")
        print('page weight: %d bytes uncompressed (watch page with its scripts and styles)' % weight)
        check(0 < weight < 100 * 1024, 'the watch page weighs under 100 KB (%d bytes)' % weight)
        status = wait_for('the refusal of an unknown match',
                          lambda: js(d, "return document.body.dataset.state === 'refused' && document.getElementById('status').textContent"), 10)
        check(status and 'no match' in status, 'an unknown match is said to be unknown (%r)' % status)
    finally:
        d.quit()


# ---- a live match between two bots -------------------------------------------------------

def find_live(d, port, scenario):
    d.get(base(port) + '/')
    def row():
        return js(d, """for (const r of document.querySelectorAll('#live tr[data-match]'))
                          if (r.querySelector('a').textContent === arguments[0]) return r.dataset.match;
                        return null;""", scenario)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = wait_for('the list', lambda: js(d, "return document.getElementById('status').textContent === '' ? 1 : 0"), 10) and row()
        if found:
            return found
        d.refresh()
    return None


def record_of(frames):
    for env in frames:
        u = env.get('matchUpdate') or {}
        if u.get('record'):
            return u['record']
        if env.get('record'):
            return env['record']
    return None


def known_move(record, game):
    """The last move of the record whose result a test can say by hand from the record: an
    Optio unit's advance (its last step is its square) or a STAND! move (the last hex of its
    path holds that side's troops), in an entry where nothing routs or falls (which could take
    the unit off the board)."""
    found = None
    for i, entry in enumerate(record.get('entries', [])):
        events = entry.get('events', [])
        if any('routed' in ev.get('optio', {}) or 'casualties' in ev.get('stand', {}) for ev in events):
            continue
        for ev in events:
            adv = ev.get('optio', {}).get('advanced')
            if game == 'optio' and adv and adv.get('steps'):
                last = adv['steps'][-1]
                found = (i + 1, {'unit': adv.get('unit', 0), 'col': last.get('col', 0), 'row': last.get('row', 0)})
            moved = ev.get('stand', {}).get('moved')
            if game == 'stand' and moved and moved.get('path'):
                last = moved['path'][-1]
                found = (i + 1, {'side': 'B' if moved.get('side') == 'SIDE_B' else 'A',
                                 'col': last.get('col', 0), 'row': last.get('row', 0)})
    return found


def run_match(a):
    d = browser()
    frames = Frames(d)
    try:
        match_id = find_live(d, a.port, a.scenario)
        if not check(match_id is not None, 'the list at / shows the bots\' live match of ' + a.scenario):
            return
        turn_cell = wait_for('the list shows the turn', lambda: js(
            d, "const r = document.querySelector('#live tr[data-match=\"' + arguments[0] + '\"] .turn'); return r && /turn|over/.test(r.textContent) && r.textContent;", match_id), 10)
        check(bool(turn_cell), 'the live match\'s row says its turn (%r)' % turn_cell)
        shot(d, a.out, 'list.png')
        frames.drain()
        frames.received.clear()
        start = time.monotonic()
        d.get(base(a.port) + '/watch/' + match_id)
        board = wait_for('the live board', lambda: js(d, "return document.querySelector('#board svg .unit') !== null"), 10)
        check(board, 'the board is drawn with its units')
        paint = js(d, "const p = performance.getEntriesByName('first-contentful-paint')[0]; return [p ? p.startTime : -1, window.castraFirstPaint || -1];")
        print('first paint: %.0f ms (first contentful paint), live board drawn at %.0f ms after navigation, %.0f ms wall clock'
              % (paint[0], paint[1], (time.monotonic() - start) * 1000), flush=True)
        live_shot = False
        orders_seen_live = 0
        turns_seen = set()
        while True:
            # One script reads both, so the page cannot reach the end between the two reads
            # (and its revealed cards be counted as shown while live).
            state, cards = js(d, "return [document.body.dataset.state, document.querySelectorAll('.orders-card').length]")
            if state == 'ended':
                break
            if time.monotonic() - start > 240:
                check(False, 'the match ended within 240 s')
                return
            orders_seen_live += cards
            t = attr(d, '#turn', 'data-turn')
            turns_seen.add(t)
            if not live_shot and t and int(t) >= 2:
                shot(d, a.out, a.game + '-live.png')
                live_shot = True
            frames.drain()
            time.sleep(0.1)
        print('turns shown while live: %s' % sorted(int(t) for t in turns_seen if t))
        check(orders_seen_live == 0, 'no orders card was in the page before the end')
        # A short match may be found on / only in its last turn: one live turn is enough here;
        # the turn shown is checked against the server's snapshot after the end.
        check(any(t and int(t) > 0 for t in turns_seen), 'a turn was shown while live (%s)' % sorted(turns_seen))
        parsed = frames.parsed()
        first_reveal = next((i for i, f in enumerate(frames.received) if '"record"' in f), None)
        check(first_reveal is not None, 'a frame brought the record at the end')
        early = [f for f in frames.received[:first_reveal or 0] if 'ordersCard' in f or 'orders_card' in f]
        check(not early, 'no frame before the reveal carried an orders card (%d did)' % len(early))
        record = record_of(parsed)
        if not check(record is not None, 'the record arrived'):
            return
        entries = len(record.get('entries', []))
        cards = js(d, "return document.querySelectorAll('.orders-card').length")
        revealed = sum(1 for e in record.get('entries', []) for ev in e.get('events', []) if 'ordersCard' in ev.get('optio', {}))
        check(cards == revealed, 'every revealed orders card is shown (%d of %d)' % (cards, revealed))
        if a.game == 'optio':
            check(revealed > 0, 'an Optio match has orders cards to reveal (%d)' % revealed)
        result = wait_for('the seed check', lambda: attr(d, '#seed-check', 'data-result'), 10)
        check(result == 'match', 'the seed check with Web Crypto passes (%r)' % result)
        check(attr(d, '#replay', 'max') == str(entries), 'the replay slider spans the %d log entries' % entries)
        shot(d, a.out, a.game + '-ended.png')
        # The known move: the page's board at that entry shows it.
        move = known_move(record, a.game)
        if not check(move is not None, 'the record has a move to check'):
            return
        at, want = move
        js(d, "const s = document.getElementById('replay'); s.value = arguments[0]; s.dispatchEvent(new Event('input'));", at)
        wait_for('the replay at entry %d' % at, lambda: attr(d, '#board', 'data-entry-count') == str(at), 10)
        if a.game == 'optio':
            sel = '#board .unit[data-unit="%d"]' % want['unit']
            got = (attr(d, sel, 'data-col'), attr(d, sel, 'data-row'))
            check(got == (str(want['col']), str(want['row'])),
                  'after entry %d unit %d is drawn on %d,%d (drawn on %s)' % (at, want['unit'], want['col'], want['row'], got))
        else:
            sel = '#board .unit[data-col="%d"][data-row="%d"]' % (want['col'], want['row'])
            got = attr(d, sel, 'data-side')
            check(got == want['side'], 'after entry %d side %s\'s troops are drawn on hex %d,%d (found %r)' % (at, want['side'], want['col'], want['row'], got))
        snap = [f['snapshot'] for f in frames.parsed() if 'snapshot' in f and 'requestId' in f]
        snap = snap[-1] if snap else {}
        check(attr(d, '#turn', 'data-turn') == str(snap.get('turn', 0)),
              'the turn shown is the snapshot\'s (%s, page %s)' % (snap.get('turn', 0), attr(d, '#turn', 'data-turn')))
        shot(d, a.out, a.game + '-replay.png')
        # By keyboard: one entry back with the arrow key on the focused slider.
        from selenium.webdriver.common.keys import Keys
        d.find_element('id', 'replay').send_keys(Keys.ARROW_LEFT)
        check(wait_for('the arrow key', lambda: attr(d, '#board', 'data-entry-count') == str(at - 1), 10),
              'the left arrow key steps the replay one entry back')
    finally:
        d.quit()
    # A phone's screen: the same page, narrow.
    p = browser(390, 844, phone=True)
    try:
        p.get(base(a.port) + '/watch/' + match_id)
        wait_for('the board on a phone', lambda: js(p, "return document.querySelector('#board svg .unit') !== null && document.body.dataset.state === 'ended'"), 15)
        wide = js(p, 'return document.documentElement.scrollWidth <= window.innerWidth + 1')
        check(wide, 'on a phone the page needs no sideways scrolling')
        shot(p, a.out, a.game + '-phone.png')
    finally:
        p.quit()


# ---- a private match: refused without its code ---------------------------------------------

def run_private(a):
    d = browser()
    try:
        d.get(base(a.port) + '/watch/' + a.match)
        text = wait_for('the refusal', lambda: js(d, "return document.body.dataset.state === 'refused' && document.getElementById('status').textContent"), 10)
        check(text and 'invitation code' in text, 'without its code the private match is refused (%r)' % text)
        shot(d, a.out, 'private-refused.png')
        d.get(base(a.port) + '/watch/' + a.match + '?code=' + a.code)
        state = wait_for('the page let in', lambda: js(d, "const s = document.body.dataset.state; return s !== 'connecting' && s"), 10)
        check(state == 'live', 'with its code the private match opens (%r)' % state)
        d.get(base(a.port) + '/watch/' + a.match + '?code=wrong' + a.code)
        text = wait_for('the refusal', lambda: js(d, "return document.body.dataset.state === 'refused' && document.getElementById('status').textContent"), 10)
        check(text and 'invitation code' in text, 'with a wrong code it is refused (%r)' % text)
    finally:
        d.quit()


# ---- a campaign's page ------------------------------------------------------------------------

def run_campaign(a):
    d = browser()
    try:
        d.get(base(a.port) + '/campaign/' + a.campaign)
        players = wait_for('the campaign', lambda: js(d, "return document.body.dataset.state === 'live' && document.getElementById('players').textContent"), 10)
        pa, pb = a.players.split(',')
        check(players == '%s (A) against %s (B)' % (pa, pb), 'the campaign page names both sides (%r)' % players)
        stage = attr(d, '#stage', 'data-stage')
        check(stage == 'STAGE_SELECTING', 'the campaign is choosing who fights (%r)' % stage)
        check('Battles won: A 0, B 0' in js(d, "return document.getElementById('score').textContent"), 'no battle won yet')
        shot(d, a.out, 'campaign.png')
        d.get(base(a.port) + '/')
        listed = wait_for('the list', lambda: js(d, "return document.querySelector('#campaigns-live tr[data-campaign=\"' + arguments[0] + '\"]') !== null", a.campaign), 10)
        check(listed, 'the list at / shows the live campaign')
    finally:
        d.quit()


# ---- the page's WebSocket counts against the per-address limit ---------------------------

def free_connections(port):
    """How many more TCP connections this address may open now: it opens raw ones until the
    server closes one at once (the per-address limit), then closes them all."""
    import socket
    held = []
    try:
        while len(held) < 64:
            s = socket.create_connection(('127.0.0.1', port))
            s.settimeout(0.5)
            try:
                refused = s.recv(1) == b''
            except socket.timeout:
                refused = False
            except ConnectionResetError:
                refused = True
            if refused:
                s.close()
                break
            held.append(s)
        return len(held)
    finally:
        for s in held:
            s.close()


def run_limit(a):
    d = browser()
    try:
        d.get(base(a.port) + '/watch/0123456789abcdef0123456789abcdef')
        wait_for('the page\'s WebSocket', lambda: js(d, "return document.body.dataset.state === 'refused'"), 10)
        with_page = free_connections(a.port)
        print('connections left to this address with the watch page open: %d of %d' % (with_page, a.limit))
        check(with_page < a.limit, 'the open page takes part of the per-address limit')
        # A plain asset over the same keep-alive connection: the page and its WebSocket go.
        d.get(base(a.port) + '/assets/castra.css')
        freed = wait_for('the WebSocket\'s place freed', lambda: free_connections(a.port) > with_page, 15)
        check(bool(freed), 'leaving the page gives its WebSocket\'s place back: it counted against the limit')
    finally:
        d.quit()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('mode', choices=['assets', 'match', 'private', 'campaign', 'limit'])
    ap.add_argument('--port', type=int, required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--scenario')
    ap.add_argument('--game')
    ap.add_argument('--match')
    ap.add_argument('--code')
    ap.add_argument('--campaign')
    ap.add_argument('--players')
    ap.add_argument('--limit', type=int, default=0)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    {'assets': run_assets, 'match': run_match, 'private': run_private, 'campaign': run_campaign, 'limit': run_limit}[a.mode](a)
    finish()


if __name__ == '__main__':
    main()
