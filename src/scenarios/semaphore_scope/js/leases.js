import { hostname } from 'node:os';
import { Semaphore } from './lock.js';
import { claimJob, finishJob, idle } from './jobs.js';
// Every instance runs this loop. The budget is 10 lease rows in Postgres;
// a lease names this process and expires unless it is renewed.
const local = new Semaphore(10); // 10 per instance
const me = `${hostname()}:${process.pid}`; // a new name after a restart

export async function workLoop(db, channel) {
  setInterval(() => db.query(`UPDATE channel_slots
    SET expires_at = now() + interval '30 seconds'
    WHERE holder = $1`, [me]), 10_000); // renew every 10 s
  for (;;) {
    const release = await local.acquire();
    const { rows } = await db.query(
      `UPDATE channel_slots
          SET holder = $1, expires_at = now() + interval '30 seconds'
        WHERE slot = (SELECT slot FROM channel_slots
                       WHERE holder IS NULL OR expires_at < now()
                       ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING slot`, [me]);
    if (rows.length === 0) { release(); await idle(); continue; }
    const job = await claimJob(db); // FOR UPDATE SKIP LOCKED
    if (!job) { // the queue is empty: give the lease back
      await db.query(`UPDATE channel_slots SET holder = NULL
        WHERE slot = $1 AND holder = $2`, [rows[0].slot, me]);
      release(); await idle(); continue;
    }
    channel.pay(job, { timeout: 10_000 }) // shorter than the lease
      .then((r) => finishJob(db, job, r))
      .finally(async () => {
        await db.query(`UPDATE channel_slots SET holder = NULL
          WHERE slot = $1 AND holder = $2`, [rows[0].slot, me]);
        release();
      });
  }
}
