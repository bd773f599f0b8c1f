// Payment consumers scaled out to 400 calls/s; the channel accepts 120/s.
export function consume({ queue, channel, payments }) {
  queue.consume('payment.requested', { concurrency: 80 }, async (msg) => {
    const res = await channel.charge(msg.paymentId, msg.amount);
    if (res.status === 429) {
      // Throttled: put it back and try again soon.
      return msg.nack({ requeue: true });
    }
    await payments.markCharged(msg.paymentId, res.chargeId);
    msg.ack();
  });
}
