def on_message(msg, db, provider):
    # A new payment number on every consumption.
    payment_no = "txn-%d" % db.one("SELECT nextval('payment_no')")[0]
    charge = provider.charge(
        order=msg.order_id,
        amount=100_00,
        idempotency_key=payment_no,  # txn-1, txn-2, …
    )
    db.execute(
        "INSERT INTO payments (payment_no, order_id,"
        " idempotency_key, status, charge_id)"
        " VALUES (%s, %s, %s, 'SUCCEEDED', %s)",
        payment_no, msg.order_id, payment_no, charge.id,
    )
    msg.ack()
