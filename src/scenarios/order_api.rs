//! # The order API: accept fast, finish asynchronously, and never create twice
//!
//! **Setting.** A client places one order: `POST /orders` with its cart (cart-A) and, where the
//! API takes one, the request key req-1701. Completing an order (stock, payment pay-1701) takes
//! the consumer about 4.2 s after its event is published; the ingress cuts a request at 3 s, and
//! the client retries once when it has no answer. The notes' targets: accept within 300 ms (p95),
//! complete within 5 s.
//!
//! **The mistakes.** Waiting for the consumer inside the request (`sync-wait`): the ingress
//! answers 504 at 3 s, the client retries, and a second order is created while the first is
//! still being made. Accepting at once without a request key (`no-request-key`): a 202 lost on
//! its way back makes the client's retry a second order.
//!
//! **The fix.** `accept-202`: one transaction inserts the order by its request key (`ON CONFLICT
//! (request_key) DO NOTHING`) with its outbox row, and the API answers 202 with the order id and
//! a status URL; a retry with the same key gets the same order, the same key with another cart
//! gets 409. The client follows the status URL: the broker acknowledging the event is not the
//! order succeeding — it may still be rejected (out of stock).

use crate::sim::kit::Variants;
use crate::sim::{
    Figure, FigureBody, InvKind, Invariant, LaneView, LedgerRow, Meter, Metric, Model, Notes,
    Present, RowView, Scenario, ScenarioMeta, StateView, StepInfo, TableView, Text, Unit,
    VariantMeta,
};
use crate::tx;

const CLIENT: usize = 0;
const API: usize = 1;
const DB: usize = 2;
const RELAY: usize = 3;
const CONSUMER: usize = 4;

/// What the API takes to commit and answer (ms).
pub const ACCEPT_MS: u32 = 40;
/// The relay publishes this long after the commit (ms).
pub const PUBLISH_MS: u32 = 60;
/// The consumer completes an order this long after its event is published (ms).
pub const WORK_MS: u32 = 4_200;
/// The ingress (and the client) give up on a request after this long (ms).
pub const TIMEOUT_MS: u32 = 3_000;
/// The notes' targets: accept (p95) and complete.
pub const ACCEPT_TARGET_MS: u32 = 300;
pub const COMPLETE_TARGET_MS: u32 = 5_000;
/// The client's attempts at most (the first and one retry).
pub const ATTEMPTS: usize = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OaVariant {
    SyncWait,
    NoRequestKey,
    Accept202,
}

impl OaVariant {
    pub const ALL: [OaVariant; 3] = [
        OaVariant::SyncWait,
        OaVariant::NoRequestKey,
        OaVariant::Accept202,
    ];

    pub fn keyed(self) -> bool {
        self == OaVariant::Accept202
    }
}

impl Variants for OaVariant {
    const ALL: &'static [OaVariant] = &OaVariant::ALL;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reply {
    /// 202 with this order.
    Accepted(u8),
    /// 504 from the ingress.
    GatewayTimeout,
    /// 409: the key was used for another cart.
    Conflict,
    /// The answer never reached the client.
    Lost,
}

/// One of the client's POSTs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Post {
    /// Cart A, or (a client bug) cart B under the same key.
    pub cart_b: bool,
    pub sent: u32,
    pub reply: Option<Reply>,
    /// When the reply reached the client (or would have).
    pub replied: u32,
    /// The API has handled it (sync-wait: it is waiting for the consumer).
    pub handled: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    Processing,
    Completed,
    Rejected,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Order {
    pub cart_b: bool,
    pub created: u32,
    /// When the relay published its event (the broker acknowledged it).
    pub published: Option<u32>,
    pub status: Status,
    pub done: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OaState {
    pub clock: u32,
    pub posts: Vec<Post>,
    pub orders: Vec<Order>,
    /// What the client last read at the status URL.
    pub known: Option<Status>,
}

impl OaState {
    /// The order the client holds an id for (its last 202).
    pub fn held(&self) -> Option<u8> {
        self.posts.iter().rev().find_map(|p| match p.reply {
            Some(Reply::Accepted(o)) => Some(o),
            _ => None,
        })
    }

    fn in_flight(&self) -> Option<usize> {
        self.posts.iter().position(|p| !p.handled)
    }

    /// The request the sync API holds open, waiting for the consumer.
    fn waiting(&self) -> Option<usize> {
        self.posts
            .iter()
            .position(|p| p.handled && p.reply.is_none())
    }

    /// The slowest answer the client received (ms), if any.
    pub fn slowest(&self) -> Option<u32> {
        let answered = |p: &&Post| !matches!(p.reply, None | Some(Reply::Lost));
        self.posts
            .iter()
            .filter(answered)
            .map(|p| p.replied - p.sent)
            .max()
    }
}

pub fn order_id(i: u8) -> String {
    format!("ord-{}", 1701 + u32::from(i))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OaAct {
    /// The API handles the POST in flight (and answers, except in sync-wait).
    Handle,
    /// The API handles it, but its answer is lost on the way back.
    LoseReply,
    /// The ingress gives up on the request the sync API holds open: 504.
    Timeout,
    /// The client, with no answer, sends the same POST again.
    Retry,
    /// The client reuses the request key for another cart.
    RetryOtherCart,
    /// The relay publishes an order's event; the broker acknowledges it.
    Publish,
    /// The consumer completes an order.
    Complete,
    /// The consumer rejects an order: out of stock.
    OutOfStock,
    /// The client reads the status URL.
    Poll,
}

#[derive(Clone)]
pub struct OrderApiModel {
    pub variant: OaVariant,
    pub budget: u8,
}

impl OrderApiModel {
    /// The order a retry under the same key finds, if the API keys by request.
    fn existing(&self, s: &OaState) -> Option<u8> {
        (self.variant.keyed() && !s.orders.is_empty()).then_some(0)
    }

    fn handle(&self, s: &mut OaState, lost: bool) {
        let Some(i) = s.in_flight() else { return };
        let p = s.posts[i];
        // Each event's time follows from its cause, whatever order the steps take.
        let at = p.sent + ACCEPT_MS;
        s.clock = s.clock.max(at);
        s.posts[i].handled = true;
        s.posts[i].replied = at;
        let reply = match self.existing(s) {
            Some(o) if s.orders[o as usize].cart_b != p.cart_b => Reply::Conflict,
            Some(o) => Reply::Accepted(o),
            None => {
                s.orders.push(Order {
                    cart_b: p.cart_b,
                    created: at,
                    published: None,
                    status: Status::Processing,
                    done: 0,
                });
                Reply::Accepted(s.orders.len() as u8 - 1)
            }
        };
        s.posts[i].reply = match (self.variant, lost) {
            (OaVariant::SyncWait, _) => None,
            (_, true) => Some(Reply::Lost),
            _ => Some(reply),
        };
    }

    fn retry(s: &mut OaState, cart_b: bool) {
        let sent = s
            .posts
            .last()
            .map_or(0, |p| p.replied.max(p.sent + TIMEOUT_MS));
        s.clock = s.clock.max(sent);
        s.posts.push(Post {
            cart_b,
            sent,
            reply: None,
            replied: 0,
            handled: false,
        });
    }

    /// The order the client can read the status of: its last 202's, or, with a request key and
    /// its retries spent, the one its key finds (`GET /orders?request_key=req-1701`).
    pub fn held(&self, s: &OaState) -> Option<u8> {
        let settled = s.in_flight().is_none() && !Self::may_retry(s);
        let by_key = self.variant.keyed() && settled && !s.orders.is_empty();
        s.held().or(by_key.then_some(0))
    }

    fn may_retry(s: &OaState) -> bool {
        let last = s.posts.last();
        let unanswered =
            last.is_some_and(|p| matches!(p.reply, Some(Reply::Lost | Reply::GatewayTimeout)));
        unanswered && s.posts.len() < ATTEMPTS
    }

    /// The first order whose event is not published yet.
    fn unpublished(s: &OaState) -> Option<usize> {
        s.orders.iter().position(|o| o.published.is_none())
    }

    /// The first published order still processing, once the consumer may finish it (in
    /// sync-wait, after the ingress has given up: 4.2 s is past its 3 s).
    fn finishable(&self, s: &OaState) -> Option<usize> {
        if s.waiting().is_some() {
            return None;
        }
        s.orders
            .iter()
            .position(|o| o.published.is_some() && o.status == Status::Processing)
    }

    fn finish(&self, s: &mut OaState, status: Status) {
        let Some(i) = self.finishable(s) else { return };
        let o = &mut s.orders[i];
        o.status = status;
        o.done = o.published.unwrap_or(0) + WORK_MS;
        s.clock = s.clock.max(o.done);
    }
}

impl Model for OrderApiModel {
    type State = OaState;
    type Act = OaAct;

    fn init(&self) -> OaState {
        OaState {
            clock: 0,
            posts: vec![Post {
                cart_b: false,
                sent: 0,
                reply: None,
                replied: 0,
                handled: false,
            }],
            orders: Vec::new(),
            known: None,
        }
    }

    fn actions(&self, s: &OaState, out: &mut Vec<OaAct>) {
        if s.in_flight().is_some() {
            out.push(OaAct::Handle);
            if self.variant != OaVariant::SyncWait {
                out.push(OaAct::LoseReply);
            }
        }
        if s.waiting().is_some() {
            out.push(OaAct::Timeout);
        }
        if Self::may_retry(s) {
            out.push(OaAct::Retry);
            if self.variant.keyed() {
                out.push(OaAct::RetryOtherCart);
            }
        }
        if Self::unpublished(s).is_some() {
            out.push(OaAct::Publish);
        }
        if self.finishable(s).is_some() {
            out.push(OaAct::Complete);
            out.push(OaAct::OutOfStock);
        }
        let status = self.held(s).map(|o| s.orders[o as usize].status);
        if status.is_some() && status != s.known {
            out.push(OaAct::Poll);
        }
    }

    fn is_fault(&self, a: &OaAct) -> bool {
        matches!(
            a,
            OaAct::LoseReply | OaAct::RetryOtherCart | OaAct::OutOfStock
        )
    }

    fn fault_budget(&self) -> u8 {
        self.budget
    }

    fn next(&self, s: &OaState, a: &OaAct) -> OaState {
        let mut s = s.clone();
        match a {
            OaAct::Handle => self.handle(&mut s, false),
            OaAct::LoseReply => self.handle(&mut s, true),
            OaAct::Timeout => {
                if let Some(i) = s.waiting() {
                    let p = &mut s.posts[i];
                    p.reply = Some(Reply::GatewayTimeout);
                    p.replied = p.sent + TIMEOUT_MS;
                    s.clock = s.clock.max(p.replied);
                }
            }
            OaAct::Retry => Self::retry(&mut s, false),
            OaAct::RetryOtherCart => Self::retry(&mut s, true),
            OaAct::Publish => {
                if let Some(i) = Self::unpublished(&s) {
                    let at = s.orders[i].created + PUBLISH_MS;
                    s.orders[i].published = Some(at);
                    s.clock = s.clock.max(at);
                }
            }
            OaAct::Complete => self.finish(&mut s, Status::Completed),
            OaAct::OutOfStock => self.finish(&mut s, Status::Rejected),
            OaAct::Poll => {
                s.known = self.held(&s).map(|o| s.orders[o as usize].status);
                s.clock += 10;
            }
        }
        s
    }

    fn invariants(&self) -> Vec<Invariant<OaState>> {
        vec![
            Invariant {
                name: Text::new("one order per request", "一个请求只建一个订单"),
                kind: InvKind::Always,
                holds: Text::new(
                    "The client meant one order, and the database holds at most one.",
                    "客户端只想下一个订单，数据库里也最多只有一个。",
                ),
                check: two_orders,
                rows: |s| {
                    (1..s.orders.len())
                        .map(|i| ("orders", order_id(i as u8)))
                        .collect()
                },
            },
            Invariant {
                name: Text::new("accepted within 300 ms", "300 毫秒内受理"),
                kind: InvKind::Always,
                holds: Text::new(
                    "Every answer to POST /orders arrives within the notes' 300 ms.",
                    "对 POST /orders 的每个应答都在笔记要求的 300 毫秒内到达。",
                ),
                check: slow,
                rows: |_| Vec::new(),
            },
            Invariant {
                name: Text::new("the client learns the outcome", "客户端得知结果"),
                kind: InvKind::Eventually,
                holds: Text::new(
                    "The client ends up reading its order's final status: completed or rejected.",
                    "客户端最终读到自己订单的终态：完成或被拒绝。",
                ),
                check: in_the_dark,
                rows: |_| Vec::new(),
            },
        ]
    }
}

/// "40 ms", "3,000 ms".
pub fn ms(n: u32) -> String {
    format!("{} ms", crate::sim::Unit::Count.format(n))
}

fn two_orders(s: &OaState) -> Option<Text> {
    let n = s.orders.len();
    (n > 1).then(|| {
        tx!(
            "{n} orders for one request: the retry could not be told from a new order.",
            "一个请求建了 {n} 个订单：重试无法与新订单区分开。"
        )
    })
}

fn slow(s: &OaState) -> Option<Text> {
    let worst = s.slowest().filter(|&w| w > ACCEPT_TARGET_MS)?;
    let w = ms(worst);
    Some(tx!(
        "A POST waited {w} for its answer: the API held it open while the order was made.",
        "一个 POST 等了 {w} 才得到应答：API 一直占着请求，等订单做完。"
    ))
}

fn in_the_dark(s: &OaState) -> Option<Text> {
    match s.known {
        Some(Status::Completed | Status::Rejected) => None,
        None if s.held().is_none() => Some(Text::new(
            "The client holds no order id: it cannot ask what became of its order.",
            "客户端手里没有订单号：它无从查询订单的结果。",
        )),
        _ => Some(Text::new(
            "The client has not read a final status yet.",
            "客户端还没有读到终态。",
        )),
    }
}

impl Present for OrderApiModel {
    fn label(&self, s: &OaState, a: &OaAct) -> Text {
        view::label(self, s, *a)
    }

    fn view(&self, s: &OaState) -> StateView {
        StateView {
            lanes: vec![
                LaneView::process("Client", "客户端"),
                LaneView::process("Order API", "下单 API"),
                LaneView::store("Database", "数据库"),
                LaneView::process("Relay · broker", "中继 · 消息代理"),
                LaneView::process("Order consumer", "订单消费者"),
            ],
            tables: view::tables(self, s),
            metrics: vec![
                Metric::count(
                    Text::new("POSTs sent", "已发送的 POST"),
                    s.posts.len() as u32,
                ),
                Metric::count(
                    Text::new("orders created", "已创建订单"),
                    s.orders.len() as u32,
                ),
            ],
            figure: Some(figure(self.variant, s)),
            ..StateView::default()
        }
    }

    fn describe(&self, b: &OaState, a: &OaAct, s: &OaState) -> StepInfo {
        narrate::describe(self, b, *a, s)
    }

    fn intro(&self) -> Text {
        narrate::intro(self.variant)
    }
}

/// sync-wait: the slowest answer against the 300 ms target. The others: orders made for the
/// one the client meant.
fn figure(v: OaVariant, s: &OaState) -> Figure {
    if v == OaVariant::SyncWait {
        let worst = s.slowest().unwrap_or(0);
        return Figure {
            title: Text::new("Time to answer POST /orders", "POST /orders 的应答时间"),
            name: tx!(
                "the slowest answer took {}, against a target of 300 ms; {} orders for one request",
                "最慢的应答用了 {}，目标是 300 毫秒；一个请求建了 {} 个订单",
                ms(worst),
                s.orders.len()
            ),
            body: FigureBody::Meter(Meter {
                value: worst,
                limit: ACCEPT_TARGET_MS,
                limit_name: Text::new("ms, the notes' target", "毫秒，笔记的目标"),
                unit: Unit::Count,
                parts: Vec::new(),
            }),
            shows: vec![1],
        };
    }
    let n = s.orders.len() as u32;
    Figure {
        title: Text::new("Orders meant and made", "想要的订单与建出的订单"),
        name: tx!(
            "{n} orders created for the one the client meant",
            "客户端只想要 1 个订单，实际建了 {n} 个"
        ),
        body: FigureBody::Ledger(vec![LedgerRow {
            name: Text::new("orders for req-1701's cart", "req-1701 这车商品的订单"),
            intended: 1,
            executed: n,
            unit: Unit::Count,
        }]),
        shows: vec![0],
    }
}

mod narrate;
mod view;

/// The order-API scenario.
pub struct OrderApi;

impl OrderApi {
    pub fn model(variant: OaVariant, budget: u8) -> OrderApiModel {
        OrderApiModel { variant, budget }
    }
}

impl Scenario for OrderApi {
    type Model = OrderApiModel;
    type Variant = OaVariant;

    fn model_of(variant: usize, budget: Option<u8>, _knobs: &[u32]) -> OrderApiModel {
        Self::model(OaVariant::at(variant), budget.unwrap_or(2))
    }

    fn meta(&self) -> ScenarioMeta {
        let variants = [
            VariantMeta::mistake("sync-wait", ["Wait for the order in the request", "请求里等订单做完"],
                ["The API answers only when the order is complete, 4.3 s later; the ingress gives up at 3 s with a 504, and the client's retry creates a second order.",
                 "API 要等订单做完（4.3 秒后）才应答；入口在 3 秒时放弃并回 504，客户端一重试就建了第二个订单。"])
            .failing("00", ["just let it run: the request is held open past 3 s.",
                            "直接运行：请求被占住超过 3 秒。"]),
            VariantMeta::mistake("no-request-key", ["Accept at once, no request key", "立即受理，但没有请求键"],
                ["The API answers 202 in 40 ms, but with no request key a retry after a lost answer is a new order.",
                 "API 40 毫秒就回 202，但没有请求键，应答丢失后的重试就是一个新订单。"])
            .failing("100", ["⚡ lose the 202 on its way back: the client retries.",
                             "⚡ 让 202 在回程中丢失：客户端会重试。"]),
            VariantMeta::fix("accept-202", ["Accept by request key, 202 + status URL", "按请求键受理，202 + 状态地址"],
                ["One transaction inserts the order by its request key with its outbox row and answers 202 with a status URL; the same key gets the same order, the same key with another cart 409.",
                 "一个事务按请求键插入订单和发件箱记录，回 202 和状态地址；同一个键得到同一个订单，同一个键换了购物车得到 409。"])
            .hinted(["⚡ lose the 202, or ⚡ retry with another cart, or ⚡ run out of stock after the 202.",
                     "⚡ 让 202 丢失，或 ⚡ 换个购物车重试，或在 202 之后 ⚡ 缺货。"]),
        ];
        ScenarioMeta {
            slug: "order-api",
            theme: Text::new("Dual writes and messaging", "双写与消息"),
            title: Text::new(
                "The order API: accept fast, finish later, never create twice",
                "下单 API：快速受理、异步完成、绝不重复创建",
            ),
            summary: Text::new(
                "Waiting for the order inside the request times out and doubles it; a 202 without a request key doubles it too; a key, a 202 and a status URL do not.",
                "在请求里等订单做完会超时并重复下单；没有请求键的 202 同样会重复；请求键、202 加状态地址则不会。",
            ),
            variants: variants
                .into_iter()
                .map(|m| VariantMeta {
                    fault_budget: 2,
                    fixed_by: (!m.fixed).then_some("accept-202"),
                    ..m
                })
                .collect(),
            knobs: Vec::new(),
            moves_heading: Some(Text::new("What happens next", "接下来发生什么")),
        }
    }
}

/// Speaker notes for presenting this scenario (fetched by the page from `notes.json`).
pub(crate) fn notes() -> Notes {
    Notes::new(
        ["Separate accepting from doing: in one local transaction, save the order, the request key's mapping and the outbox row, then answer 202 with the order id and a status URL. The same request key returns the same order; the same key with a different cart is a 409, never a silent overwrite; keep the key at least as long as clients retry. The broker acknowledging the event is not the order succeeding: the client learns the outcome at the status URL.",
         "把受理和执行分开：在一个本地事务里保存订单、请求键映射和发件箱记录，然后回 202、订单号和查询地址。同一个请求键返回同一个订单；同一个键换了购物车内容要回 409，不能悄悄覆盖；键的保存期限要覆盖客户端可能重试的时间。消息代理确认收到事件不等于订单成功：客户端通过查询地址得知结果。"],
        ["“Why not just wait for the order?” The request outlives the ingress's timeout; the client retries a request that is still running. “What does 202 promise?” That the order is saved and will be processed — not that it will succeed. “Targets?” Accept p95 under 300 ms; complete within 5 s; alert on the oldest order still processing.",
         "“为什么不直接等订单做完？”请求会超过入口的超时，客户端会重试一个仍在执行的请求。“202 承诺了什么？”订单已保存、会被处理——不承诺一定成功。“指标？”受理 p95 低于 300 毫秒；5 秒内完成；对处理中最久的订单告警。"],
        ["“The broker acked, so the order went through.” “A retry is harmless: it is the same cart.”",
         "“消息代理确认了，订单就成了。”“重试无害，反正是同一车商品。”"],
    )
}
