//! The order API's buttons and tables: the client's POSTs and what each got back, the
//! database's `orders` and `outbox` (the harness reads them back from PostgreSQL), and the
//! notes' targets against this run.
use super::*;
use crate::tx;

fn t(en: impl Into<String>, zh: impl Into<String>) -> Text {
    Text::new(en, zh)
}

pub(super) fn label(m: &OrderApiModel, s: &OaState, a: OaAct) -> Text {
    let n = s.posts.len();
    match a {
        OaAct::Handle if m.variant == OaVariant::SyncWait => tx!(
            "API handles POST #{n} and waits for the order",
            "API 处理第 {n} 个 POST，并等待订单完成"
        ),
        OaAct::Handle => tx!("API handles POST #{n}", "API 处理第 {n} 个 POST"),
        OaAct::LoseReply => tx!(
            "API handles POST #{n}; its answer is lost",
            "API 处理第 {n} 个 POST；应答丢失"
        ),
        OaAct::Timeout => t("Ingress gives up at 3 s: 504", "入口 3 秒时放弃：504"),
        OaAct::Retry => t("Client retries the POST", "客户端重试 POST"),
        OaAct::RetryOtherCart => t(
            "Client reuses req-1701 for another cart",
            "客户端拿 req-1701 去提交另一车商品",
        ),
        OaAct::Publish => {
            let o = s
                .orders
                .iter()
                .position(|o| o.published.is_none())
                .unwrap_or(0);
            let id = order_id(o as u8);
            tx!("Relay publishes {id}'s event", "中继发布 {id} 的事件")
        }
        OaAct::Complete => t("Consumer completes the order", "消费者完成订单"),
        OaAct::OutOfStock => t(
            "Consumer rejects the order: out of stock",
            "消费者拒绝订单：缺货",
        ),
        OaAct::Poll => t("Client reads the status URL", "客户端查询状态地址"),
    }
}

pub(super) fn tables(m: &OrderApiModel, s: &OaState) -> Vec<TableView> {
    vec![posts(s), orders(m, s), outbox(s), targets(s)]
}

pub fn reply_text(p: &Post) -> Text {
    let took = p.replied.saturating_sub(p.sent);
    match p.reply {
        None if p.handled => t("(held open)", "（请求被占着）"),
        None => t("(on its way)", "（在途）"),
        Some(Reply::Accepted(o)) => Text::same(format!("202 {} · {}", order_id(o), ms(took))),
        Some(Reply::GatewayTimeout) => Text::same(format!("504 · {}", ms(took))),
        Some(Reply::Conflict) => Text::same(format!("409 · {}", ms(took))),
        Some(Reply::Lost) => t("(lost: no answer)", "（丢失：没有应答）"),
    }
}

fn cart(b: bool) -> &'static str {
    if b {
        "cart-B"
    } else {
        "cart-A"
    }
}

fn posts(s: &OaState) -> TableView {
    let mut tv = TableView::memory(
        "posts",
        t("Client's POST /orders", "客户端的 POST /orders"),
        CLIENT,
    );
    tv.columns = vec![
        Text::same("#"),
        t("sent at", "发出时刻"),
        t("cart", "购物车"),
        t("answer", "应答"),
    ];
    for (i, p) in s.posts.iter().enumerate() {
        tv.rows.push(RowView::new(
            format!("post-{i}"),
            vec![
                Text::same(format!("#{}", i + 1)),
                Text::same(ms(p.sent)),
                Text::same(cart(p.cart_b)),
                reply_text(p),
            ],
        ));
    }
    let known = match s.known {
        None => t("(not asked)", "（尚未查询）"),
        Some(st) => Text::same(status_word(st)),
    };
    tv.rows.push(RowView::new(
        "status".into(),
        vec![
            t("status URL", "状态地址"),
            Text::default(),
            Text::default(),
            known,
        ],
    ));
    tv
}

pub fn status_word(st: Status) -> &'static str {
    match st {
        Status::Processing => "PROCESSING",
        Status::Completed => "COMPLETED",
        Status::Rejected => "REJECTED",
    }
}

fn orders(m: &OrderApiModel, s: &OaState) -> TableView {
    let mut tv = TableView::durable("orders", t("orders", "orders（订单）"), DB);
    tv.columns = if m.variant.keyed() {
        ["order_id", "request_key", "cart", "status"]
            .map(Text::same)
            .to_vec()
    } else {
        ["order_id", "cart", "status"].map(Text::same).to_vec()
    };
    tv.empty = t("(no order)", "（没有订单）");
    for (i, o) in s.orders.iter().enumerate() {
        let mut cells = vec![Text::same(order_id(i as u8))];
        if m.variant.keyed() {
            cells.push(Text::same("req-1701"));
        }
        cells.push(Text::same(cart(o.cart_b)));
        cells.push(Text::same(status_word(o.status)));
        tv.rows.push(RowView::new(order_id(i as u8), cells));
    }
    tv
}

fn outbox(s: &OaState) -> TableView {
    let mut tv = TableView::durable("outbox", t("outbox", "outbox（发件箱）"), DB);
    tv.columns = ["event_id", "order_id", "status"].map(Text::same).to_vec();
    tv.empty = t("(empty)", "（空）");
    for (i, o) in s.orders.iter().enumerate() {
        let status = if o.published.is_some() {
            "PUBLISHED"
        } else {
            "PENDING"
        };
        tv.rows.push(RowView::new(
            format!("evt-{}", i + 1),
            vec![
                Text::same(format!("evt-{}", i + 1)),
                Text::same(order_id(i as u8)),
                Text::same(status),
            ],
        ));
    }
    tv
}

/// The notes' targets, and this run against them.
fn targets(s: &OaState) -> TableView {
    let mut tv = TableView::memory("targets", t("Targets", "目标"), API);
    tv.reference = true;
    tv.columns = vec![t("target", "目标"), t("this run", "本次运行")];
    let accept = s
        .slowest()
        .map_or(t("(no answer yet)", "（尚无应答）"), |w| {
            Text::same(ms(w))
        });
    let first = s.orders.first();
    let done = first
        .filter(|o| o.status != Status::Processing)
        .map_or(t("(not yet)", "（尚未完成）"), |o| {
            Text::same(ms(o.done))
        });
    tv.rows = vec![
        RowView::new(
            "accept".into(),
            vec![
                t("accept: p95 under 300 ms", "受理：p95 低于 300 毫秒"),
                accept,
            ],
        ),
        RowView::new(
            "complete".into(),
            vec![t("complete within 5 s", "5 秒内完成"), done],
        ),
    ];
    tv
}
