def on_message(msg):
    # A new payment number on every consumption.
    payment_no = db.nextval("payment_no")  # txn-1, txn-2, …
    charge = provider.charge(
        order=msg.order_id,
        amount=100_00,
        idempotency_key=payment_no,
    )
    db.execute(
        "INSERT INTO payments VALUES (%s, %s, %s, %s, 'SUCCEEDED')",
        payment_no, msg.order_id, payment_no, charge.id,
    )
    msg.ack()
