// Runs the semaphore-scope scenario's programs (src/scenarios/semaphore_scope/js) as three real
// instances, each its own Node process (semaphore-instance.mjs), against PostgreSQL, with one
// payment channel that holds every call until the driver answers it. Used by
// tests/semaphore_scope.rs to compare what the channel and the tables end with against the model.
//
// Usage: node semaphore-driver.mjs <port> <program.js> <plan>
//   burst: the three instances work 30 jobs; the channel answers nothing until no new call has
//          come for a while, then answers every call it holds; again, until nothing is left.
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
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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
let lastCall = Date.now();
const instances = [];

function start(i) {
  const child = fork(join(HERE, 'semaphore-instance.mjs'), [port, program], { stdio: 'inherit' });
  const ready = new Promise((resolve) => {
    child.on('message', (m) => {
      if (m.ready) resolve();
      if (m.error) { console.error(`instance ${i + 1}: ${m.error}`); process.exit(1); }
      if (m.call) {
        held.set(m.call, child);
        most = Math.max(most, held.size);
        lastCall = Date.now();
      }
    });
  });
  instances[i] = child;
  return ready;
}

/** Waits until no new call has come for `quiet` ms. */
async function settle(quiet = 400) {
  while (Date.now() - lastCall < quiet) await sleep(50);
}

/** Answers every held call, settling between rounds, until a round has nothing to answer. */
async function drain() {
  for (;;) {
    await settle();
    if (held.size === 0) return;
    for (const [call, child] of held) child.send({ answer: call });
    held.clear();
    lastCall = Date.now();
  }
}

if (plan === 'burst') {
  await Promise.all([0, 1, 2].map(start));
  await drain();
} else if (plan === 'crash') {
  await start(0);
  await settle();
  await Promise.all([1, 2].map(start));
  lastCall = Date.now(); // give them time to claim what they can
  await settle();
  instances[0].kill('SIGKILL');
  await new Promise((resolve) => instances[0].once('exit', resolve));
  for (const [call, child] of held) if (child === instances[0]) held.delete(call); // orphans end
  await start(0); // a new process: a new pid, a new name
  await db.query("UPDATE clock SET t = t + interval '31 seconds'");
  lastCall = Date.now();
  await drain();
} else {
  throw new Error(`unknown plan ${plan}`);
}
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
for (const child of instances) child.kill('SIGKILL');
await db.end();
process.exit(0);
