// refund-batch.js: cancel, then ask once (half a fix)
// AbortSignal is cooperative: it stops the waiting; it cannot undo a
// write the provider already committed (Node.js docs,
// nodejs.org/api/globals.html#class-abortsignal).
export function serve({ app, db, provider, screen, progress, summary, PROVIDER }) {
  const controllers = new Map();
  app.post('/batches/:id/cancel', (req) => controllers.get(req.params.id).abort());

  async function refundBatch(batch) {
    const controller = new AbortController();
    controllers.set(batch.id, controller);
    const { signal } = controller;
    for (const op of batch.ops) {
      if (signal.aborted) break;                  // stop new work
      await db.setStatus(op.id, 'SENT');
      try {
        const res = await fetch(`${PROVIDER}/refunds`, {
          method: 'POST',
          headers: { 'Idempotency-Key': op.id },
          body: JSON.stringify({ amount: op.amount }),
          signal: AbortSignal.any([signal, AbortSignal.timeout(5000)]),
        });
        await db.setStatus(op.id, 'SUCCEEDED', await res.json());
      } catch (err) {
        // We stopped waiting; the refund may still have happened.
        await db.setStatus(op.id, signal.aborted ? 'CANCEL_REQUESTED' : 'UNKNOWN');
        const refund = await reconcile(op.id);    // keep the operation, ask
        // "Not found" is taken as final, but the refund may still be on its way.
        await db.setStatus(op.id, refund ? 'SUCCEEDED' : 'NOT_EXECUTED');
      }
      screen.show(progress(batch));               // "Refunding… 1 of 3 done"
    }
    await db.query(
      `UPDATE refund_operations SET status = 'NOT_EXECUTED'
        WHERE batch_id = $1 AND status = 'PENDING'`, [batch.id]);
    screen.show(summary(batch));                  // "2 of 3 refunded, 1 not started"
  }

  async function reconcile(opId) {                // not tied to the user's signal
    for (;;) {
      try {
        return await provider.findRefund(opId, { signal: AbortSignal.timeout(5000) });
      } catch { /* no answer: ask again */ }
    }
  }
  return { refundBatch };
}
