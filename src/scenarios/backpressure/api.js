// Order API: accept every order and let the queue absorb the peak.
export function serve({ app, orders, queue, processOrder }) {
  app.post('/orders', async (req, res) => {
    const order = await orders.create(req.body);
    await queue.send('order.created', { orderId: order.id });
    res.status(202).json({ orderId: order.id }); // answered in ~200 ms
  });

  // Consumers: 48 slots, ~0.2 s per order, so ~240 orders/s.
  queue.consume('order.created', { concurrency: 48 }, async (msg) => {
    await processOrder(msg.orderId);
  });
}
