//! # Events are a state machine: late, twice, out of order, with a gap
//!
//! **Setting.** Payment pay-1701 (100.00 on ord-1701) is a row we keep from the provider's
//! webhooks. The provider has already done everything: the payment went `processing` (v2),
//! `succeeded` (v3: we record 100.00 paid), and was partly refunded, `refunded` (v4: we record
//! 80.00 refunded). The three events arrive in any order; a fault delivers one again.
//!
//! **The mistakes.** `last-write-wins` applies whatever arrives: a late `processing` takes a
//! refunded payment back to PROCESSING, and a duplicate `succeeded` counts 100.00 twice.
//! `version-guard` drops anything not newer than the row, so duplicates and late events are
//! harmless — but it accepts a gap: v4 arriving first is applied over v1, and the v2 and v3 that
//! come after are dropped as old, so the 100.00 paid is never recorded.
//!
//! **The fix.** `state-machine`: apply only the next version (a legal transition); drop what is
//! already reflected; on a gap, look the payment up at the provider (the authoritative state)
//! instead of trusting the order of arrival — never drop every late message blindly.

use crate::sim::kit::Variants;
use crate::sim::{
    Figure, FigureBody, InvKind, Invariant, LaneView, LedgerRow, Metric, Model, Notes, Present,
    RowView, Scenario, ScenarioMeta, StateView, StepInfo, TableView, Text, Unit, VariantMeta,
};
use crate::tx;

const PROVIDER: usize = 0;
const CONSUMER: usize = 1;
const DB: usize = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EoVariant {
    LastWriteWins,
    VersionGuard,
    StateMachine,
}

impl EoVariant {
    pub const ALL: [EoVariant; 3] = [
        EoVariant::LastWriteWins,
        EoVariant::VersionGuard,
        EoVariant::StateMachine,
    ];
}

impl Variants for EoVariant {
    const ALL: &'static [EoVariant] = &EoVariant::ALL;
}

/// The payment's status, in the order the provider moves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum St {
    Pending,
    Processing,
    Paid,
    Refunded,
}

/// One webhook event: its type, the version it carries, and its effect on our books (cents).
pub struct Event {
    pub kind: &'static str,
    pub version: u8,
    pub status: St,
    pub paid: u32,
    pub refunded: u32,
}

/// The provider's history, oldest first (event i is version i + 2).
pub const EVENTS: [Event; 3] = [
    Event {
        kind: "payment.processing",
        version: 2,
        status: St::Processing,
        paid: 0,
        refunded: 0,
    },
    Event {
        kind: "payment.succeeded",
        version: 3,
        status: St::Paid,
        paid: 10_000,
        refunded: 0,
    },
    Event {
        kind: "charge.refunded",
        version: 4,
        status: St::Refunded,
        paid: 0,
        refunded: 8_000,
    },
];

/// What the consumer did with a delivery.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    Applied,
    /// Dropped as a duplicate or as already reflected.
    Dropped,
    /// A gap: the consumer looked the payment up at the provider.
    LookedUp,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EoState {
    /// Events not delivered yet.
    pub pending: Vec<u8>,
    /// Events delivered a second time.
    pub again: Vec<u8>,
    /// Every delivery, with what the consumer did.
    pub log: Vec<(u8, Outcome)>,
    pub status: St,
    pub version: u8,
    pub paid: u32,
    pub refunded: u32,
    /// A delivery moved the status backwards.
    pub regressed: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EoAct {
    Deliver(u8),
    /// The provider delivers an event it already delivered (its retry after a slow 200).
    Redeliver(u8),
}

#[derive(Clone)]
pub struct EventOrderModel {
    pub variant: EoVariant,
    pub budget: u8,
}

/// The provider's state, which every event has already happened to.
pub const TRUTH: (St, u8, u32, u32) = (St::Refunded, 4, 10_000, 8_000);

impl EventOrderModel {
    /// What this consumer does with event `e` in state `s`.
    pub fn outcome(&self, s: &EoState, e: u8) -> Outcome {
        let v = EVENTS[e as usize].version;
        match self.variant {
            EoVariant::LastWriteWins => Outcome::Applied,
            EoVariant::VersionGuard if v > s.version => Outcome::Applied,
            EoVariant::StateMachine if v == s.version + 1 => Outcome::Applied,
            EoVariant::StateMachine if v > s.version + 1 => Outcome::LookedUp,
            _ => Outcome::Dropped,
        }
    }

    fn receive(&self, s: &mut EoState, e: u8) {
        let out = self.outcome(s, e);
        s.log.push((e, out));
        let ev = &EVENTS[e as usize];
        match out {
            Outcome::Applied => {
                s.regressed |= ev.status < s.status;
                s.status = ev.status;
                s.version = ev.version;
                s.paid += ev.paid;
                s.refunded += ev.refunded;
            }
            Outcome::LookedUp => {
                (s.status, s.version, s.paid, s.refunded) = TRUTH;
            }
            Outcome::Dropped => {}
        }
    }
}

impl Model for EventOrderModel {
    type State = EoState;
    type Act = EoAct;

    fn init(&self) -> EoState {
        EoState {
            pending: vec![0, 1, 2],
            again: Vec::new(),
            log: Vec::new(),
            status: St::Pending,
            version: 1,
            paid: 0,
            refunded: 0,
            regressed: false,
        }
    }

    fn actions(&self, s: &EoState, out: &mut Vec<EoAct>) {
        out.extend(s.pending.iter().map(|&e| EoAct::Deliver(e)));
        for e in 0..3u8 {
            let delivered = !s.pending.contains(&e);
            if delivered && !s.again.contains(&e) {
                out.push(EoAct::Redeliver(e));
            }
        }
    }

    fn is_fault(&self, a: &EoAct) -> bool {
        matches!(a, EoAct::Redeliver(_))
    }

    fn fault_budget(&self) -> u8 {
        self.budget
    }

    fn next(&self, s: &EoState, a: &EoAct) -> EoState {
        let mut s = s.clone();
        match *a {
            EoAct::Deliver(e) => {
                s.pending.retain(|&p| p != e);
                self.receive(&mut s, e);
            }
            EoAct::Redeliver(e) => {
                s.again.push(e);
                self.receive(&mut s, e);
            }
        }
        s
    }

    fn invariants(&self) -> Vec<Invariant<EoState>> {
        vec![
            Invariant {
                name: Text::new("the status never goes back", "状态不会倒退"),
                kind: InvKind::Always,
                holds: Text::new(
                    "No delivery moves the payment to an earlier status.",
                    "任何投递都不会把支付状态改回更早的状态。",
                ),
                check: went_back,
                rows: |_| vec![("payments", "pay-1701".to_string())],
            },
            Invariant {
                name: Text::new("each effect counted once", "每个效果只记一次"),
                kind: InvKind::Always,
                holds: Text::new(
                    "Paid is at most 100.00 and refunded at most 80.00: nothing counted twice.",
                    "已付最多 100.00，已退最多 80.00：没有重复计数。",
                ),
                check: counted_twice,
                rows: |_| vec![("payments", "pay-1701".to_string())],
            },
            Invariant {
                name: Text::new("the books match the provider", "账与支付方一致"),
                kind: InvKind::Eventually,
                holds: Text::new(
                    "Once every event is in: REFUNDED, 100.00 paid, 80.00 refunded, as at the provider.",
                    "所有事件到齐后：REFUNDED、已付 100.00、已退 80.00，与支付方一致。",
                ),
                check: off_the_books,
                rows: |_| vec![("payments", "pay-1701".to_string())],
            },
        ]
    }
}

/// "100.00".
pub fn money(cents: u32) -> String {
    Unit::Cents.format(cents)
}

pub fn status_word(st: St) -> &'static str {
    match st {
        St::Pending => "PENDING",
        St::Processing => "PROCESSING",
        St::Paid => "PAID",
        St::Refunded => "REFUNDED",
    }
}

fn went_back(s: &EoState) -> Option<Text> {
    s.regressed.then(|| {
        let st = status_word(s.status);
        tx!(
            "A late event moved pay-1701 back to {st}: the order of arrival was taken for the order of events.",
            "一个晚到的事件把 pay-1701 改回了 {st}：把到达顺序当成了事件顺序。"
        )
    })
}

fn counted_twice(s: &EoState) -> Option<Text> {
    (s.paid > TRUTH.2 || s.refunded > TRUTH.3).then(|| {
        tx!(
            "Our books say {} paid and {} refunded: a duplicate event was counted again.",
            "我们的账上写着已付 {}、已退 {}：重复的事件又被记了一次。",
            money(s.paid),
            money(s.refunded)
        )
    })
}

fn off_the_books(s: &EoState) -> Option<Text> {
    let ours = (s.status, s.version, s.paid, s.refunded);
    (ours != TRUTH).then(|| {
        tx!(
            "We show {} with {} paid and {} refunded; the provider has REFUNDED, 100.00 paid, 80.00 refunded.",
            "我们显示 {}，已付 {}、已退 {}；支付方是 REFUNDED，已付 100.00、已退 80.00。",
            status_word(s.status),
            money(s.paid),
            money(s.refunded)
        )
    })
}

impl Present for EventOrderModel {
    fn label(&self, _s: &EoState, a: &EoAct) -> Text {
        narrate::label(*a)
    }

    fn view(&self, s: &EoState) -> StateView {
        StateView {
            lanes: vec![
                LaneView::store("Payment provider", "支付方"),
                LaneView::process("Webhook consumer", "Webhook 消费者"),
                LaneView::store("Database", "数据库"),
            ],
            tables: vec![payments(s), deliveries(s), provider()],
            metrics: vec![
                Metric::count(Text::new("deliveries", "投递次数"), s.log.len() as u32),
                Metric::count(
                    Text::new("events still on their way", "仍在路上的事件"),
                    s.pending.len() as u32,
                ),
            ],
            figure: Some(figure(s)),
            ..StateView::default()
        }
    }

    fn describe(&self, b: &EoState, a: &EoAct, s: &EoState) -> StepInfo {
        narrate::describe(self, b, *a, s)
    }

    fn intro(&self) -> Text {
        narrate::intro(self.variant)
    }
}

/// Our books against the provider's: paid and refunded, in money.
fn figure(s: &EoState) -> Figure {
    let row = |en: &str, zh: &str, intended, executed| LedgerRow {
        name: Text::new(en, zh),
        intended,
        executed,
        unit: Unit::Cents,
    };
    Figure {
        title: Text::new("Our books against the provider's", "我们的账与支付方的账"),
        name: tx!(
            "we record {} paid and {} refunded; the provider has 100.00 and 80.00",
            "我们记了已付 {}、已退 {}；支付方是 100.00 和 80.00",
            money(s.paid),
            money(s.refunded)
        ),
        body: FigureBody::Ledger(vec![
            row("paid", "已付", TRUTH.2, s.paid),
            row("refunded", "已退", TRUTH.3, s.refunded),
        ]),
        shows: vec![1, 2],
    }
}

fn payments(s: &EoState) -> TableView {
    let mut t = TableView::durable("payments", Text::new("payments", "payments（支付）"), DB);
    t.columns = ["payment_id", "status", "version", "paid", "refunded"]
        .map(Text::same)
        .to_vec();
    t.rows.push(RowView::new(
        "pay-1701".into(),
        vec![
            Text::same("pay-1701"),
            Text::same(status_word(s.status)),
            Text::same(s.version.to_string()),
            Text::same(money(s.paid)),
            Text::same(money(s.refunded)),
        ],
    ));
    t
}

fn outcome_text(o: Outcome) -> Text {
    match o {
        Outcome::Applied => Text::new("applied", "已应用"),
        Outcome::Dropped => Text::new("dropped", "已丢弃"),
        Outcome::LookedUp => Text::new("gap: looked up", "缺口：已补查"),
    }
}

fn deliveries(s: &EoState) -> TableView {
    let mut t = TableView::memory(
        "deliveries",
        Text::new("Webhook deliveries", "Webhook 投递"),
        CONSUMER,
    );
    t.columns = vec![
        Text::same("#"),
        Text::new("event", "事件"),
        Text::new("version", "版本"),
        Text::new("consumer", "消费者"),
    ];
    t.empty = Text::new("(none yet)", "（尚无）");
    for (i, &(e, o)) in s.log.iter().enumerate() {
        let ev = &EVENTS[e as usize];
        t.rows.push(RowView::new(
            format!("d-{i}"),
            vec![
                Text::same(format!("#{}", i + 1)),
                Text::same(ev.kind),
                Text::same(format!("v{}", ev.version)),
                outcome_text(o),
            ],
        ));
    }
    t
}

/// The provider's history: what every event reports, in version order.
fn provider() -> TableView {
    let mut t = TableView::durable(
        "provider",
        Text::new("At the provider", "支付方那边"),
        PROVIDER,
    );
    t.columns = vec![
        Text::new("version", "版本"),
        Text::new("event", "事件"),
        Text::new("status", "状态"),
    ];
    for ev in &EVENTS {
        t.rows.push(RowView::new(
            format!("v{}", ev.version),
            vec![
                Text::same(format!("v{}", ev.version)),
                Text::same(ev.kind),
                Text::same(status_word(ev.status)),
            ],
        ));
    }
    t
}

mod narrate;

/// The event-order scenario.
pub struct EventOrder;

impl EventOrder {
    pub fn model(variant: EoVariant, budget: u8) -> EventOrderModel {
        EventOrderModel { variant, budget }
    }
}

impl Scenario for EventOrder {
    type Model = EventOrderModel;
    type Variant = EoVariant;

    fn model_of(variant: usize, budget: Option<u8>, _knobs: &[u32]) -> EventOrderModel {
        Self::model(EoVariant::at(variant), budget.unwrap_or(2))
    }

    fn meta(&self) -> ScenarioMeta {
        let variants = [
            VariantMeta::mistake("last-write-wins", ["Last write wins", "最后写入为准"],
                ["Every event is applied as it arrives: a late processing takes the payment back, and a duplicate counts 100.00 again.",
                 "每个事件一到就应用：晚到的 processing 让支付倒退，重复的事件把 100.00 又记一次。"])
            .failing("12", ["deliver v3, then ⚡ deliver it again: 100.00 is counted twice. Or deliver v3 before v2.",
                            "投递 v3，再 ⚡ 重复投递一次：100.00 被记了两次。或者先投递 v3 再投递 v2。"]),
            VariantMeta::mistake("version-guard", ["Version guard", "版本校验"],
                ["Older versions are dropped, so duplicates and late events do no harm — but a gap is accepted: v4 first, and the payment's 100.00 is never recorded.",
                 "旧版本被丢弃，重复和晚到的事件无害——但缺口被接受了：v4 先到，支付的 100.00 就再也记不上。"])
            .failing("200", ["deliver v4 first: v2 and v3 arrive later and are dropped as old.",
                             "先投递 v4：v2 和 v3 晚到后被当作旧事件丢弃。"]),
            VariantMeta::fix("state-machine", ["A state machine", "状态机"],
                ["Only the next version is applied; what is already reflected is dropped; on a gap the consumer looks the payment up at the provider.",
                 "只应用下一个版本；已反映的事件丢弃；遇到缺口就向支付方补查支付的权威状态。"])
            .hinted(["deliver in any order, and ⚡ deliver any event again: the books match.",
                     "以任意顺序投递，并 ⚡ 重复投递任意事件：账都对得上。"]),
        ];
        ScenarioMeta {
            slug: "event-order",
            theme: Text::new("Dual writes and messaging", "双写与消息"),
            title: Text::new(
                "Events are a state machine: late, twice, out of order",
                "事件是状态机：晚到、重复、乱序",
            ),
            summary: Text::new(
                "The order of arrival is not the order of events: a late event takes a status back, a duplicate counts twice, a gap loses a payment.",
                "到达顺序不是事件顺序：晚到的事件让状态倒退，重复的事件被记两次，缺口让一笔支付丢失。",
            ),
            variants: variants
                .into_iter()
                .map(|m| VariantMeta {
                    fault_budget: 2,
                    fixed_by: (!m.fixed).then_some("state-machine"),
                    ..m
                })
                .collect(),
            knobs: Vec::new(),
            moves_heading: Some(Text::new("You are the network", "由你来当网络")),
        }
    }
}

/// Speaker notes for presenting this scenario (fetched by the page from `notes.json`).
pub(crate) fn notes() -> Notes {
    Notes::new(
        ["Events carry an event id, the aggregate's id and its version. The consumer applies only legal transitions: a duplicate refund.succeeded does not add the refunded amount again; a late processing does not overwrite a confirmed success; a version gap means querying the authoritative state (or waiting), not taking the order of arrival as a business fact. Never simply drop every late message.",
         "事件带 event_id、聚合 ID 和版本号。消费者只应用合法的状态转移：重复的 refund.succeeded 不重复加已退款金额；迟到的 processing 不能覆盖已确认的成功；版本缺口则补查权威状态（或等待），而不是把收到顺序当成业务事实。不能简单丢弃所有晚到消息。"],
        ["“One partition for everything, then it is ordered?” That limits throughput and does not order writes that bypass the queue. “The success callback arrives before processing?” Use versions and the provider's real state; the state machine defines how conflicts resolve instead of keeping the last value received.",
         "“所有订单用一个分区就全局有序？”会限制吞吐，而且约束不了绕开队列的写入。“成功回调比处理中回调先到？”用版本号和真实支付状态处理；状态机要定义冲突如何解决，而不是覆盖为最后收到的值。"],
        ["“We keep the latest message.” “Anything older than what we have is noise: drop it.”",
         "“以最后收到的消息为准。”“比现有版本旧的都是噪音，丢掉就好。”"],
    )
}
