// One refund request; conn is its own database connection. It writes back the value it
// computed from its own read: a request that read the same row overwrites the other's write.
export async function refund(conn, id, amount) {
  const { rows } = await conn.query(
    'SELECT cap, refunded, reserved FROM refunds WHERE id = $1', [id]);
  const remaining = rows[0].cap - rows[0].refunded - rows[0].reserved;
  if (remaining < amount) throw new Error('insufficient remaining');
  await conn.query(
    'UPDATE refunds SET reserved = $2 WHERE id = $1', [id, rows[0].reserved + amount]);
  return 'reserved';
}
