// The job queue the work loops share: a table in Postgres. A job is claimed with SKIP LOCKED,
// so no two instances take the same one, and carries its owner (`instance-3/p1`).
import { hostname } from 'node:os';

const owner = `${hostname()}/p${process.pid}`;

export async function claimJob(db) {
  const { rows } = await db.query(
    `UPDATE jobs SET status = 'running', owner = $1
      WHERE id = (SELECT id FROM jobs WHERE status = 'queued'
                  ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id`, [owner]);
  return rows[0] ?? null;
}

export async function finishJob(db, job) {
  await db.query(`UPDATE jobs SET status = 'done' WHERE id = $1`, [job.id]);
}

export const idle = () => new Promise((resolve) => setTimeout(resolve, 100));
