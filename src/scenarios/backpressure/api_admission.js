// Order API with admission control: judge by waiting time, not queue length.
export function serve({ app, orders, queue, processOrder }) {
  const THROUGHPUT = 48 / 0.2; // slots / seconds per order = 240 orders/s
  const ADMIT_WAIT_S = 20;

  app.post('/orders', async (req, res) => {
    const expectedWait = (await queue.depth()) / THROUGHPUT;
    const oldestAge = await queue.oldestMessageAgeSeconds();
    if (expectedWait >= ADMIT_WAIT_S || oldestAge >= ADMIT_WAIT_S) {
      res.set('Retry-After', '5');
      return res.status(503).json({ error: 'busy, try again shortly' });
    }
    const order = await orders.create(req.body);
    await queue.send('order.created', { orderId: order.id });
    res.status(202).json({ orderId: order.id });
  });

  queue.consume('order.created', { concurrency: 48 }, async (msg) => {
    await processOrder(msg.orderId);
  });
}
