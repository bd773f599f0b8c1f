// The check and the write are one statement: the database decides, atomically.
export async function refund(conn, id, amount) {
  const { rowCount } = await conn.query(
    `UPDATE refunds SET reserved = reserved + $2
      WHERE id = $1 AND cap - refunded - reserved >= $2`, [id, amount]);
  if (rowCount !== 1) throw new Error('insufficient remaining');
  return 'reserved';
}
