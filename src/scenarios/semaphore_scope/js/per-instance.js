import { Semaphore } from './lock.js';
import { claimJob, finishJob, idle } from './jobs.js';
// Every instance runs this loop. The semaphore lives in this process:
// it knows nothing about the other instances.
const local = new Semaphore(10); // 10 per instance

export async function workLoop(db, channel) {
  for (;;) {
    const release = await local.acquire();
    const job = await claimJob(db); // FOR UPDATE SKIP LOCKED
    if (!job) { release(); await idle(); continue; }
    channel.pay(job)              // in flight until it answers
      .then((r) => finishJob(db, job, r))
      .finally(release);
  }
}
