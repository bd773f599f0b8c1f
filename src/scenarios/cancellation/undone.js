// refund-batch.js: cancel means undone (the mistake)
// AbortSignal is cooperative: it stops the waiting; it cannot undo a
// write the provider already committed (Node.js docs,
// nodejs.org/api/globals.html#class-abortsignal).
export function serve({ app, db, screen, PROVIDER }) {
  const controllers = new Map();
  app.post('/batches/:id/cancel', (req) => controllers.get(req.params.id).abort());

  async function refundBatch(batch) {
    const controller = new AbortController();
    controllers.set(batch.id, controller);
    let done = 0;
    try {
      for (const op of batch.ops) {
        await db.setStatus(op.id, 'SENT');
        const res = await fetch(`${PROVIDER}/refunds`, {
          method: 'POST',
          headers: { 'Idempotency-Key': op.id },
          body: JSON.stringify({ amount: op.amount }),
          signal: AbortSignal.any([controller.signal, AbortSignal.timeout(5000)]),
        });
        await db.setStatus(op.id, 'SUCCEEDED', await res.json());
        screen.show(`Refunding… ${++done} of 3 done`);
      }
      screen.show('Done: 3 of 3 refunded');
    } catch (err) {
      // AbortError or TimeoutError: "so nothing happened"
      await db.query(
        `DELETE FROM refund_operations
          WHERE batch_id = $1 AND status <> 'SUCCEEDED'`, [batch.id]);
      screen.show(err.name === 'TimeoutError'
        ? `Failed: ${done} of 3 refunded, the rest not refunded`
        : `Cancelled: ${done} of 3 refunded, the rest cancelled`);
    }
  }
  return { refundBatch };
}
