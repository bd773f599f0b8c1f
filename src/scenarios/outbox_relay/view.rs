//! The projection of a state to tables and live numbers: one short function per table, the
//! lanes and the metrics.
use super::*;
use crate::tx;

fn cols(names: &[&str]) -> Vec<Text> {
    names.iter().map(|n| Text::same(*n)).collect()
}

pub(super) fn view(m: &OutboxRelayModel, s: &OrState) -> StateView {
    let mut tables = vec![orders(m, s), outbox(m, s)];
    tables.extend((0..m.relays()).map(|r| relay_memory(m, s, r)));
    tables.extend([broker_log(m, s), consumer_memory(m, s), stock_table(m, s)]);
    if m.variant.inbox() {
        tables.push(inbox(m, s));
    }
    tables.extend([handled(m, s), emails(m, s)]);
    StateView {
        lanes: lanes(m, s),
        tables,
        metrics: metrics(s),
        figure: Some(figure(s, m.relays() > 1)),
        ..StateView::default()
    }
}

/// One lane per actor: the order service and its database, each relay, the broker and the two
/// consumers.
fn lanes(m: &OutboxRelayModel, s: &OrState) -> Vec<LaneView> {
    let nr = m.relays();
    let mut lanes = vec![
        LaneView::process("Order service", "订单服务"),
        LaneView::store("Order DB", "订单数据库"),
    ];
    for r in 0..nr {
        let x = relay_name(r);
        let (en, zh) = if nr > 1 {
            (format!("Relay {x}"), format!("中继 {x}"))
        } else {
            ("Relay".into(), "中继".into())
        };
        lanes.push(LaneView::process(&en, &zh).down_when(!s.relays[r as usize].up));
    }
    lanes.push(LaneView::store("Broker", "消息代理"));
    lanes.push(LaneView::process("Inventory", "库存服务").down_when(!s.cons.up));
    lanes.push(LaneView::process("Notification", "通知服务"));
    lanes
}

/// The order service's `orders` row.
fn orders(_: &OutboxRelayModel, s: &OrState) -> TableView {
    let mut t = TableView::durable("orders", Text::same("orders"), 1);
    t.columns = cols(&["id", "status", "version"]);
    if s.svc > 0 {
        let status = if s.svc == 1 { "created" } else { "cancelled" };
        t.rows.push(RowView::new(
            "17".into(),
            vec![
                Text::same(ORDER.to_string()),
                Text::same(status),
                Text::same(s.svc.to_string()),
            ],
        ));
    }
    t
}

/// The outbox rows and their status.
fn outbox(m: &OutboxRelayModel, s: &OrState) -> TableView {
    let (v, nr) = (m.variant, m.relays());
    let mut t = TableView::durable("outbox", Text::same("outbox"), 1);
    t.columns = cols(&["event_id", "version", "type", "status"]);
    for (i, ob) in s.outbox.iter().enumerate() {
        let status = match ob {
            Ob::Absent | Ob::Deleted => continue,
            Ob::Pending => "pending",
            Ob::Sent => "sent",
        };
        let e = i as u8;
        let mut status = Text::same(status);
        let holders: Vec<String> = (0..nr)
            .filter(|&r| OutboxRelayModel::hand(s, r).is_some_and(|h| h.ev == e))
            .map(|r| relay_name(r).to_string())
            .collect();
        if !holders.is_empty() && v.relays() > 1 {
            let by = holders.join("+");
            let lock = if v == OrVariant::SkipLocked {
                tx!(" (locked by {by})", "（{by} 持锁）")
            } else {
                tx!(" (read by {by})", "（{by} 已读取）")
            };
            status.en.push_str(&lock.en);
            status.zh.push_str(&lock.zh);
        }
        t.rows.push(RowView::new(
            ev_id(e),
            vec![
                Text::same(ev_id(e)),
                Text::same((e + 1).to_string()),
                Text::same(ev_type(e)),
                status,
            ],
        ));
    }
    t
}

/// Relay `r`'s memory: the event in hand and its next move (lost when it crashes).
fn relay_memory(m: &OutboxRelayModel, s: &OrState, r: u8) -> TableView {
    let nr = m.relays();
    let x = relay_name(r);
    let title = if nr > 1 {
        tx!("Relay {x} memory", "中继 {x} 内存")
    } else {
        Text::new("Relay memory", "中继内存")
    };
    let mut t = TableView::memory(
        if r == 0 { "relay-a" } else { "relay-b" },
        title,
        2 + r as usize,
    );
    t.columns = vec![Text::new("in hand", "处理中"), Text::new("next", "下一步")];
    t.lost = !s.relays[r as usize].up;
    t.empty = Text::new("(polling)", "（轮询中）");
    if let Some(h) = OutboxRelayModel::hand(s, r) {
        let next = if h.published {
            Text::new("mark sent", "标记为已发送")
        } else {
            Text::new("publish", "发布")
        };
        t.rows.push(RowView::new(
            "hand".into(),
            vec![Text::same(ev_id(h.ev)), next],
        ));
    }
    t
}

/// The broker's log: every publish, with the consumers' offsets.
fn broker_log(m: &OutboxRelayModel, s: &OrState) -> TableView {
    let broker = m.lane_broker();
    let mut t = TableView::durable("broker", Text::new("Broker log", "消息代理日志"), broker);
    t.columns = vec![
        Text::same("offset"),
        Text::same("event_id"),
        Text::same("version"),
        Text::new("inventory", "库存"),
    ];
    for (k, &e) in s.log.iter().enumerate() {
        let state = if k < s.acked as usize {
            Text::new("acked", "已确认")
        } else if s.cons.up && s.cons.mem.pc != CPc::Idle && s.cons.mem.off as usize == k {
            Text::new("in hand", "处理中")
        } else {
            Text::new("waiting", "等待")
        };
        t.rows.push(RowView::new(
            k.to_string(),
            vec![
                Text::same(k.to_string()),
                Text::same(ev_id(e)),
                Text::same((e + 1).to_string()),
                state,
            ],
        ));
    }
    t
}

/// The inventory consumer's memory (lost when it crashes).
fn consumer_memory(m: &OutboxRelayModel, s: &OrState) -> TableView {
    let v = m.variant;
    let inv = m.lane_broker() + 1;
    let mut t = TableView::memory(
        "inv-memory",
        Text::new("Inventory memory", "库存服务内存"),
        inv,
    );
    t.columns = vec![Text::new("in hand", "处理中"), Text::new("next", "下一步")];
    t.lost = !s.cons.up;
    t.empty = Text::new("(waiting)", "（等待中）");
    if s.cons.up && s.cons.mem.pc != CPc::Idle {
        let e = OutboxRelayModel::delivery(s);
        let next = match s.cons.mem.pc {
            CPc::Got if v == OrVariant::InboxSeparateTx => {
                Text::new("record in inbox", "写入收件箱")
            }
            CPc::Got | CPc::Marked => Text::new("change stock", "修改库存"),
            _ => Text::new("acknowledge", "确认"),
        };
        let at = s.cons.mem.off;
        t.rows.push(RowView::new(
            "hand".into(),
            vec![Text::same(format!("{} @{at}", ev_id(e))), next],
        ));
    }
    t
}

/// The inventory's `stock` row for order 17.
fn stock_table(m: &OutboxRelayModel, s: &OrState) -> TableView {
    let v = m.variant;
    let inv = m.lane_broker() + 1;
    let (reserved, _) = stock(&s.history);
    let mut t = TableView::durable("stock", Text::same("stock"), inv);
    t.columns = cols(&["order_id", "reserved"]);
    if v.guard() {
        t.columns.push(Text::same("version"));
    }
    // The row exists before any event (the inventory's row for order 17): the events'
    // UPDATEs change it, as they would in PostgreSQL, rather than create it.
    let mut cells = vec![
        Text::same(ORDER.to_string()),
        Text::same(reserved.to_string()),
    ];
    if v.guard() {
        cells.push(Text::same(version(s).to_string()));
    }
    t.rows.push(RowView::new("17".into(), cells));
    t
}

/// The inbox, `processed_messages` (in the variants that have one).
fn inbox(m: &OutboxRelayModel, s: &OrState) -> TableView {
    let inv = m.lane_broker() + 1;
    let mut t = TableView::durable("inbox", Text::same("processed_messages"), inv);
    t.columns = cols(&["event_id"]);
    for e in (0..EVENTS as u8).filter(|&e| s.inbox[e as usize]) {
        t.rows
            .push(RowView::new(ev_id(e), vec![Text::same(ev_id(e))]));
    }
    t
}

/// Every transaction the inventory consumer committed, and what it did.
fn handled(m: &OutboxRelayModel, s: &OrState) -> TableView {
    let inv = m.lane_broker() + 1;
    let mut t = TableView::durable(
        "handled",
        Text::new("Inventory transactions", "库存服务事务"),
        inv,
    );
    t.columns = vec![
        Text::same("#"),
        Text::same("event_id"),
        Text::new("effect", "效果"),
    ];
    for (k, &(e, o)) in s.history.iter().enumerate() {
        let effect = match (o, e) {
            (Outcome::Applied, 0) => Text::new("reserved 1", "预留 1 件"),
            (Outcome::Applied, _) => Text::new("released", "释放"),
            (Outcome::Absorbed, _) => Text::new("duplicate: no change", "重复：无变化"),
            (Outcome::Stale, _) => Text::new("old version: no change", "旧版本：无变化"),
            (Outcome::MarkedOnly, _) => Text::new("inbox only", "只写了收件箱"),
        };
        t.rows.push(RowView::new(
            k.to_string(),
            vec![
                Text::same((k + 1).to_string()),
                Text::same(ev_id(e)),
                effect,
            ],
        ));
    }
    t
}

/// The emails the notification service sent.
fn emails(m: &OutboxRelayModel, s: &OrState) -> TableView {
    let notify = m.lane_broker() + 2;
    let mut t = TableView::durable("emails", Text::new("Emails sent", "已发送邮件"), notify);
    t.columns = vec![Text::same("#"), Text::new("email", "邮件")];
    for (k, &e) in s.log.iter().take(s.notified as usize).enumerate() {
        let mail = if e == 0 {
            Text::new("Order 17 confirmed", "订单 17 已确认")
        } else {
            Text::new("Order 17 cancelled", "订单 17 已取消")
        };
        t.rows.push(RowView::new(
            k.to_string(),
            vec![Text::same((k + 1).to_string()), mail],
        ));
    }
    t
}

/// The relay's operational numbers: pending rows, the oldest one's age, duplicates delivered
/// and absorbed.
fn metrics(s: &OrState) -> Vec<Metric> {
    let pending: Vec<String> = (0..EVENTS as u8)
        .filter(|&e| s.outbox[e as usize] == Ob::Pending)
        .map(ev_id)
        .collect();
    let absorbed = s
        .history
        .iter()
        .filter(|h| matches!(h.1, Outcome::Absorbed | Outcome::Stale))
        .count() as u32;
    vec![
        Metric::count(
            Text::new("outbox pending", "发件箱待发送"),
            pending.len() as u32,
        ),
        Metric {
            name: Text::new("oldest pending age (steps)", "最老待发送记录已等待（步）"),
            value: MetricValue::oldest(pending),
        },
        Metric::count(
            Text::new("duplicates delivered", "重复投递"),
            u32::from(s.dups),
        ),
        Metric::count(Text::new("duplicates absorbed", "被拦截的重复"), absorbed),
    ]
}
