// One instance of the semaphore-scope scenario: a Node process running the work loop the app
// shows (src/scenarios/semaphore_scope/js/<program>) against PostgreSQL, with a payment channel
// whose calls the parent (semaphore-driver.mjs) answers over IPC. Its own process, so its own
// pid and its own name in the job and lease rows, as a real instance has.
// Usage (forked by the driver): node semaphore-instance.mjs <port> <program.js>
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const pg = createRequire(join(HERE, '../e2e/package.json'))('pg');
const [port, program] = process.argv.slice(2);

const db = new pg.Client({ host: '127.0.0.1', port: Number(port), user: 'postgres', database: 'postgres' });
await db.connect();
// The scenario's clock is `public.now()` (the driver moves it), ahead of pg_catalog's.
await db.query("SET search_path = public, pg_catalog; SET lock_timeout = '2s'; SET statement_timeout = '5s'");

const waiting = new Map(); // call id → resolve
let calls = 0;
const channel = {
  pay(job) {
    const id = `${process.pid}:${(calls += 1)}`;
    process.send({ call: id, job: job.id });
    return new Promise((resolve) => waiting.set(id, resolve));
  },
};
process.on('message', ({ answer }) => {
  waiting.get(answer)?.({ ok: true });
  waiting.delete(answer);
});

const { workLoop } = await import(pathToFileURL(join(HERE, '../../src/scenarios/semaphore_scope/js', program)).href);
process.send({ ready: true });
workLoop(db, channel).catch((e) => {
  process.send({ error: String(e) });
  process.exit(1);
});
