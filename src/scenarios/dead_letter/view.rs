//! The dead-letter scenario's buttons and tables: the partition, the database's three tables
//! (the harness reads them back from PostgreSQL), the provider's ledger, the consumer's log and
//! the retry policy.
use super::*;
use crate::tx;

fn t(en: impl Into<String>, zh: impl Into<String>) -> Text {
    Text::new(en, zh)
}

pub(super) fn label(m: &DeadLetterModel, s: &DlState, a: DlAct) -> Text {
    let head = s.head().copied();
    let name = head.map(|h| h.name()).unwrap_or_default();
    match a {
        DlAct::Handle => match head {
            Some(h) if h.attempts > 0 => {
                let wait = secs(h.next_at.saturating_sub(s.clock));
                let n = h.attempts + 1;
                tx!(
                    "Wait {wait}, then try {name} again (attempt {n})",
                    "等待 {wait}，再试 {name}（第 {n} 次）"
                )
            }
            Some(h) if h.unreadable() => tx!("Handle {name}", "处理 {name}"),
            Some(h) if m.variant == DlVariant::CheckedReplay && h.replay > 0 => tx!(
                "Handle {name}: check {}, then charge",
                "处理 {name}：先核对 {}，再扣款",
                h.order()
            ),
            Some(h) => tx!(
                "Handle {name}: charge {}",
                "处理 {name}：为 {} 扣款",
                h.order()
            ),
            None => Text::default(),
        },
        DlAct::Unavailable => tx!("Provider answers 503 to {name}", "支付方对 {name} 回 503"),
        DlAct::Replay(of) if of == POISON => t(
            "Operator deploys the v3 reader and replays m-2",
            "运维部署 v3 读取器并重放 m-2",
        ),
        DlAct::Replay(of) => {
            let n = of + 1;
            tx!("Operator replays m-{n}", "运维重放 m-{n}")
        }
        DlAct::ReplayAgain(of) => {
            let n = of + 1;
            tx!(
                "A second operator replays m-{n} too",
                "另一位运维也重放了 m-{n}"
            )
        }
        DlAct::Cancel(of) => {
            let o = ORDERS[of as usize];
            tx!("Customer cancels {o}", "客户取消 {o}")
        }
    }
}

pub(super) fn tables(m: &DeadLetterModel, s: &DlState) -> Vec<TableView> {
    let mut out = vec![queue(s), orders(s), payments(s)];
    if m.variant.parks() {
        out.push(dead_letters(s));
    }
    out.push(ledger(s));
    if m.variant == DlVariant::LogAndDrop {
        out.push(log(s));
    }
    out.push(policy(m.variant));
    out
}

fn queue(s: &DlState) -> TableView {
    let mut tv = TableView::durable(
        "queue",
        t("Partition payments-0", "分区 payments-0"),
        BROKER,
    );
    tv.columns = vec![
        t("message", "消息"),
        t("order", "订单"),
        t("attempts", "已尝试"),
        t("next try", "下次尝试"),
    ];
    tv.empty = t("(drained)", "（已排空）");
    for m in &s.queue {
        let next = if m.attempts == 0 {
            t("now", "现在")
        } else {
            Text::same(format!("at {}", secs(m.next_at)))
        };
        tv.rows.push(RowView::new(
            m.name(),
            vec![
                Text::same(m.name()),
                Text::same(m.order()),
                Text::same(m.attempts.to_string()),
                next,
            ],
        ));
    }
    tv
}

pub fn status_word(o: OrderStatus) -> &'static str {
    match o {
        OrderStatus::Pending => "PENDING",
        OrderStatus::Paid => "PAID",
        OrderStatus::Cancelled => "CANCELLED",
    }
}

fn orders(s: &DlState) -> TableView {
    let mut tv = TableView::durable("orders", t("orders", "orders（订单）"), DB);
    tv.columns = vec![Text::same("id"), Text::same("status")];
    for (i, o) in s.orders.iter().enumerate() {
        tv.rows.push(RowView::new(
            ORDERS[i].into(),
            vec![Text::same(ORDERS[i]), Text::same(status_word(*o))],
        ));
    }
    tv
}

fn payments(s: &DlState) -> TableView {
    let mut tv = TableView::durable("payments", t("payments", "payments（支付记录）"), DB);
    tv.columns = vec![
        Text::same("order_id"),
        Text::same("charge_id"),
        Text::same("message_id"),
    ];
    tv.empty = t("(none)", "（无）");
    for (i, c) in s.charges.iter().enumerate() {
        tv.rows.push(RowView::new(
            format!("ch-{i}"),
            vec![
                Text::same(c.msg.order()),
                Text::same(format!("ch_{}", i + 1)),
                Text::same(c.msg.name()),
            ],
        ));
    }
    tv
}

pub fn reason_word(r: Reason) -> &'static str {
    match r {
        Reason::Schema => "schema v3 unreadable",
        Reason::Unavailable => "503 on 3 attempts",
    }
}

pub fn parked_word(p: Parked) -> &'static str {
    match p {
        Parked::Parked => "PARKED",
        Parked::Replayed => "REPLAYED",
        Parked::RefusedCancelled => "REFUSED: cancelled",
        Parked::RefusedPaid => "REFUSED: paid",
    }
}

fn dead_letters(s: &DlState) -> TableView {
    let mut tv = TableView::durable(
        "dead_letters",
        t("dead_letters", "dead_letters（死信记录）"),
        DB,
    );
    tv.columns = [
        "message_id",
        "order_id",
        "reason",
        "attempts",
        "owner",
        "status",
        "replays",
    ]
    .map(Text::same)
    .to_vec();
    tv.empty = t("(none parked)", "（没有停放的消息）");
    for d in &s.dead {
        let name = format!("m-{}", d.of + 1);
        tv.rows.push(RowView::new(
            name.clone(),
            vec![
                Text::same(name),
                Text::same(ORDERS[d.of as usize]),
                Text::same(reason_word(d.reason)),
                Text::same(d.attempts.to_string()),
                Text::same("payments-oncall"),
                Text::same(parked_word(d.status)),
                Text::same(d.replays.to_string()),
            ],
        ));
    }
    tv
}

fn ledger(s: &DlState) -> TableView {
    let mut tv = TableView::durable("ledger", t("Provider's charges", "支付方的扣款"), PROVIDER);
    tv.columns = vec![
        t("charge", "扣款"),
        t("order", "订单"),
        t("asked by", "发起消息"),
        t("note", "说明"),
    ];
    tv.empty = t("(no charge)", "（没有扣款）");
    for (i, c) in s.charges.iter().enumerate() {
        let note = match (c.stale, s.repeats(i)) {
            (true, _) => t("order was cancelled", "订单已取消"),
            (_, true) => t("second charge", "第二笔扣款"),
            _ => Text::default(),
        };
        tv.rows.push(RowView::new(
            format!("ch-{i}"),
            vec![
                Text::same(format!("ch_{}", i + 1)),
                Text::same(c.msg.order()),
                Text::same(c.msg.name()),
                note,
            ],
        ));
    }
    tv
}

fn log(s: &DlState) -> TableView {
    let mut tv = TableView::memory("log", t("Consumer log", "消费者日志"), CONSUMER);
    tv.columns = vec![t("level", "级别"), t("line", "内容")];
    tv.empty = t("(nothing logged)", "（没有日志）");
    for m in &s.dropped {
        let why = if m.unreadable() {
            "unknown schema version 3"
        } else {
            "503 on 3 attempts"
        };
        tv.rows.push(RowView::new(
            m.name(),
            vec![
                Text::same("ERROR"),
                tx!("{}: {why}; acknowledged", "{}：{why}；已确认", m.name()),
            ],
        ));
    }
    tv
}

/// What the consumer does with each kind of error: the variant's policy, in its code.
fn policy(v: DlVariant) -> TableView {
    let mut tv = TableView::memory("policy", t("Retry policy", "重试策略"), CONSUMER);
    tv.columns = vec![t("when", "情况"), t("the consumer", "消费者的做法")];
    let row = |key: &str, when: Text, does: Text| RowView::new(key.into(), vec![when, does]);
    if !v.bounded() {
        tv.rows.push(row(
            "any",
            t("any error", "任何错误"),
            t(
                "retry in place every 1 s, for ever",
                "原地每 1 秒重试一次，永不放弃",
            ),
        ));
        return tv;
    }
    tv.rows.push(row(
        "503",
        t("503 (may recover)", "503（可能恢复）"),
        t(
            "retry after 1 s, then 2 s, each plus jitter under half; 3 attempts at most, the first included",
            "1 秒、2 秒后重试，各加不到一半的随机抖动；最多 3 次，含首次",
        ),
    ));
    tv.rows.push(row(
        "schema",
        t("schema v3 (will not recover)", "schema v3（不会恢复）"),
        t("no retry: give up at once", "不重试：立即放弃"),
    ));
    tv.rows.push(row(
        "give-up",
        t("giving up", "放弃时"),
        if v.parks() {
            t(
                "park in dead_letters (reason, attempts, owner), then acknowledge; page the owner after 15 min",
                "写入 dead_letters（原因、次数、负责人）后再确认；停放 15 分钟告警负责人",
            )
        } else {
            t("log the error and acknowledge", "记录错误日志并确认")
        },
    ));
    if v.replays() {
        tv.rows.push(row(
            "replay",
            t("a replayed command", "重放的命令"),
            if v == DlVariant::CheckedReplay {
                t(
                    "lock and re-read the order and its payments; refuse if cancelled or paid",
                    "锁定并重读订单及其支付；已取消或已支付就拒绝",
                )
            } else {
                t("charge as it was", "原样扣款")
            },
        ));
    }
    tv
}
