// Runs the refund-cap scenario's real JavaScript (src/scenarios/refund_cap/js) under Node against
// an in-memory fake database whose queries execute, and whose results are delivered, exactly when
// a schedule says so. Used by tests/refund_cap.rs to check the model against Node's semantics.
//
// Input (stdin), one or more cases:
//   case <file.js> cap=<n> instances=<k>
//   req <name> <instance> <amount>        (one line per request)
//   start <name> | exec <name> | deliver <name>
//   end
// `start` calls the request's handler; `exec` makes the database execute the request's pending
// query (taking row locks, applying writes, computing the result); `deliver` resolves the
// query's promise. After each event the driver waits for the microtask queue to drain
// (setImmediate), then prints one line:
//   <event>: pending=A:SELECT,B:- reserved=<n> lock=<name|-> results=A:reserved,B:-
// and after `end`: `end reserved=<n>`.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const JS = join(dirname(fileURLToPath(import.meta.url)), '../../src/scenarios/refund_cap/js');
const drain = () => new Promise((resolve) => setImmediate(resolve));

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

class FakeDb {
  constructor(cap) {
    this.row = { cap, refunded: 0, reserved: 0 };
    this.lock = null; // the request whose transaction holds the row lock
    this.tx = new Map(); // request → { undo: amount to take back on ROLLBACK }
  }

  /** Executes `q` for request `who`; returns its result or throws if the row is locked. */
  execute(who, q) {
    const [id, amount] = q.params;
    const txControl = q.kind === 'BEGIN' || q.kind === 'COMMIT' || q.kind === 'ROLLBACK';
    if (!txControl && id !== 1) throw new Error(`unexpected id ${id}`);
    const locked = this.lock !== null && this.lock !== who;
    switch (q.kind) {
      case 'BEGIN':
        this.tx.set(who, { undo: 0 });
        return { rows: [], rowCount: 0 };
      case 'SELECT':
        return { rows: [{ ...this.row }], rowCount: 1 };
      case 'SELECT-FOR-UPDATE':
        if (locked) throw new Error(`${who}: row locked by ${this.lock}`);
        this.lock = who;
        return { rows: [{ ...this.row }], rowCount: 1 };
      case 'UPDATE-SET': {
        // `SET reserved = $2`: the value the request computed, written over whatever is there.
        if (locked) throw new Error(`${who}: row locked by ${this.lock}`);
        this.row.reserved = amount;
        return { rows: [], rowCount: 1 };
      }
      case 'UPDATE':
      case 'UPDATE-IF': {
        if (locked) throw new Error(`${who}: row locked by ${this.lock}`);
        const { cap, refunded, reserved } = this.row;
        if (q.kind === 'UPDATE-IF' && !(cap - refunded - reserved >= amount)) {
          return { rows: [], rowCount: 0 };
        }
        this.row.reserved += amount;
        const tx = this.tx.get(who);
        if (tx) tx.undo += amount;
        return { rows: [], rowCount: 1 };
      }
      case 'COMMIT':
      case 'ROLLBACK': {
        const tx = this.tx.get(who);
        if (q.kind === 'ROLLBACK' && tx) this.row.reserved -= tx.undo;
        this.tx.delete(who);
        if (this.lock === who) this.lock = null;
        return { rows: [], rowCount: 0 };
      }
      default:
        throw new Error(`cannot execute ${q.kind}`);
    }
  }
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
  const db = new FakeDb(cap);
  const reqs = new Map(); // name → { instance, amount, query, result }
  const order = [];
  const conn = (name) => ({
    query(sql, params = []) {
      const r = reqs.get(name);
      if (r.query) throw new Error(`${name} sent a query while one is in flight`);
      return new Promise((resolve) => {
        r.query = { kind: kind(sql), params, resolve, result: undefined, done: false };
      });
    },
  });
  const show = (event) => {
    const pending = order
      .map((n) => `${n}:${reqs.get(n).query && !reqs.get(n).query.done ? reqs.get(n).query.kind : '-'}`)
      .join(',');
    const results = order.map((n) => `${n}:${reqs.get(n).result ?? '-'}`).join(',');
    out.push(`${event}: pending=${pending} reserved=${db.row.reserved} lock=${db.lock ?? '-'} results=${results}`);
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
      r.query.result = db.execute(name, r.query);
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
    show(line);
  }
  out.push(`end reserved=${db.row.reserved}`);
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
