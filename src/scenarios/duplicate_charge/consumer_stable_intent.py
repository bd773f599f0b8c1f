def on_message(msg):
    # UNIQUE (order_id): created once, read afterwards.
    intent = db.create_or_read_intent(
        intent_id=msg.intent_id,  # pay-1701
        order_id=msg.order_id,
    )
    if intent.status == "SUCCEEDED":
        return msg.ack()  # charged already
    # PROCESSING: ask the provider again, same key.
    charge = provider.charge(
        order=msg.order_id,
        amount=100_00,
        idempotency_key=intent.id,  # pay-1701, always
    )
    db.execute(
        "UPDATE payment_intents SET status = 'SUCCEEDED',"
        " charge_id = %s WHERE intent_id = %s"
        " AND status = 'PROCESSING'",
        charge.id, intent.id,
    )
    msg.ack()
