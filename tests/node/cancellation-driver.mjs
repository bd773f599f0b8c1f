// Runs the cancellation scenario's programs (src/scenarios/cancellation/*.js), the very files
// the app shows, under Node against PostgreSQL, with a payment provider that holds each request
// until the schedule lets it act. Used by tests/it/cancellation.rs.
//
// Usage: node cancellation-driver.mjs <port>. Input (stdin): one case per line,
//   <program.js> <action key> <action key> ...
// The keys are a run of the model in which the service acts as soon as it can (Node runs the
// program on its own between outside events). The driver plays the outside ones: `start` (the
// agent's click), `provider` and `overtake` (the provider handles the first or second request
// it holds: a refund commits unless its key was voided; a void holds unless refunded; an answer
// goes back only to a caller still listening), `receive` (the first answer arrives), `cancel`
// (the agent's Cancel: the batch's AbortController), `lose-answer`, and `timeout` /
// `ask-timeout` (`AbortSignal.timeout(5000)` of the call awaited fires). The service's own
// moves (`send`, `abort`, `query`, `void`, `retry`, `finish`) are the program's, not played.
// Prints one JSON line per case: the rows of refund_operations, the provider's refunds by key,
// and the screen's last message.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const JS = join(HERE, '../../src/scenarios/cancellation');
const pg = createRequire(join(HERE, '../e2e/package.json'))('pg');
const SERVICE = new Set(['send', 'abort', 'query', 'void', 'retry', 'finish']);
const OPS = [['op-1', 40], ['op-2', 25], ['op-3', 35]];

const client = new pg.Client({ host: '127.0.0.1', port: Number(process.argv[2]), user: 'postgres', database: 'postgres' });
await client.connect();
await client.query("SET lock_timeout = '2s'; SET statement_timeout = '5s'");
let busy = 0; // database calls in flight
const query = async (sql, params) => {
  busy += 1;
  try {
    return await client.query(sql, params);
  } finally {
    busy -= 1;
  }
};

/** Waits until the program is blocked on something only the schedule can give it. */
async function settle() {
  for (let quiet = 0; quiet < 3; ) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    quiet = busy === 0 ? quiet + 1 : 0;
  }
}

async function runCase(file, keys) {
  await query(`DROP TABLE IF EXISTS refund_operations;
    CREATE TABLE refund_operations (operation_id text PRIMARY KEY, batch_id text NOT NULL,
      amount numeric(12,2) NOT NULL, status text NOT NULL, result jsonb)`);
  const inbox = []; // requests the provider holds, in order
  const answers = []; // answers on their way back
  const ledger = [];
  const voided = [];
  const timers = []; // AbortSignal.timeout controllers, newest last
  let shown = '';
  const request = (kind, op, signal) => new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason); // an aborted fetch sends nothing
    const req = { kind, op, resolve, gone: false };
    inbox.push(req);
    signal.addEventListener('abort', () => {
      req.gone = true; // the connection is closed: an answer on its way is lost with it
      const i = answers.findIndex((x) => x.req === req);
      if (i >= 0) answers.splice(i, 1);
      reject(signal.reason);
    });
  });
  globalThis.fetch = (url, init) => request('refund', init.headers['Idempotency-Key'], init.signal);
  AbortSignal.timeout = () => {
    const c = new AbortController();
    timers.push(c);
    return c.signal;
  };
  const provider = {
    findRefund: (op, { signal }) => request('find', op, signal),
    voidRefund: (op, { signal }) => request('void', op, signal),
  };
  const handle = (i) => {
    const [req] = inbox.splice(i, 1);
    if (req.kind === 'refund' && !voided.includes(req.op) && !ledger.includes(req.op)) ledger.push(req.op);
    if (req.kind === 'void' && !ledger.includes(req.op) && !voided.includes(req.op)) voided.push(req.op);
    if (!req.gone) answers.push({ req, answer: reply(req) }); // as it stands when handled
  };
  const reply = (req) => {
    const refunded = ledger.includes(req.op);
    if (req.kind === 'refund') return { json: async () => ({ refund: `re_${ledger.indexOf(req.op) + 1}` }) };
    if (req.kind === 'find') return refunded ? { refund: req.op } : null;
    return { refunded };
  };
  const routes = new Map();
  const app = { post: (path, handler) => routes.set(path, handler) };
  const db = {
    setStatus: (id, status, result) => query(
      'UPDATE refund_operations SET status = $2, result = $3 WHERE operation_id = $1',
      [id, status, result ?? null]),
    query,
  };
  const count = (status) => `(rows with ${status})`;
  const module = await import(`${pathToFileURL(join(JS, file)).href}?case=${runCase.n++}`);
  const { refundBatch } = module.serve({
    app, db, provider, PROVIDER: 'https://provider.test', screen: { show: (m) => { shown = m; } },
    progress: () => count('progress'), summary: () => count('summary'),
  });
  const batch = { id: 'b-9', ops: OPS.map(([id, amount]) => ({ id, amount })) };
  for (const key of keys) {
    if (SERVICE.has(key)) continue;
    if (key === 'start') {
      await query(`INSERT INTO refund_operations (operation_id, batch_id, amount, status)
        VALUES ('op-1','b-9',40.00,'PENDING'), ('op-2','b-9',25.00,'PENDING'),
               ('op-3','b-9',35.00,'PENDING')`);
      refundBatch(batch);
    } else if (key === 'provider') handle(0);
    else if (key === 'overtake') handle(1);
    else if (key === 'receive') {
      const { req, answer } = answers.shift();
      req.resolve(answer);
    } else if (key === 'lose-answer') answers.shift();
    else if (key === 'cancel') routes.get('/batches/:id/cancel')({ params: { id: 'b-9' } });
    else if (key === 'timeout' || key === 'ask-timeout') {
      timers.at(-1).abort(new DOMException('The operation timed out.', 'TimeoutError'));
    } else throw new Error(`unknown action ${key}`);
    await settle();
  }
  const { rows } = await query('SELECT operation_id, status FROM refund_operations ORDER BY 1');
  return { ops: rows.map((r) => [r.operation_id, r.status]), ledger, screen: shown };
}
runCase.n = 0;

const lines = readFileSync(0, 'utf8').split('\n').filter((l) => l.trim());
for (const line of lines) {
  const [file, ...keys] = line.trim().split(/\s+/);
  console.log(JSON.stringify(await runCase(file, keys)));
}
await client.end();
