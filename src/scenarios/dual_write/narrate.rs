//! Step narration: what happened and why it matters, in both languages.
use super::*;
use crate::sim::mark;
use crate::tx;

pub(super) fn describe(m: &DualWriteModel, b: &DwState, a: &DwAct, _after: &DwState) -> StepInfo {
    let cx = Cx {
        m,
        b,
        svc: m.lane(Lane::Svc),
        db: m.lane(Lane::Db),
        broker: m.lane(Lane::Broker),
        relay: m.lane(Lane::Relay),
        consumer: m.lane(Lane::Consumer),
        o: order_id(b.svc.mem.req),
    };
    let mut info = StepInfo {
        lane: cx.svc,
        ..StepInfo::default()
    };
    match *a {
        DwAct::BrokerDeliver => cx.broker_deliver(&mut info),
        DwAct::SvcBegin => cx.svc_begin(&mut info),
        DwAct::SvcCommit => cx.svc_commit(&mut info),
        DwAct::SvcPublish => cx.svc_publish(&mut info),
        DwAct::SvcReply => cx.svc_reply(&mut info),
        DwAct::SvcRestart => cx.svc_restart(&mut info),
        DwAct::RelayPublish(e) => cx.relay_publish(&mut info, e),
        DwAct::RelayMarkSent(e) => cx.relay_mark_sent(&mut info, e),
        DwAct::RelayRestart => cx.relay_restart(&mut info),
        DwAct::SvcCrash => cx.svc_crash(&mut info),
        DwAct::SvcRollback => cx.svc_rollback(&mut info),
        DwAct::SvcBrokerDown => cx.svc_broker_down(&mut info),
        DwAct::RelayCrash => cx.relay_crash(&mut info),
        DwAct::RelayBrokerDown => cx.relay_broker_down(&mut info),
    }
    info
}

fn pending_event(b: &DwState) -> String {
    DualWriteModel::next_pending(b)
        .map(event)
        .unwrap_or_default()
}

fn crash_narration(m: &DualWriteModel, b: &DwState, o: u32) -> Text {
    let i = b.svc.mem.req as usize;
    let published = b.log.contains(&b.svc.mem.req);
    match (b.orders[i], published, m.variant) {
        (Row::Committed, false, DwVariant::CommitThenPublish) => tx!(
            "The order service crashes after COMMIT and before publishing. Order {o} exists; the event e-{o} was only in memory, and nobody will hear of it.",
            "订单服务在提交之后、发布之前崩溃。订单 {o} 已存在；事件 e-{o} 只在内存里，再也没人会知道这个订单。"
        ),
        (Row::Committed, _, DwVariant::Outbox) => tx!(
            "The order service crashes after COMMIT. Nothing is lost: the outbox row for e-{o} was committed with the order, and the relay will publish it.",
            "订单服务在提交之后崩溃。什么也没丢：e-{o} 的发件箱记录与订单一起提交了，中继会发布它。"
        ),
        (Row::Uncommitted, true, _) => tx!(
            "The order service crashes after publishing e-{o} and before COMMIT. The database aborts the open transaction: order {o} never exists, yet its event is out.",
            "订单服务在发布 e-{o} 之后、提交之前崩溃。数据库中止了未提交的事务：订单 {o} 从未存在，事件却已发出。"
        ),
        (Row::Uncommitted, false, _) => tx!(
            "The order service crashes inside the transaction. The database aborts it: order {o} disappears and the client gets an error. Consistent.",
            "订单服务在事务中途崩溃。数据库中止事务：订单 {o} 消失，客户端收到错误。仍然一致。"
        ),
        _ => tx!(
            "The order service crashes before replying. Order {o} and its event are both done; only the client's answer is lost.",
            "订单服务在回复前崩溃。订单 {o} 和它的事件都已完成；只是客户端没收到回复。"
        ),
    }
}

/// What every step's narration reads: the model, the state before the step, its lanes, and
/// the order the service was on.
#[derive(Clone, Copy)]
struct Cx<'a> {
    m: &'a DualWriteModel,
    b: &'a DwState,
    svc: usize,
    db: usize,
    broker: usize,
    relay: usize,
    consumer: usize,
    o: u32,
}

impl Cx<'_> {
    fn broker_deliver(&self, info: &mut StepInfo) {
        let Cx {
            b,
            broker,
            consumer,
            ..
        } = *self;
        let i = b.log[b.delivered as usize];
        let (o, e) = (order_id(i), event(i));
        let dup = b.log[..b.delivered as usize].contains(&i);
        info.lane = broker;
        info.title = tx!("deliver {e}", "投递 {e}");
        info.arrow(
            broker,
            consumer,
            e.clone(),
            if dup {
                ArrowKind::Duplicate
            } else {
                ArrowKind::Message
            },
        );
        info.code = Some(format!("inventory.consume({{ id: '{e}', order: {o} }})"));
        if dup {
            info.mark(consumer, MarkKind::Duplicate, "duplicate", "重复");
            info.narration = tx!(
                "The broker delivers {e} a second time. At-least-once delivery is correct here; without deduplication the inventory service would reserve stock for order {o} twice.",
                "消息代理第二次投递 {e}。这是正确的至少一次投递；若消费者不去重，库存服务会为订单 {o} 预留两次库存。"
            );
        } else {
            info.mark(consumer, MarkKind::Deliver, "delivered", "已投递");
            info.narration = match b.orders[i as usize] {
                Row::Committed => tx!(
                    "Inventory receives {e} and reserves stock for order {o}.",
                    "库存服务收到 {e}，为订单 {o} 预留库存。"
                ),
                _ => tx!(
                    "Inventory receives {e}, but order {o} is not committed: it looks the order up and finds nothing.",
                    "库存服务收到 {e}，但订单 {o} 尚未提交：它去查订单，什么也查不到。"
                ),
            };
        }
    }

    fn svc_begin(&self, info: &mut StepInfo) {
        let Cx { m, b, svc, db, .. } = *self;
        let o = order_id(b.next_req);
        info.title = tx!("INSERT order {o}", "插入订单 {o}");
        info.arrow(svc, db, "INSERT", ArrowKind::Message);
        info.mark(db, MarkKind::Write, "uncommitted write", "未提交写入");
        let mut sql = format!("BEGIN;\nINSERT INTO orders (id, status) VALUES ({o}, 'created');");
        if m.variant == DwVariant::Outbox {
            sql.push_str(&format!(
                "\nINSERT INTO outbox (event_id, aggregate_id, type, status)\n  VALUES ('e-{o}', {o}, 'OrderCreated', 'pending');"
            ));
            info.narration = tx!(
                "Order {o} arrives. In one transaction the service inserts the order and an outbox row for event e-{o}; neither is visible until COMMIT.",
                "订单 {o} 到达。服务在同一个事务中插入订单和事件 e-{o} 的发件箱记录；提交前两者都不可见。"
            );
        } else {
            info.narration = tx!(
                "Order {o} arrives. The service opens a transaction and inserts the order; it is invisible to others until COMMIT.",
                "订单 {o} 到达。服务开启事务并插入订单；提交前其他人看不到它。"
            );
        }
        info.code = Some(sql);
    }

    fn svc_commit(&self, info: &mut StepInfo) {
        let Cx { m, svc, db, o, .. } = *self;
        info.title = tx!("COMMIT order {o}", "提交订单 {o}");
        info.arrow(svc, db, "COMMIT", ArrowKind::Message);
        info.mark(db, MarkKind::Commit, "commit", "提交");
        info.code = Some("COMMIT;".into());
        info.narration = match m.variant {
            DwVariant::CommitThenPublish => tx!(
                "Order {o} is committed. The event e-{o} exists only in the service's memory until it is published: this is the dual-write gap.",
                "订单 {o} 已提交。事件 e-{o} 在发布之前只存在于服务内存中：这就是双写窗口。"
            ),
            DwVariant::PublishThenCommit => tx!(
                "Order {o} is committed, after its event was already published.",
                "订单 {o} 已提交，而它的事件早已发布。"
            ),
            DwVariant::Outbox => tx!(
                "Order {o} and its outbox row commit together. From now on the event cannot be lost: the relay will find the pending row.",
                "订单 {o} 和它的发件箱记录一起提交。从现在起事件不会丢失：中继会找到这条待发送记录。"
            ),
        };
    }

    fn svc_publish(&self, info: &mut StepInfo) {
        let Cx {
            m, svc, broker, o, ..
        } = *self;
        info.title = tx!("publish e-{o}", "发布 e-{o}");
        info.arrow(svc, broker, format!("e-{o}"), ArrowKind::Message);
        info.mark(broker, MarkKind::Publish, "publish", "发布");
        info.code = Some(format!(
            "broker.publish({{ key: '{o}', id: 'e-{o}', type: 'OrderCreated' }})"
        ));
        info.narration = if m.variant == DwVariant::PublishThenCommit {
            tx!(
                "e-{o} is published while order {o}'s transaction is still open. If it never commits, the event is a phantom.",
                "在订单 {o} 的事务仍未提交时发布了 e-{o}。如果事务最终没有提交，这个事件就是幽灵事件。"
            )
        } else {
            tx!(
                "The service publishes e-{o}. Order and event now agree.",
                "服务发布 e-{o}。订单与事件现在一致了。"
            )
        };
    }

    fn svc_reply(&self, info: &mut StepInfo) {
        let Cx { b, svc, o, .. } = *self;
        let ok = b.svc.mem.pc == SvcPc::Replying(true);
        info.title = if ok {
            Text::new("reply 201", "回复 201")
        } else {
            Text::new("reply error", "回复错误")
        };
        info.mark(svc, MarkKind::Respond, "reply", "回复");
        info.code = Some(
            if ok {
                "HTTP/1.1 201 Created"
            } else {
                "HTTP/1.1 500 Internal Server Error"
            }
            .into(),
        );
        info.narration = if ok {
            tx!(
                "The client is told order {o} was created.",
                "客户端得知订单 {o} 已创建。"
            )
        } else {
            tx!(
                "The client is told order {o} failed; it may try again.",
                "客户端得知订单 {o} 失败，可以重试。"
            )
        };
    }

    fn svc_restart(&self, info: &mut StepInfo) {
        let Cx { svc, .. } = *self;
        info.title = Text::new("restart order service", "重启订单服务");
        info.mark(svc, MarkKind::Restart, "restart", "重启");
        info.narration = Text::new(
            "The order service restarts with empty memory. Whatever it meant to do next is forgotten; only the database and the broker remember.",
            "订单服务重启，内存是空的。它原本要做的事都忘了；只有数据库和消息代理还记得。",
        );
    }

    fn relay_publish(&self, info: &mut StepInfo, e: u8) {
        let Cx {
            b, broker, relay, ..
        } = *self;
        let (o, ev) = (order_id(e), event(e));
        let again = b.log.contains(&e);
        info.lane = relay;
        info.title = tx!("relay publish {ev}", "中继发布 {ev}");
        info.arrow(
            relay,
            broker,
            ev.clone(),
            if again {
                ArrowKind::Duplicate
            } else {
                ArrowKind::Message
            },
        );
        info.marks.push(if again {
            mark(broker, MarkKind::Duplicate, "published again", "再次发布")
        } else {
            mark(broker, MarkKind::Publish, "publish", "发布")
        });
        info.code = Some(format!(
            "SELECT event_id, aggregate_id, payload FROM outbox\n  WHERE status = 'pending' ORDER BY created_at LIMIT 1;\nbroker.publish({{ key: '{o}', id: '{ev}' }})"
        ));
        info.narration = if again {
            tx!(
                "The relay finds {ev} still pending and publishes it again: the broker now holds two copies. Delivery is at-least-once; consumers must deduplicate by event id.",
                "中继发现 {ev} 仍是待发送，于是再次发布：消息代理里现在有两份。投递是至少一次；消费者必须按事件 ID 去重。"
            )
        } else {
            tx!(
                "The relay polls the outbox, finds {ev} pending and publishes it with its event id.",
                "中继轮询发件箱，发现 {ev} 待发送，带着事件 ID 发布出去。"
            )
        };
    }

    fn relay_mark_sent(&self, info: &mut StepInfo, e: u8) {
        let Cx { db, relay, .. } = *self;
        let ev = event(e);
        info.lane = relay;
        info.title = tx!("mark {ev} sent", "标记 {ev} 已发送");
        info.arrow(relay, db, "UPDATE", ArrowKind::Message);
        info.mark(db, MarkKind::Commit, "marked sent", "已标记");
        info.code = Some(format!(
            "UPDATE outbox SET status = 'sent'\n  WHERE event_id = '{ev}' AND status = 'pending';"
        ));
        info.narration = tx!(
            "The broker acknowledged {ev}; the relay marks the outbox row sent so the next poll skips it.",
            "消息代理确认收到 {ev}；中继把发件箱记录标记为已发送，下次轮询就会跳过它。"
        );
    }

    fn relay_restart(&self, info: &mut StepInfo) {
        let Cx { relay, .. } = *self;
        info.lane = relay;
        info.title = Text::new("restart relay", "重启中继");
        info.mark(relay, MarkKind::Restart, "restart", "重启");
        info.narration = Text::new(
            "The relay restarts. It remembers nothing, but the outbox table still says which events are pending.",
            "中继重启。它什么都不记得，但发件箱表仍记录着哪些事件待发送。",
        );
    }

    fn svc_crash(&self, info: &mut StepInfo) {
        let Cx {
            m,
            b,
            svc,
            db,
            broker,
            o,
            ..
        } = *self;
        info.title = Text::new("⚡ crash order service", "⚡ 订单服务崩溃");
        info.mark(svc, MarkKind::Crash, "crash", "崩溃");
        info.narration = crash_narration(m, b, o);
        let i = b.svc.mem.req as usize;
        if b.orders[i] == Row::Committed
            && !b.log.contains(&b.svc.mem.req)
            && m.variant == DwVariant::CommitThenPublish
        {
            // Nothing is left that would publish it: draw the event that never goes out.
            let never = tx!("e-{o} never published", "e-{o} 永远不会发布");
            info.arrow(svc, broker, never, ArrowKind::Ghost);
        }
        if b.orders[b.svc.mem.req as usize] == Row::Uncommitted {
            info.mark(db, MarkKind::Rollback, "aborted", "中止");
        }
    }

    fn svc_rollback(&self, info: &mut StepInfo) {
        let Cx { b, svc, db, o, .. } = *self;
        info.title = Text::new("⚡ roll back", "⚡ 回滚");
        info.arrow(svc, db, "ROLLBACK", ArrowKind::Message);
        info.mark(db, MarkKind::Rollback, "rollback", "回滚");
        info.code = Some("ROLLBACK;".into());
        info.narration = if b.log.contains(&b.svc.mem.req) {
            tx!(
                "The transaction rolls back: order {o} never existed, but e-{o} is already in the broker. Consumers will act on an order that does not exist.",
                "事务回滚：订单 {o} 从未存在，但 e-{o} 已经在消息代理中。消费者会处理一个并不存在的订单。"
            )
        } else {
            tx!(
                "The transaction rolls back: order {o} and everything written with it disappear together. Nothing was published, so nothing is inconsistent.",
                "事务回滚：订单 {o} 以及同一事务中写入的一切一起消失。什么都没发布，所以没有不一致。"
            )
        };
    }

    fn svc_broker_down(&self, info: &mut StepInfo) {
        let Cx {
            m, svc, broker, o, ..
        } = *self;
        info.title = Text::new("⚡ broker unavailable", "⚡ 消息代理不可用");
        info.arrow(svc, broker, format!("e-{o}"), ArrowKind::Lost);
        info.mark(broker, MarkKind::Fail, "unavailable", "不可用");
        info.narration = if m.variant == DwVariant::CommitThenPublish {
            tx!(
                "The publish of e-{o} fails. The handler logs the error and still answers 201, because order {o} is committed. Nothing will ever publish e-{o}.",
                "发布 e-{o} 失败。处理函数记录错误后仍回复 201，因为订单 {o} 已提交。再也不会有人发布 e-{o}。"
            )
        } else {
            tx!(
                "The publish of e-{o} fails, the exception aborts the request and its transaction: no order, no event.",
                "发布 e-{o} 失败，异常中止了请求及其事务：没有订单，也没有事件。"
            )
        };
    }

    fn relay_crash(&self, info: &mut StepInfo) {
        let Cx { b, relay, .. } = *self;
        let ev = event(b.relay.mem.unwrap_or(0));
        info.lane = relay;
        info.title = Text::new("⚡ crash relay", "⚡ 中继崩溃");
        info.mark(relay, MarkKind::Crash, "crash", "崩溃");
        info.narration = tx!(
            "The relay crashes after publishing {ev} and before marking it sent. The outbox row still says pending.",
            "中继在发布 {ev} 之后、标记已发送之前崩溃。发件箱记录仍是待发送。"
        );
    }

    fn relay_broker_down(&self, info: &mut StepInfo) {
        let Cx {
            b, broker, relay, ..
        } = *self;
        let ev = pending_event(b);
        info.lane = relay;
        info.title = Text::new("⚡ broker unavailable", "⚡ 消息代理不可用");
        info.arrow(relay, broker, ev.clone(), ArrowKind::Lost);
        info.mark(broker, MarkKind::Fail, "unavailable", "不可用");
        info.narration = tx!(
            "The broker refuses {ev}. The outbox row stays pending, so the relay simply tries again on its next poll.",
            "消息代理拒绝了 {ev}。发件箱记录仍是待发送，中继下次轮询时会重试。"
        );
    }
}
