def on_message(msg, db, provider):
    if db.one("SELECT 1 FROM processed_messages"
              " WHERE message_id = %s", msg.id):
        return msg.ack()  # this message was handled
    payment_no = "txn-%d" % db.one("SELECT nextval('payment_no')")[0]
    charge = provider.charge(
        order=msg.order_id,
        amount=100_00,
        idempotency_key=msg.id,  # the message's id
    )
    with db.transaction():  # result and inbox together
        db.execute(
            "INSERT INTO payments (payment_no, order_id,"
            " idempotency_key, status, charge_id)"
            " VALUES (%s, %s, %s, 'SUCCEEDED', %s)",
            payment_no, msg.order_id, msg.id, charge.id,
        )
        db.execute("INSERT INTO processed_messages (message_id)"
                   " VALUES (%s)", msg.id)
    msg.ack()
