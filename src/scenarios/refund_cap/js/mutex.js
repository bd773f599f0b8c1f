import { Mutex } from './lock.js';
const mutex = new Mutex(); // one per process: every instance has its own

export async function refund(conn, id, amount) {
  const release = await mutex.acquire();
  try {
    const { rows } = await conn.query(
      'SELECT cap, refunded, reserved FROM refunds WHERE id = $1', [id]);
    const remaining = rows[0].cap - rows[0].refunded - rows[0].reserved;
    if (remaining < amount) throw new Error('insufficient remaining');
    await conn.query(
      'UPDATE refunds SET reserved = reserved + $2 WHERE id = $1', [id, amount]);
    return 'reserved';
  } finally {
    release();
  }
}
