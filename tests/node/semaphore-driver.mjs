// Runs the semaphore-scope scenario's programs (src/scenarios/semaphore_scope/js) as three real
// instances, each its own Node process (semaphore-instance.mjs), against PostgreSQL, with one
// payment channel that holds every call until the driver answers it. Used by
// tests/it/semaphore_scope.rs to compare what the channel and the tables end with against the model.
//
// No step waits for time to pass: the driver owns the channel, the instances' idle timers and
// the database's clock, and an instance tells it when it is waiting (semaphore-instance.mjs).
// Settled means every instance waits and one more poll each brings no new call; then nothing
// moves until the driver does, and the end state is read only once every instance has exited.
//
// Usage: node semaphore-driver.mjs <port> <program.js> <plan>
//   burst: the three instances work 30 jobs; the channel answers nothing until they have
//          settled, then answers every call it holds; again, until nothing is left.
//   crash: instance 1 alone takes what it can; instances 2 and 3 start; instance 1 is killed
//          (SIGKILL) holding its calls, which the channel then drops, and starts again as a new
//          process; 31 s pass on the database's clock; the channel answers as above.
// Prints one JSON line: the most calls the channel held at once, and the jobs and budget rows.
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const pg = createRequire(join(HERE, '../e2e/package.json'))('pg');
const [port, program, plan] = process.argv.slice(2);

const db = new pg.Client({ host: '127.0.0.1', port: Number(port), user: 'postgres', database: 'postgres' });
await db.connect();
await db.query("SET lock_timeout = '2s'; SET statement_timeout = '5s'");
await db.query(`DROP TABLE IF EXISTS clock, jobs, channel_budget, channel_slots CASCADE;
  CREATE TABLE clock (t timestamptz NOT NULL);
  INSERT INTO clock VALUES ('2026-12-05 10:00:00+00');
  CREATE OR REPLACE FUNCTION public.now() RETURNS timestamptz LANGUAGE sql STABLE
    AS 'SELECT t FROM public.clock';
  CREATE TABLE jobs (id int PRIMARY KEY, status text NOT NULL, owner text);
  INSERT INTO jobs SELECT g, 'queued', NULL FROM generate_series(1, 30) g;
  CREATE TABLE channel_budget (channel text PRIMARY KEY, in_flight int NOT NULL);
  INSERT INTO channel_budget VALUES ('psp', 0);
  CREATE TABLE channel_slots (slot int PRIMARY KEY, holder text, expires_at timestamptz);
  INSERT INTO channel_slots SELECT g, NULL, NULL FROM generate_series(1, 10) g;`);

const held = new Map(); // call id → the instance holding it
let most = 0;
let calls = 0; // calls made so far
const instances = [];
const exited = new Set(); // instances killed on purpose
let syncs = 0;
const synced = new Map(); // sync id → resolve

// A wrong schedule or a program that never waits fails here instead of hanging the test.
setTimeout(() => {
  console.error(`no end after 120 s: ${held.size} calls held, ${synced.size} syncs unanswered`);
  process.exit(1);
}, 120_000).unref();

function start(i) {
  const child = fork(join(HERE, 'semaphore-instance.mjs'), [port, program], { stdio: 'inherit' });
  child.on('exit', (code, signal) => {
    if (exited.has(child)) return;
    console.error(`instance ${i + 1} exited (${signal ?? code}) before the end`);
    process.exit(1);
  });
  const ready = new Promise((resolve) => {
    child.on('message', (m) => {
      if (m.ready) resolve();
      if (m.error) { console.error(`instance ${i + 1}: ${m.error}`); process.exit(1); }
      if (m.call) {
        held.set(m.call, child);
        most = Math.max(most, held.size);
        calls += 1;
      }
      if (m.synced) {
        synced.get(m.synced)();
        synced.delete(m.synced);
      }
    });
  });
  instances[i] = child;
  return ready;
}

/** Kills instance `i` (SIGKILL) and waits until its process is gone. */
async function kill(i) {
  const child = instances[i];
  exited.add(child);
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

/**
 * Waits until every instance is waiting (semaphore-instance.mjs), each first firing its idle
 * timers if `tick`. The answers sent before are followed through by then: messages keep their
 * order.
 */
function sync(tick) {
  return Promise.all(instances.map((child) => new Promise((resolve) => {
    syncs += 1;
    synced.set(syncs, resolve);
    child.send({ sync: syncs, tick });
  })));
}

/**
 * Waits until the instances have settled: every one waiting, and a round in which each polls
 * once more (its idle timers fired) brings no new call. A poll that finds nothing changes
 * nothing, so the next round would find nothing either.
 */
async function settle() {
  await sync(false);
  for (;;) {
    const before = calls;
    await sync(true);
    if (calls === before) return;
  }
}

/** Answers every held call, settling between rounds, until a round has nothing to answer. */
async function drain() {
  for (;;) {
    await settle();
    if (held.size === 0) return;
    for (const [call, child] of held) child.send({ answer: call });
    held.clear();
  }
}

if (plan === 'burst') {
  await Promise.all([0, 1, 2].map(start));
  await drain();
} else if (plan === 'crash') {
  await start(0);
  await settle();
  await Promise.all([1, 2].map(start));
  await settle(); // they claim what they can
  await kill(0);
  for (const [call, child] of held) if (child === instances[0]) held.delete(call); // orphans end
  await start(0); // a new process: a new pid, a new name
  await db.query("UPDATE clock SET t = t + interval '31 seconds'");
  await drain();
} else {
  throw new Error(`unknown plan ${plan}`);
}
// Settled: no step of any instance is half done. Stop them there, so that no poll (which takes
// a slot of the budget and gives it back) runs while the end state is read.
for (const i of instances.keys()) await kill(i);
const { rows: jobs } = await db.query(`SELECT status, count(*)::int AS n FROM jobs GROUP BY status`);
const { rows: budget } = await db.query('SELECT in_flight FROM channel_budget');
const count = (status) => jobs.find((r) => r.status === status)?.n ?? 0;
console.log(JSON.stringify({
  most_in_flight: most,
  queued: count('queued'),
  running: count('running'),
  done: count('done'),
  budget_in_flight: budget[0].in_flight,
}));
await db.end();
process.exit(0);
