import { TokenBucket } from './token-bucket.js';
// Pace payment work to what the channel accepts, and admit at the edge.
const CHANNEL_PER_S = 120;
const bucket = new TokenBucket({ ratePerSecond: CHANNEL_PER_S });

export function serve({ app, orders, queue, channel, payments }) {
  app.post('/orders', async (req, res) => {
    const expectedWait = (await queue.depth()) / CHANNEL_PER_S;
    if (expectedWait >= 20 || (await queue.oldestMessageAgeSeconds()) >= 20) {
      res.set('Retry-After', '5');
      return res.status(503).json({ error: 'busy, try again shortly' });
    }
    await queue.send('payment.requested', await orders.create(req.body));
    res.status(202).end();
  });

  queue.consume('payment.requested', { concurrency: 24 }, async (msg) => {
    await bucket.take(); // at most 120 calls per second
    const res = await channel.charge(msg.paymentId, msg.amount);
    await payments.markCharged(msg.paymentId, res.chargeId);
    msg.ack();
  });
}
