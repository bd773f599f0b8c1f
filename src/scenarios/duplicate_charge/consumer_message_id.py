def on_message(msg):
    if db.exists("processed_messages", msg.id):
        return msg.ack()  # this message was handled
    payment_no = db.nextval("payment_no")
    charge = provider.charge(
        order=msg.order_id,
        amount=100_00,
        idempotency_key=msg.id,  # the message's id
    )
    with db.transaction():  # result and inbox together
        db.insert("payments", payment_no, msg.order_id,
                  msg.id, charge.id, "SUCCEEDED")
        db.insert("processed_messages", msg.id)
    msg.ack()
