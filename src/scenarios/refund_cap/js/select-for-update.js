// A transaction that locks the row: a second request waits at the SELECT.
export async function refund(conn, id, amount) {
  await conn.query('BEGIN');
  try {
    const { rows } = await conn.query(
      'SELECT cap, refunded, reserved FROM refunds WHERE id = $1 FOR UPDATE', [id]);
    const remaining = rows[0].cap - rows[0].refunded - rows[0].reserved;
    if (remaining < amount) throw new Error('insufficient remaining');
    await conn.query(
      'UPDATE refunds SET reserved = reserved + $2 WHERE id = $1', [id, amount]);
    await conn.query('COMMIT');
    return 'reserved';
  } catch (err) {
    await conn.query('ROLLBACK');
    throw err;
  }
}
