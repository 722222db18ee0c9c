// Castra's protocol over the JSON subprotocol (docs/protocol.md, "JSON"): one ClientEnvelope
// or ServerEnvelope per text frame in protobuf's JSON mapping. A Link greets, signs in as a
// guest, answers each request with a promise, and hands pushes to `onPush`. Field names are
// read in lowerCamelCase whichever spelling the server writes.
'use strict';

const castra = window.castra || (window.castra = {});

// snake_case keys become lowerCamelCase, recursively (the mapping's default spelling).
castra.camel = function camel(v) {
  if (Array.isArray(v)) return v.map(camel);
  if (v === null || typeof v !== 'object') return v;
  const out = {};
  for (const k of Object.keys(v)) out[k.replace(/_([a-z0-9])/g, (m, c) => c.toUpperCase())] = camel(v[k]);
  return out;
};

// int64 and uint64 come as strings: numbers for the page, 0 when absent.
castra.num = (v) => (v === undefined || v === null || v === '' ? 0 : Number(v));

castra.Link = class {
  constructor(onPush, onClose) {
    this.onPush = onPush;
    this.onClose = onClose;
    this.next = 1;
    this.waiting = new Map();
    this.queue = [];
    this.rate = 1; // until the HelloResult says
    this.burst = 1;
    this.tokens = 1;
    this.refilled = performance.now();
    this.timer = 0;
  }

  // Resolves once the guest session is open.
  open() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    this.ws = new WebSocket(scheme + '//' + location.host + '/ws', 'castra.v1.json');
    this.ws.onmessage = (e) => this.receive(e.data);
    this.ws.onclose = (e) => {
      for (const w of this.waiting.values()) w.reject(new Error('connection closed'));
      this.waiting.clear();
      if (this.onClose) this.onClose(e);
    };
    return new Promise((resolve, reject) => {
      this.ws.onopen = () =>
        this.request('hello', { major: 1, minor: 3, client: 'castra-watch/1' })
          .then((r) => this.limits(r.hello))
          .then(() => this.request('guestLogin', {}))
          .then(resolve, reject);
      this.ws.onerror = () => reject(new Error('the server could not be reached'));
    });
  }

  // Sends one request; resolves with the reply's body ({kind: value}), rejects with its Error.
  request(kind, body) {
    const id = this.next++;
    this.queue.push(JSON.stringify({ requestId: String(id), [kind]: body }));
    this.pump();
    return new Promise((resolve, reject) => this.waiting.set(id, { resolve, reject }));
  }

  // The page keeps under the message rate its HelloResult announced (a token bucket at 90% of
  // it, half its burst, as castra-bot does), so the server never closes it for flooding.
  pump() {
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilled) / 1000) * this.rate);
    this.refilled = now;
    while (this.queue.length && this.tokens >= 1 && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(this.queue.shift());
      this.tokens -= 1;
    }
    if (this.queue.length && !this.timer)
      this.timer = setTimeout(() => { this.timer = 0; this.pump(); }, Math.ceil(((1 - this.tokens) / this.rate) * 1000));
  }

  // From the HelloResult: the limits this connection lives under.
  limits(hello) {
    this.rate = 0.9 * (hello.messagesPerSecond || 20);
    this.burst = Math.max(1, Math.floor((hello.messageBurst || 40) / 2));
    this.tokens = this.burst - 1; // the Hello was the first
  }

  receive(text) {
    let env;
    try {
      env = castra.camel(JSON.parse(text));
    } catch (e) {
      return;
    }
    const id = castra.num(env.requestId);
    delete env.requestId;
    const w = id ? this.waiting.get(id) : undefined;
    if (!w) return this.onPush && this.onPush(env);
    this.waiting.delete(id);
    if (env.error) {
      const err = new Error(env.error.message || env.error.code);
      err.code = env.error.code;
      w.reject(err);
    } else {
      w.resolve(env);
    }
  }
};

// Small DOM helpers shared by the pages.
castra.el = function el(tag, attrs, ...children) {
  const svg = ['svg', 'g', 'rect', 'polygon', 'circle', 'text', 'path', 'line', 'title', 'polyline'];
  const e = svg.includes(tag)
    ? document.createElementNS('http://www.w3.org/2000/svg', tag)
    : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) e.setAttribute(k, v);
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
};

castra.sideName = (s) => (s === 'SIDE_B' ? 'B' : 'A');

castra.outcomeWords = function (o) {
  if (!o) return '';
  const k = o.kind || 'WIN_A';
  const who = k === 'DRAW' ? 'Draw' : k === 'WIN_A' ? 'Side A won' : 'Side B won';
  return o.reason ? who + ' (' + o.reason + ')' : who;
};

// "3:07" left until a unix-millisecond deadline, or an em dash.
castra.clock = function (deadlineMs, now) {
  if (!deadlineMs) return '\u2014';
  let s = Math.max(0, Math.round((deadlineMs - now) / 1000));
  const d = Math.floor(s / 86400);
  if (d > 0) return d + 'd ' + Math.floor((s % 86400) / 3600) + 'h';
  const h = Math.floor(s / 3600);
  s %= 3600;
  const mm = String(Math.floor(s / 60)).padStart(h ? 2 : 1, '0');
  return (h ? h + ':' : '') + mm + ':' + String(s % 60).padStart(2, '0');
};
