//! Step narration for the outbox relay: what happened, why it matters, and the SQL that ran.
use super::*;
use crate::sim::mark;
use crate::tx;

fn claim_sql(v: OrVariant) -> String {
    let lock = if v == OrVariant::SkipLocked {
        "\n  FOR UPDATE SKIP LOCKED"
    } else {
        ""
    };
    format!("BEGIN;\nSELECT event_id, payload FROM outbox\n  WHERE status = 'pending'\n  ORDER BY aggregate_id, version LIMIT 1{lock};")
}

pub(super) fn describe(m: &OutboxRelayModel, b: &OrState, a: &OrAct, s: &OrState) -> StepInfo {
    let broker = m.lane_broker();
    let cx = Cx {
        m,
        b,
        a,
        s,
        v: m.variant,
        broker,
        inv: broker + 1,
        notify: broker + 2,
    };
    let mut info = StepInfo::default();
    match *a {
        OrAct::SvcCreate | OrAct::SvcCancel => cx.order(&mut info),
        OrAct::Claim(r) => cx.claim(&mut info, r),
        OrAct::Publish(r) => cx.publish(&mut info, r),
        OrAct::MarkSent(r) => cx.mark_sent(&mut info, r),
        OrAct::RelayRestart(r) => cx.relay_restart(&mut info, r),
        OrAct::Deliver => cx.deliver(&mut info),
        OrAct::InboxTx => cx.inbox_tx(&mut info),
        OrAct::ApplyTx => cx.apply_tx(&mut info),
        OrAct::Ack => cx.ack(&mut info),
        OrAct::ConsRestart => cx.cons_restart(&mut info),
        OrAct::Notify => cx.notify(&mut info),
        OrAct::PublishLost(r) => cx.publish_lost(&mut info, r),
        OrAct::AckLost(r) => cx.ack_lost(&mut info, r),
        OrAct::RelayCrash(r) => cx.relay_crash(&mut info, r),
        OrAct::ConsCrash => cx.cons_crash(&mut info),
        OrAct::Redeliver => cx.redeliver(&mut info),
    }
    info
}

/// Version 2 of order 17 applied before version 1: what a version gap means.
fn gap(id: &str) -> Text {
    tx!(
        "{id} (version 2) arrives before version 1: a gap. The guard accepts it because 0 < 2, and here that is safe only because version 2 is a cancel, a final state no earlier version can change. In general a gap means: look up order 17's current state from the order service, or wait for the missing version — never drop every late message (the scenario “Events are a state machine” shows a gap whose skipped version carried money). Nothing was reserved, so nothing is released; the stock row is now at version 2.",
        "{id}（版本 2）比版本 1 先到：出现了版本缺口。因为 0 < 2，版本条件接受了它；这里之所以安全，只是因为版本 2 是取消——一个更早的版本无法改变的终态。一般来说，发现版本缺口时要么向订单服务补查订单 17 的当前状态，要么等待缺失的版本——不能简单丢弃所有晚到的消息（场景“事件是状态机”展示了被跳过的版本带着钱的缺口）。之前没有预留，所以无需释放；库存行现在是版本 2。"
    )
}

/// The sentence-initial form of a subject ("the relay" → "The relay").
fn cap(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// What every step's narration reads: the model, the action between two states, and the lanes.
#[derive(Clone, Copy)]
struct Cx<'a> {
    m: &'a OutboxRelayModel,
    b: &'a OrState,
    a: &'a OrAct,
    s: &'a OrState,
    v: OrVariant,
    broker: usize,
    inv: usize,
    notify: usize,
}

impl Cx<'_> {
    fn relay(&self, r: u8) -> usize {
        2 + r as usize
    }

    fn who(&self, r: u8) -> String {
        if self.m.relays() > 1 {
            format!("relay {}", relay_name(r))
        } else {
            "the relay".into()
        }
    }

    fn who_zh(&self, r: u8) -> String {
        format!("中继{}", suffix(self.m, r))
    }

    fn title(&self, r: u8, en: &str, zh: &str) -> Text {
        let x = suffix(self.m, r);
        tx!("relay{x} {en}", "中继{x} {zh}")
    }

    /// The event relay `r` has in hand before the step.
    fn hand(&self, r: u8) -> u8 {
        OutboxRelayModel::hand(self.b, r).map(|h| h.ev).unwrap_or(0)
    }

    fn order(&self, info: &mut StepInfo) {
        let Cx { b, a, .. } = *self;
        let create = *a == OrAct::SvcCreate;
        let (e, id) = (b.svc, ev_id(b.svc));
        info.title = if create {
            Text::new("create order 17", "创建订单 17")
        } else {
            Text::new("cancel order 17", "取消订单 17")
        };
        info.arrow(0, 1, "COMMIT", ArrowKind::Message);
        info.mark(1, MarkKind::Commit, "commit", "提交");
        let change = if create {
            "INSERT INTO orders (id, status, version) VALUES (17, 'created', 1);".to_string()
        } else {
            "UPDATE orders SET status = 'cancelled', version = 2 WHERE id = 17;".to_string()
        };
        info.code = Some(format!(
            "BEGIN;\n{change}\nINSERT INTO outbox (event_id, aggregate_id, version, type, status)\n  VALUES ('{id}', 17, {}, '{}', 'pending');\nCOMMIT;",
            e + 1,
            ev_type(e)
        ));
        info.narration = if create {
            Text::new(
                "Order 17 and outbox row e-1 (OrderCreated, version 1) commit in one transaction: both exist or neither does.",
                "订单 17 和发件箱记录 e-1（OrderCreated，版本 1）在同一事务中提交：要么都在，要么都不在。",
            )
        } else {
            Text::new(
                "The customer cancels: the order moves to version 2, and outbox row e-2 (OrderCancelled) commits with it.",
                "客户取消订单：订单变为版本 2，发件箱记录 e-2（OrderCancelled）随之一起提交。",
            )
        };
    }

    fn claim(&self, info: &mut StepInfo, r: u8) {
        let Cx { m, b, v, .. } = *self;
        let e = m.claimable(b, r).unwrap_or(0);
        let id = ev_id(e);
        let other = OutboxRelayModel::hand(b, 1 - r.min(1));
        info.lane = self.relay(r);
        info.title = self.title(r, &format!("claims {id}"), &format!("领取 {id}"));
        info.arrow(self.relay(r), 1, "SELECT", ArrowKind::Message);
        info.code = Some(claim_sql(v));
        let (x, xz) = (self.who(r), self.who_zh(r));
        info.narration = match other {
            Some(o) if m.relays() > 1 && o.ev == e => {
                info.mark(self.relay(r), MarkKind::Duplicate, "same row", "同一行");
                tx!(
                    "The plain SELECT of {x} returns {id} too: the other relay has it in hand, but an unlocked read cannot know.",
                    "{xz} 的普通 SELECT 也返回了 {id}：另一个中继正拿着它，但不加锁的读取无从得知。"
                )
            }
            Some(o) if v == OrVariant::SkipLocked => tx!(
                "The SELECT of {x} skips {}, locked by the other relay, and locks {id}. The relays now share the work — and one order's two events.",
                "{xz} 的 SELECT 跳过被另一个中继锁住的 {}，锁住了 {id}。两个中继分摊了工作——也分走了同一订单的两个事件。",
                ev_id(o.ev)
            ),
            _ if b.log.contains(&e) => tx!(
                "{id} is still pending, so {x} takes it again. Nothing in the database says the broker already has it.",
                "{id} 仍是待发送，{xz} 再次领取它。数据库里没有任何记录表明消息代理已经收到过。"
            ),
            _ => Text::new(
                format!("{} polls the outbox and takes {id}, the oldest pending row of order 17.", cap(&x)),
                format!("{xz} 轮询发件箱，取到订单 17 最早的待发送记录 {id}。"),
            ),
        };
    }

    fn publish(&self, info: &mut StepInfo, r: u8) {
        let Cx { b, v, broker, .. } = *self;
        let e = self.hand(r);
        let id = ev_id(e);
        let again = b.log.contains(&e);
        let (x, xz) = (self.who(r), self.who_zh(r));
        info.lane = self.relay(r);
        info.title = self.title(r, &format!("publishes {id}"), &format!("发布 {id}"));
        let kind = if again {
            ArrowKind::Duplicate
        } else {
            ArrowKind::Message
        };
        info.arrow(self.relay(r), broker, id.clone(), kind);
        info.marks.push(if again {
            mark(broker, MarkKind::Duplicate, "published again", "再次发布")
        } else {
            mark(broker, MarkKind::Publish, "publish", "发布")
        });
        let send = format!(
            "producer.send({{ key: '17', id: '{id}', version: {} }})",
            e + 1
        );
        info.code = Some(if v == OrVariant::DeleteAfterPublish {
            format!("{send};  // not awaited\nDELETE FROM outbox WHERE event_id = '{id}';\nCOMMIT;")
        } else {
            format!("await {send};")
        });
        let overtakes = e == 1 && !b.log.contains(&0);
        info.narration = if v == OrVariant::DeleteAfterPublish {
            Text::new(
                format!("{} hands {id} to the producer and deletes the row at once. The broker stored it this time — but only its acknowledgement could have said so.", cap(&x)),
                format!("{xz} 把 {id} 交给生产者后立即删除了这一行。这次消息代理存下了它——但只有它的确认才能证明这一点。"),
            )
        } else if again {
            Text::new(
                format!("{} publishes {id} and the broker stores a second copy. Delivery is at-least-once: the consumers will see it twice.", cap(&x)),
                format!("{xz} 发布 {id}，消息代理存下了第二份。投递是至少一次：消费者会看到它两次。"),
            )
        } else if overtakes {
            Text::new(
                format!("{} publishes {id} (version 2) before e-1 (version 1) is in the broker: one order's events are now out of order. Keying by order keeps the broker's order, not the relays'.", cap(&x)),
                format!("{xz} 在 e-1（版本 1）进入消息代理之前发布了 {id}（版本 2）：同一订单的事件乱序了。按订单分区只保证消息代理内部的顺序，管不了中继的顺序。"),
            )
        } else {
            Text::new(
                format!("{} publishes {id} keyed by order 17 and waits for the broker's acknowledgement.", cap(&x)),
                format!("{xz} 以订单 17 为键发布 {id}，并等待消息代理的确认。"),
            )
        };
    }

    fn mark_sent(&self, info: &mut StepInfo, r: u8) {
        let Cx { b, .. } = *self;
        let e = self.hand(r);
        let id = ev_id(e);
        let already = b.outbox[e as usize] != Ob::Pending;
        info.lane = self.relay(r);
        info.title = self.title(r, &format!("marks {id} sent"), &format!("标记 {id} 已发送"));
        info.arrow(self.relay(r), 1, "UPDATE", ArrowKind::Message);
        info.mark(1, MarkKind::Commit, "marked sent", "已标记");
        let rows = if already { "0" } else { "1" };
        info.code = Some(format!(
            "UPDATE outbox SET status = 'sent'\n  WHERE event_id = '{id}' AND status = 'pending';  -- {rows} row\nCOMMIT;"
        ));
        info.narration = if already {
            tx!(
                "The broker acknowledged {id}; the UPDATE changes 0 rows because the other relay already marked it. The harm — two copies — is done.",
                "消息代理确认了 {id}；UPDATE 影响 0 行，因为另一个中继已经标记过。损害——两份副本——已经造成。"
            )
        } else {
            Text::new(
                format!("The broker acknowledged {id}; {} marks the row sent and commits, releasing any lock. The next poll skips it.", self.who(r)),
                format!("消息代理确认了 {id}；{}把记录标记为已发送并提交，释放锁。下次轮询会跳过它。", self.who_zh(r)),
            )
        };
    }

    fn relay_restart(&self, info: &mut StepInfo, r: u8) {
        let Cx { m, .. } = *self;
        info.lane = self.relay(r);
        info.title = tx!("restart relay{}", "重启中继{}", suffix(m, r));
        info.mark(self.relay(r), MarkKind::Restart, "restart", "重启");
        info.narration = Text::new(
            "The relay restarts with empty memory; the outbox still says which rows are pending.",
            "中继以空内存重启；发件箱仍记录着哪些行待发送。",
        );
    }

    fn deliver(&self, info: &mut StepInfo) {
        let Cx { b, broker, inv, .. } = *self;
        let e = b.log[b.acked as usize];
        let id = ev_id(e);
        let dup = b.seen[e as usize];
        info.lane = broker;
        info.title = tx!("deliver {id}", "投递 {id}");
        let kind = if dup {
            ArrowKind::Duplicate
        } else {
            ArrowKind::Message
        };
        info.arrow(broker, inv, id.clone(), kind);
        info.marks.push(if dup {
            mark(inv, MarkKind::Duplicate, "duplicate", "重复")
        } else {
            mark(inv, MarkKind::Deliver, "delivered", "已投递")
        });
        info.code = Some(format!(
            "poll() → {{ offset: {}, id: '{id}', key: '17', version: {} }}",
            b.acked,
            e + 1
        ));
        info.narration = if dup {
            tx!(
                "The inventory service receives {id} again. Same event id, same order: whether stock is reserved twice is up to the consumer.",
                "库存服务再次收到 {id}。同样的事件 ID、同样的订单：库存会不会被预留两次，取决于消费者。"
            )
        } else {
            Text::new(
                format!(
                    "The inventory service receives {id} (version {}) at offset {}.",
                    e + 1,
                    b.acked
                ),
                format!("库存服务在偏移量 {} 收到 {id}（版本 {}）。", b.acked, e + 1),
            )
        };
    }

    fn inbox_tx(&self, info: &mut StepInfo) {
        let Cx { b, inv, .. } = *self;
        let e = OutboxRelayModel::delivery(b);
        let id = ev_id(e);
        let dup = b.inbox[e as usize];
        info.lane = inv;
        info.title = tx!("inbox {id}", "收件箱 {id}");
        let rows = if dup { "0 rows: duplicate" } else { "1 row" };
        info.code = Some(format!(
            "BEGIN;\nINSERT INTO processed_messages (event_id) VALUES ('{id}')\n  ON CONFLICT DO NOTHING;  -- {rows}\nCOMMIT;"
        ));
        if dup {
            info.mark(inv, MarkKind::Dedup, "skipped", "跳过");
            info.narration = tx!(
                "{id} is already in processed_messages, so the consumer skips it. If the stock change for {id} never committed, it never will now.",
                "{id} 已在 processed_messages 中，消费者跳过它。如果 {id} 的库存变更从未提交，现在也永远不会了。"
            );
        } else {
            info.mark(inv, MarkKind::Commit, "inbox", "收件箱");
            info.narration = tx!(
                "The consumer records {id} as processed and commits — before the stock has changed. A crash now leaves a promise nobody keeps.",
                "消费者把 {id} 记录为已处理并提交——而库存还没有变。此刻崩溃，就留下了一个没人兑现的承诺。"
            );
        }
    }

    fn apply_tx(&self, info: &mut StepInfo) {
        let Cx { s, inv, .. } = *self;
        let e = OutboxRelayModel::delivery(self.b);
        let id = ev_id(e);
        info.lane = inv;
        info.title = tx!("commit {id}", "提交 {id}");
        let outcome = s.history.last().map(|h| h.1).unwrap_or(Outcome::Applied);
        info.code = Some(self.apply_sql(e, outcome));
        info.narration = self.applied(info, e, outcome);
    }

    /// The consumer's transaction for event `e`, each guard with the rows it matched.
    fn apply_sql(&self, e: u8, outcome: Outcome) -> String {
        let Cx { b, v, .. } = *self;
        let id = ev_id(e);
        let change = if e == 0 {
            "UPDATE stock SET reserved = reserved + 1 WHERE order_id = 17;"
        } else {
            "UPDATE stock SET reserved = reserved - 1\n  WHERE order_id = 17 AND reserved > 0;"
        };
        let (inbox, guard) = (v.inbox() && b.cons.mem.pc == CPc::Got, v.guard());
        let mut sql = String::from("BEGIN;\n");
        if inbox {
            let rows = if outcome == Outcome::Absorbed {
                "0 rows"
            } else {
                "1 row"
            };
            sql.push_str(&format!(
                "INSERT INTO processed_messages (event_id) VALUES ('{id}')\n  ON CONFLICT DO NOTHING;  -- {rows}\n"
            ));
        }
        if guard && outcome != Outcome::Absorbed {
            let rows = if outcome == Outcome::Stale {
                "0 rows"
            } else {
                "1 row"
            };
            sql.push_str(&format!(
                "UPDATE stock SET version = {}\n  WHERE order_id = 17 AND version < {};  -- {rows}\n",
                e + 1,
                e + 1
            ));
        }
        if outcome == Outcome::Applied {
            sql.push_str(change);
            sql.push('\n');
        }
        sql.push_str("COMMIT;");
        sql
    }

    /// What applying event `e` did to the stock, marked on the consumer's lane.
    fn applied(&self, info: &mut StepInfo, e: u8, outcome: Outcome) -> Text {
        let Cx { b, s, v, inv, .. } = *self;
        let id = ev_id(e);
        let guard = v.guard();
        let (reserved, made) = stock(&s.history);
        match outcome {
            Outcome::Absorbed => {
                info.mark(inv, MarkKind::Dedup, "absorbed", "已拦截");
                tx!(
                    "The INSERT into processed_messages conflicts: {id} was processed before. The transaction changes nothing — the duplicate is absorbed.",
                    "插入 processed_messages 时冲突：{id} 之前已处理过。事务什么也没改——重复被拦截了。"
                )
            }
            Outcome::Stale => {
                info.mark(inv, MarkKind::Dedup, "old version", "旧版本");
                tx!(
                    "{id} carries version {}, but the stock row is already at version {}: the guarded UPDATE matches no row, so the late event changes nothing.",
                    "{id} 的版本是 {}，但库存行已是版本 {}：带版本条件的 UPDATE 不匹配任何行，迟到的事件什么也不改。",
                    e + 1,
                    version(b)
                )
            }
            _ if e == 0 && made > 1 => {
                info.mark(inv, MarkKind::Duplicate, "reserved again", "再次预留");
                tx!(
                    "The consumer applies {id} again: stock for order 17 has now been reserved {made} times ({reserved} units held). Nothing told it this event was already handled.",
                    "消费者再次处理 {id}：订单 17 的库存已被预留 {made} 次（占用 {reserved} 件）。没有任何东西告诉它这个事件已经处理过。"
                )
            }
            _ if e == 0 && version(b) > 1 => {
                info.mark(inv, MarkKind::Commit, "reserved", "已预留");
                tx!(
                    "{id} (version 1) arrives after the cancellation took effect, and the consumer reserves stock for an order that has been cancelled.",
                    "{id}（版本 1）在取消生效之后才到，消费者为一个已取消的订单预留了库存。"
                )
            }
            _ if e == 0 => {
                info.mark(inv, MarkKind::Commit, "reserved", "已预留");
                let with = if v.inbox() {
                    Text::new(
                        " The inbox row commits in the same transaction.",
                        "收件箱记录在同一事务中提交。",
                    )
                } else {
                    Text::default()
                };
                Text::new(
                    "The consumer reserves one unit of stock for order 17 and commits.",
                    "消费者为订单 17 预留一件库存并提交。",
                )
                .then(&with)
            }
            _ => {
                info.mark(inv, MarkKind::Commit, "released", "已释放");
                if guard && version(b) == 0 {
                    gap(&id)
                } else {
                    tx!(
                        "The consumer applies {id}: the reservation for order 17 is released.",
                        "消费者处理 {id}：订单 17 的预留被释放。"
                    )
                }
            }
        }
    }

    fn ack(&self, info: &mut StepInfo) {
        let Cx { b, broker, inv, .. } = *self;
        let k = b.cons.mem.off;
        info.lane = inv;
        info.title = tx!("ack offset {k}", "确认偏移量 {k}");
        info.arrow(inv, broker, Text::new("ack", "确认"), ArrowKind::Message);
        info.mark(broker, MarkKind::Respond, "ack", "确认");
        info.code = Some(format!("consumer.commitOffset({})", k + 1));
        info.narration = tx!(
            "The inventory service commits offset {}: the broker will not deliver offset {k} to this group again.",
            "库存服务提交偏移量 {}：消息代理不会再把偏移量 {k} 投递给这个消费组。",
            k + 1
        );
    }

    fn cons_restart(&self, info: &mut StepInfo) {
        let Cx { inv, .. } = *self;
        info.lane = inv;
        info.title = Text::new("restart inventory", "重启库存服务");
        info.mark(inv, MarkKind::Restart, "restart", "重启");
        info.narration = Text::new(
            "The inventory service restarts and resumes from its last committed offset.",
            "库存服务重启，从最后提交的偏移量继续消费。",
        );
    }

    fn notify(&self, info: &mut StepInfo) {
        let Cx {
            b, broker, notify, ..
        } = *self;
        let e = b.log[b.notified as usize];
        let id = ev_id(e);
        let dup = b.log[..b.notified as usize].contains(&e);
        info.lane = broker;
        info.title = tx!("email for {id}", "{id} 的邮件");
        info.arrow(
            broker,
            notify,
            id.clone(),
            if dup {
                ArrowKind::Duplicate
            } else {
                ArrowKind::Message
            },
        );
        info.marks.push(if dup {
            mark(notify, MarkKind::Duplicate, "second email", "第二封邮件")
        } else {
            mark(notify, MarkKind::Deliver, "email", "邮件")
        });
        info.code = Some(format!(
            "mail.send(customerOf(17), template('{}'))",
            ev_type(e)
        ));
        info.narration = if dup {
            tx!(
                "The notification service gets {id} again and sends a second email. It has no inbox: a repeated email may be acceptable, a repeated reservation is not.",
                "通知服务再次收到 {id}，又发了一封邮件。它没有收件箱：重复邮件也许可以接受，重复预留则不行。"
            )
        } else {
            tx!(
                "The notification service, a second consumer group with its own offset, emails the customer about {id}.",
                "通知服务是另一个有独立偏移量的消费组，它就 {id} 给客户发邮件。"
            )
        };
    }

    fn publish_lost(&self, info: &mut StepInfo, r: u8) {
        let Cx { v, broker, .. } = *self;
        let id = ev_id(self.hand(r));
        info.lane = self.relay(r);
        info.title = tx!("⚡ {id} lost", "⚡ {id} 丢失");
        info.arrow(self.relay(r), broker, id.clone(), ArrowKind::Lost);
        info.mark(broker, MarkKind::Fail, "not stored", "未存下");
        if v == OrVariant::DeleteAfterPublish {
            // Nothing is left to publish it again: the inventory will never hear of it.
            let never = tx!("{id} never delivered", "{id} 永远不会投递");
            info.arrow(broker, broker + 1, never, ArrowKind::Ghost);
        }
        info.narration = if v == OrVariant::DeleteAfterPublish {
            info.code = Some(format!(
                "producer.send({{ id: '{id}' }});  // never stored, no ack\nDELETE FROM outbox WHERE event_id = '{id}';\nCOMMIT;"
            ));
            tx!(
                "The broker never stores {id}, and no acknowledgement comes — but the relay did not wait for one and has deleted the row. The event is gone, with no record that it ever existed.",
                "消息代理没有存下 {id}，也没有确认——但中继本就没等确认，已经删除了这一行。事件消失了，连它存在过的记录都没有。"
            )
        } else {
            info.code = Some("ROLLBACK;  -- publish timed out".into());
            tx!(
                "The broker never stores {id}; no acknowledgement arrives. The relay times out and rolls back: the row is still pending and will be published on the next poll.",
                "消息代理没有存下 {id}，也没有确认。中继超时并回滚：记录仍是待发送，下次轮询会重新发布。"
            )
        };
    }

    fn ack_lost(&self, info: &mut StepInfo, r: u8) {
        let Cx { broker, .. } = *self;
        let id = ev_id(self.hand(r));
        info.lane = self.relay(r);
        info.title = Text::new("⚡ ack lost", "⚡ 确认丢失");
        info.arrow(
            broker,
            self.relay(r),
            Text::new("ack", "确认"),
            ArrowKind::Lost,
        );
        info.mark(self.relay(r), MarkKind::Fail, "timeout", "超时");
        info.code = Some("ROLLBACK;  -- no ack: treat as not sent".into());
        info.narration = tx!(
            "The broker stored {id}, but its acknowledgement is lost. A timeout is not a failure: the relay cannot tell, keeps the row pending and will publish {id} again.",
            "消息代理已存下 {id}，但确认丢了。超时不等于失败：中继无法分辨，只能保留待发送状态，之后会再次发布 {id}。"
        );
    }

    fn relay_crash(&self, info: &mut StepInfo, r: u8) {
        let Cx { m, v, .. } = *self;
        let id = ev_id(self.hand(r));
        info.lane = self.relay(r);
        info.title = tx!("⚡ crash relay{}", "⚡ 中继{} 崩溃", suffix(m, r));
        info.mark(self.relay(r), MarkKind::Crash, "crash", "崩溃");
        let lock = if v == OrVariant::SkipLocked {
            Text::new(
                " Its session ends, so the database releases the row lock.",
                "它的会话结束，数据库释放了行锁。",
            )
        } else {
            Text::default()
        };
        info.narration = tx!(
            "The relay crashes after publishing {id} and before marking it sent. The broker has it; the outbox row still says pending.",
            "中继在发布 {id} 之后、标记已发送之前崩溃。消息代理已经有了它；发件箱记录仍是待发送。"
        )
        .then(&lock);
    }

    fn cons_crash(&self, info: &mut StepInfo) {
        let Cx { b, inv, .. } = *self;
        let id = ev_id(OutboxRelayModel::delivery(b));
        info.lane = inv;
        info.title = Text::new("⚡ crash inventory", "⚡ 库存服务崩溃");
        info.mark(inv, MarkKind::Crash, "crash", "崩溃");
        info.narration = match b.cons.mem.pc {
            CPc::Marked => tx!(
                "The inventory service crashes between its two transactions: {id} is in processed_messages, the stock never changed. When {id} comes back, the inbox will say it was handled.",
                "库存服务在两个事务之间崩溃：{id} 已在 processed_messages 中，库存却从未改变。{id} 重新投递时，收件箱会说它已经处理过。"
            ),
            CPc::Done => tx!(
                "The inventory service crashes after its transaction committed and before acknowledging. The broker will deliver {id} again.",
                "库存服务在事务提交之后、确认之前崩溃。消息代理会再次投递 {id}。"
            ),
            _ => tx!(
                "The inventory service crashes before committing: the open transaction is aborted, nothing changed, and {id} will be delivered again.",
                "库存服务在提交之前崩溃：未提交的事务被中止，什么也没变，{id} 会被再次投递。"
            ),
        };
    }

    fn redeliver(&self, info: &mut StepInfo) {
        let Cx { b, broker, .. } = *self;
        let id = ev_id(b.log[b.acked as usize - 1]);
        info.lane = broker;
        info.title = tx!("⚡ redeliver {id}", "⚡ 重投 {id}");
        info.mark(broker, MarkKind::Duplicate, "redeliver", "重投");
        info.narration = tx!(
            "A rebalance loses the consumer group's last offset commit: the broker will deliver {id} again, though it was processed.",
            "一次再均衡丢失了消费组最后一次偏移量提交：消息代理会再次投递已经处理过的 {id}。"
        );
    }
}
