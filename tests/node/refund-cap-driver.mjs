// Runs the refund-cap scenario's real JavaScript (src/scenarios/refund_cap/js) under Node against
// a real PostgreSQL (node-postgres, one connection per request): each request's query is sent to
// the database, and its result delivered, exactly when a schedule says so. Used by
// tests/it/refund_cap.rs, which starts the server, to check the model against Node and PostgreSQL.
//
// Usage: node refund-cap-driver.mjs <port>. Input (stdin), one or more cases:
//   case <file.js> cap=<n> instances=<k>
//   req <name> <instance> <amount>        (one line per request)
//   start <name> | exec <name> | deliver <name>
//   end
// `start` calls the request's handler; `exec` has PostgreSQL execute the request's pending query
// on the request's connection (a query PostgreSQL would block fails after the lock timeout:
// the model never executes a statement that waits); `deliver` resolves the query's promise.
// After each event the driver waits for the microtask queue to drain (setImmediate), then
// prints one line, with the committed `reserved` and the row lock's holder as PostgreSQL has
// them (pgrowlocks):
//   <event>: pending=A:SELECT,B:- reserved=<n> lock=<name|-> results=A:reserved,B:-
// and after `end`: `end reserved=<n>`.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const JS = join(HERE, '../../src/scenarios/refund_cap/js');
// node-postgres is installed with the browser tests' packages (tests/e2e, by .ci/setup).
const pg = createRequire(join(HERE, '../e2e/package.json'))('pg');
const drain = () => new Promise((resolve) => setImmediate(resolve));
const NAMES = ['A', 'B', 'C'];

/** What kind of statement `sql` is, in the words the model uses. */
function kind(sql) {
  const s = sql.replace(/\s+/g, ' ').trim();
  if (s === 'BEGIN' || s === 'COMMIT' || s === 'ROLLBACK') return s;
  if (s.startsWith('SELECT')) return s.endsWith('FOR UPDATE') ? 'SELECT-FOR-UPDATE' : 'SELECT';
  if (s.startsWith('UPDATE')) {
    if (s.includes('>=')) return 'UPDATE-IF';
    return s.includes('reserved = reserved') ? 'UPDATE' : 'UPDATE-SET';
  }
  throw new Error(`unknown statement: ${s}`);
}

/** A connection with the harness's timeouts: a wrong schedule fails instead of hanging. */
async function connect(port) {
  const c = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
  await c.connect();
  await c.query("SET lock_timeout = '2s'; SET statement_timeout = '5s'");
  const { rows } = await c.query('SELECT pg_backend_pid() AS pid');
  c.pid = rows[0].pid;
  return c;
}

const port = Number(process.argv[2]);
const observer = await connect(port);
await observer.query(`DROP TABLE IF EXISTS refunds;
  CREATE TABLE refunds (id int PRIMARY KEY, cap int NOT NULL, refunded int NOT NULL,
    reserved int NOT NULL);
  INSERT INTO refunds VALUES (1, 0, 0, 0);
  CREATE EXTENSION IF NOT EXISTS pgrowlocks;`);
const conns = new Map();
for (const n of NAMES) conns.set(n, await connect(port));
// node-postgres returns ints as numbers only for int4, as here.

/** The committed reservation and the name of the row lock's holder, as PostgreSQL has them. */
async function database() {
  const { rows } = await observer.query(`SELECT reserved,
      (SELECT pids FROM pgrowlocks('refunds') LIMIT 1) AS pids FROM refunds WHERE id = 1`);
  const pid = rows[0].pids?.[0];
  const holder = NAMES.find((n) => conns.get(n).pid === pid);
  return { reserved: rows[0].reserved, lock: holder ?? '-' };
}

async function runCase(header, lines, out) {
  const [, file, capArg, instArg] = header.split(' ');
  const cap = Number(capArg.split('=')[1]);
  const instances = Number(instArg.split('=')[1]);
  // Each instance is its own copy of the module (its own mutex or semaphore), as two
  // processes would have.
  const modules = [];
  for (let i = 0; i < instances; i += 1) {
    const url = pathToFileURL(join(JS, file));
    url.search = `?instance=${i}&case=${runCase.count}`;
    modules.push(await import(url.href));
  }
  runCase.count += 1;
  for (const c of conns.values()) await c.query('ROLLBACK'); // a case left nothing open
  await observer.query('UPDATE refunds SET cap = $1, refunded = 0, reserved = 0 WHERE id = 1', [cap]);
  const reqs = new Map(); // name → { instance, amount, query, result }
  const order = [];
  const conn = (name) => ({
    query(sql, params = []) {
      const r = reqs.get(name);
      if (r.query) throw new Error(`${name} sent a query while one is in flight`);
      return new Promise((resolve) => {
        r.query = { sql, kind: kind(sql), params, resolve, result: undefined, done: false };
      });
    },
  });
  // Only an `exec` changes the database; the other events reuse what it last said.
  let seen = await database();
  const show = async (event) => {
    const pending = order
      .map((n) => `${n}:${reqs.get(n).query && !reqs.get(n).query.done ? reqs.get(n).query.kind : '-'}`)
      .join(',');
    const results = order.map((n) => `${n}:${reqs.get(n).result ?? '-'}`).join(',');
    if (event.startsWith('exec')) seen = await database();
    const { reserved, lock } = seen;
    out.push(`${event}: pending=${pending} reserved=${reserved} lock=${lock} results=${results}`);
  };
  for (const line of lines) {
    const [verb, name, a, b] = line.split(' ');
    if (verb === 'req') {
      reqs.set(name, { instance: Number(a), amount: Number(b), query: null, result: null });
      order.push(name);
      continue;
    }
    const r = reqs.get(name);
    if (!r) throw new Error(`unknown request in: ${line}`);
    if (verb === 'start') {
      modules[r.instance]
        .refund(conn(name), 1, r.amount)
        .then((v) => { r.result = v; }, (e) => { r.result = e.message; });
    } else if (verb === 'exec') {
      if (!r.query || r.query.done) throw new Error(`${name} has no pending query`);
      const { sql, params } = r.query;
      r.query.result = await conns.get(name).query(sql, params);
      r.query.done = true;
    } else if (verb === 'deliver') {
      if (!r.query || !r.query.done) throw new Error(`${name} has no executed query`);
      const { resolve, result } = r.query;
      r.query = null;
      resolve(result);
    } else {
      throw new Error(`unknown event: ${line}`);
    }
    await drain();
    await show(line);
  }
  out.push(`end reserved=${(await database()).reserved}`);
}
runCase.count = 0;

const input = readFileSync(0, 'utf8').split('\n').map((l) => l.trim()).filter(Boolean);
const out = [];
for (let i = 0; i < input.length; i += 1) {
  if (!input[i].startsWith('case ')) throw new Error(`expected a case at: ${input[i]}`);
  const header = input[i];
  const body = [];
  for (i += 1; input[i] !== 'end'; i += 1) {
    if (i >= input.length) throw new Error('a case without end');
    body.push(input[i]);
  }
  try {
    await runCase(header, body, out);
  } catch (e) {
    process.stdout.write(`${out.join('\n')}\nerror: ${e.message}\n`);
    process.exit(1);
  }
}
process.stdout.write(`${out.join('\n')}\n`);
for (const c of [observer, ...conns.values()]) await c.end();
