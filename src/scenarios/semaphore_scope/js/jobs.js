// The job queue the work loops share: a table in Postgres, claimed with SKIP LOCKED so that
// no two instances take the same job.
export async function claimJob(db) {
  const { rows } = await db.query(
    `UPDATE jobs SET status = 'RUNNING'
      WHERE id = (SELECT id FROM jobs WHERE status = 'PENDING'
                   ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id, payload`);
  return rows[0] ?? null;
}

export async function finishJob(db, job, result) {
  await db.query(`UPDATE jobs SET status = $2 WHERE id = $1`,
    [job.id, result.ok ? 'DONE' : 'FAILED']);
}

export const idle = () => new Promise((resolve) => setTimeout(resolve, 100));
