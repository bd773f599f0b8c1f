def on_message(msg, db, provider):
    # UNIQUE (order_id): created once, read afterwards.
    db.execute(
        "INSERT INTO payment_intents (intent_id, order_id, status)"
        " VALUES (%s, %s, 'PROCESSING')"
        " ON CONFLICT (order_id) DO NOTHING",
        msg.intent_id, msg.order_id,  # pay-1701, ord-1701
    )
    intent_id, status = db.one(
        "SELECT intent_id, status FROM payment_intents"
        " WHERE order_id = %s", msg.order_id)
    if status == "SUCCEEDED":
        return msg.ack()  # charged already
    # PROCESSING: ask the provider again, same key.
    charge = provider.charge(
        order=msg.order_id,
        amount=100_00,
        idempotency_key=intent_id,  # pay-1701, always
    )
    db.execute(
        "UPDATE payment_intents SET status = 'SUCCEEDED',"
        " charge_id = %s WHERE intent_id = %s"
        " AND status = 'PROCESSING'",
        charge.id, intent_id,
    )
    msg.ack()
