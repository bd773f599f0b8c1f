// Runs the backpressure scenario's programs (src/scenarios/backpressure/*.js), the very files
// the app shows, under Node in virtual time: `setTimeout` and `Date.now` run on a clock this
// driver moves, so a ten-minute peak takes a second. The queue, the order store and the payment
// channel are small fakes with the scenario's numbers: orders arrive at `peak`/s for `peakS`
// seconds and at `after`/s after it; an order takes 200 ms of a consumer slot; the channel
// answers in 200 ms and refuses with 429 past `channel` calls in one second. Used by
// tests/it/backpressure.rs, which compares the curves with the model's.
//
// Usage: node backpressure-driver.mjs <program.js> <peak> <peakS> <after> <channel> <endS>
// Prints one JSON line per five seconds: { t, queued, age, arrived, refused, processed, calls,
// throttled } (queued: orders not yet done; age: the oldest waiting order's, in seconds).
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const [file, peak, peakS, after, channelRate, endS] = process.argv.slice(2).map((a, i) => (i ? Number(a) : a));

// ---- virtual time ------------------------------------------------------------------------
let now = 0; // ms
let seq = 0;
const heap = [];
const push = (t) => {
  heap.push(t);
  for (let i = heap.length - 1; i > 0; ) {
    const p = (i - 1) >> 1;
    if (before(heap[p], heap[i])) break;
    [heap[p], heap[i]] = [heap[i], heap[p]];
    i = p;
  }
};
const before = (a, b) => a.at < b.at || (a.at === b.at && a.seq < b.seq);
const pop = () => {
  const top = heap[0];
  const last = heap.pop();
  if (heap.length) {
    heap[0] = last;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && before(heap[l], heap[m])) m = l;
      if (r < heap.length && before(heap[r], heap[m])) m = r;
      if (m === i) break;
      [heap[m], heap[i]] = [heap[i], heap[m]];
      i = m;
    }
  }
  return top;
};
globalThis.setTimeout = (fn, ms = 0) => push({ at: now + Math.max(0, ms), seq: seq++, fn });
Date.now = () => now;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const turn = () => new Promise((resolve) => setImmediate(resolve));

// ---- the fakes ---------------------------------------------------------------------------
const tally = { arrived: 0, refused: 0, processed: 0, calls: 0, throttled: 0 };
const waiting = []; // { msg, at } oldest first
let inFlight = 0;
const consumers = [];
const queue = {
  async send(topic, body) {
    waiting.push({ body, at: now });
    dispatch();
  },
  consume(topic, { concurrency }, handler) {
    consumers.push({ concurrency, busy: 0, handler });
    dispatch();
  },
  async depth() {
    return waiting.length;
  },
  async oldestMessageAgeSeconds() {
    return waiting.length ? (now - waiting[0].at) / 1000 : 0;
  },
};
function dispatch() {
  for (const c of consumers) {
    while (c.busy < c.concurrency && waiting.length) {
      const item = waiting.shift();
      c.busy += 1;
      inFlight += 1;
      let settled = false;
      const done = (requeue) => {
        if (settled) return;
        settled = true;
        c.busy -= 1;
        inFlight -= 1;
        if (requeue) waiting.unshift(item); // back where it was: first in line
        else tally.processed += 1;
        dispatch();
      };
      const msg = { ...item.body, ack: () => done(false), nack: ({ requeue }) => done(requeue) };
      Promise.resolve(c.handler(msg)).then(() => done(false), () => done(true));
    }
  }
}
let orderNo = 0;
const orders = { create: async () => ({ id: ++orderNo, paymentId: `pay-${orderNo}`, amount: 100 }) };
// The model counts the consumers' calls where there is no channel.
const processOrder = () => {
  tally.calls += 1;
  return sleep(200);
};
let second = -1;
let inSecond = 0;
const channel = {
  async charge() {
    const s = Math.floor(now / 1000);
    if (s !== second) [second, inSecond] = [s, 0];
    inSecond += 1;
    tally.calls += 1;
    await sleep(200);
    if (inSecond > channelRate && s === Math.floor((now - 200) / 1000)) {
      tally.throttled += 1;
      return { status: 429 };
    }
    return { status: 200, chargeId: `ch_${tally.calls}` };
  },
};
const payments = { markCharged: async () => {} };
const routes = new Map();
const app = { post: (path, handler) => routes.set(path, handler) };

// ---- the run -----------------------------------------------------------------------------
const program = await import(pathToFileURL(join(HERE, '../../src/scenarios/backpressure', file)).href);
if (program.serve) program.serve({ app, orders, queue, processOrder, channel, payments });
else program.consume({ queue, channel, payments });
const post = routes.get('/orders');

async function arrive() {
  tally.arrived += 1;
  if (!post) return queue.send('payment.requested', await orders.create({}));
  const res = {
    code: 0,
    set() { return res; },
    status(code) { res.code = code; return res; },
    json() {},
    end() {},
  };
  await post({ body: {} }, res);
  if (res.code === 503) tally.refused += 1;
}

for (let t = 0; t < endS; t += 1) {
  const rate = t < peakS ? peak : after;
  for (let k = 0; k < rate; k += 1) push({ at: t * 1000 + (k * 1000) / rate, seq: seq++, fn: arrive });
}
const lines = [];
for (let t = 5; t <= endS; t += 5) {
  while (heap.length && heap[0].at < t * 1000) {
    const next = pop();
    now = next.at;
    next.fn();
    await turn();
  }
  now = t * 1000;
  const age = waiting.length ? Math.floor((now - waiting[0].at) / 1000) : 0;
  lines.push(JSON.stringify({ t, queued: waiting.length + inFlight, age, ...tally }));
}
console.log(lines.join('\n'));
process.exit(0);
