import { Semaphore } from './lock.js';
import { claimJob, finishJob, idle } from './jobs.js';
// Every instance runs this loop. The budget is one row in Postgres,
// shared by all instances; the local semaphore stays as well.
const local = new Semaphore(10); // 10 per instance

export async function workLoop(db, channel) {
  for (;;) {
    const release = await local.acquire();
    const { rowCount } = await db.query(
      `UPDATE channel_budget SET in_flight = in_flight + 1
        WHERE in_flight < 10`);
    if (rowCount === 0) { release(); await idle(); continue; }
    const job = await claimJob(db); // FOR UPDATE SKIP LOCKED
    if (!job) { // the queue is empty: give the slot back
      await db.query(
        'UPDATE channel_budget SET in_flight = in_flight - 1');
      release(); await idle(); continue;
    }
    channel.pay(job)              // in flight until it answers
      .then((r) => finishJob(db, job, r))
      .finally(async () => {
        await db.query(
          'UPDATE channel_budget SET in_flight = in_flight - 1');
        release();
      });
  }
}
