// refund-batch.js: cancel, then settle by the key (the fix)
// AbortSignal is cooperative: it stops the waiting; it cannot undo a
// write the provider already committed (Node.js docs,
// nodejs.org/api/globals.html#class-abortsignal). Nor does one "not found"
// settle anything: a query on a new connection can overtake the refund.
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
      for (;;) {
        try {
          const res = await sendRefund(op, signal);
          await db.setStatus(op.id, 'SUCCEEDED', await res.json());
          break;
        } catch (err) {
          if (!signal.aborted) {                  // a timeout: outcome unknown
            await db.setStatus(op.id, 'UNKNOWN');
            continue;                             // same key: replays or runs once
          }
          await db.setStatus(op.id, 'CANCEL_REQUESTED');
          const v = await settle((o) => provider.voidRefund(op.id, o));
          // Voided: a refund under this key is refused from now on.
          await db.setStatus(op.id, v.refunded ? 'SUCCEEDED' : 'NOT_EXECUTED');
          break;
        }
      }
      screen.show(progress(batch));               // "Refunding… 1 of 3 done"
    }
    await db.query(
      `UPDATE refund_operations SET status = 'NOT_EXECUTED'
        WHERE batch_id = $1 AND status = 'PENDING'`, [batch.id]);
    screen.show(summary(batch));                  // "2 of 3 refunded, 1 not started"
  }

  function sendRefund(op, signal) {               // the same key on every attempt
    return fetch(`${PROVIDER}/refunds`, {
      method: 'POST',
      headers: { 'Idempotency-Key': op.id },
      body: JSON.stringify({ amount: op.amount }),
      signal: AbortSignal.any([signal, AbortSignal.timeout(5000)]),
    });
  }

  async function settle(call) {                   // not tied to the user's signal
    for (;;) {
      try {
        return await call({ signal: AbortSignal.timeout(5000) });
      } catch { /* no answer: ask again */ }
    }
  }
  return { refundBatch };
}
