// One instance of the semaphore-scope scenario: a Node process running the work loop the app
// shows (src/scenarios/semaphore_scope/js/<program>) against PostgreSQL, with a payment channel
// whose calls the parent (semaphore-driver.mjs) answers over IPC. Its own process, so its own
// pid and its own name in the job and lease rows, as a real instance has.
//
// The driver also owns the loop's idle timer (the program's `setTimeout`: `idle()` between
// polls), as it owns the channel and the database's clock: a timer fires only when the driver
// says `tick`. So the driver can ask where an instance stands, `{ sync, tick }`, and be answered
// `{ synced }` only once the instance is waiting: no query of its own in flight, every answer
// it was sent followed through (the job finished, the slot given back), its loop blocked on the
// channel, on its own semaphore or on an idle timer that has not been ticked.
// Usage (forked by the driver): node semaphore-instance.mjs <port> <program.js>
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const pg = createRequire(join(HERE, '../e2e/package.json'))('pg');
const [port, program] = process.argv.slice(2);

const client = new pg.Client({ host: '127.0.0.1', port: Number(port), user: 'postgres', database: 'postgres' });
await client.connect();
// The scenario's clock is `public.now()` (the driver moves it), ahead of pg_catalog's.
await client.query("SET search_path = public, pg_catalog; SET lock_timeout = '2s'; SET statement_timeout = '5s'");

// The program's queries, counted while they run. Between two queries of one step (a poll, or
// the follow-up of an answered call) there are only promise reactions, never a new task: so at
// the start of a task with none in flight, no step is half done.
let inFlight = 0;
const onIdle = [];
const db = {
  query(...args) {
    inFlight += 1;
    return client.query(...args).finally(() => {
      inFlight -= 1;
      if (inFlight === 0) for (const f of onIdle.splice(0)) f();
    });
  },
};
/** Resolves at the start of a task with no query in flight (every pending reaction has run). */
function waiting() {
  return new Promise((resolve) => {
    const check = () => (inFlight === 0 ? resolve() : onIdle.push(() => setImmediate(check)));
    setImmediate(check);
  });
}

// The idle timers, fired by the driver's `tick` (the program's only timeouts; pg sets none
// without a query timeout, and its connect timer is behind us).
const timers = new Set();
const realClearTimeout = globalThis.clearTimeout;
globalThis.setTimeout = (fn, _ms, ...args) => {
  const t = { fn: () => fn(...args), ref: () => t, unref: () => t, refresh: () => t };
  t.hasRef = () => true;
  timers.add(t);
  return t;
};
globalThis.clearTimeout = (t) => (timers.has(t) ? timers.delete(t) : realClearTimeout(t));

const waitingFor = new Map(); // call id → resolve
let calls = 0;
const channel = {
  pay(job) {
    const id = `${process.pid}:${(calls += 1)}`;
    process.send({ call: id, job: job.id });
    return new Promise((resolve) => waitingFor.set(id, resolve));
  },
};
process.on('message', ({ answer, sync, tick }) => {
  if (answer) {
    waitingFor.get(answer)?.({ ok: true });
    waitingFor.delete(answer);
  }
  if (sync) {
    if (tick) {
      const due = [...timers];
      timers.clear();
      for (const t of due) t.fn();
    }
    // Messages arrive in order: every answer sent before this has been delivered above.
    waiting().then(() => process.send({ synced: sync }));
  }
});

const { workLoop } = await import(pathToFileURL(join(HERE, '../../src/scenarios/semaphore_scope/js', program)).href);
process.send({ ready: true });
workLoop(db, channel).catch((e) => {
  process.send({ error: String(e) });
  process.exit(1);
});
