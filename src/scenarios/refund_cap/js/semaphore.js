import { Semaphore } from './lock.js';
const slots = new Semaphore(2); // at most two refunds at a time in this process

export async function refund(conn, id, amount) {
  const release = await slots.acquire();
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
