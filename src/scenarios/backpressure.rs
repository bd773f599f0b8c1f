//! # Backpressure: a queue absorbs a peak, and the oldest order pays for it
//!
//! **Setting** (seed 004 §3 and §5). Orders arrive at 400/s during a 60 s peak and at 80/s
//! after it; consumers complete 240/s (48 busy slots × 1 / 0.2 s). The model is a fluid queue
//! in whole seconds, first in first out, with arrivals grouped by the second they came in, so
//! the age of the oldest message is exact: 9,600 queued at 60 s, drained at 120 s (net 160/s),
//! and the oldest order has waited 40 s at 100 s while the API answered it in milliseconds.
//!
//! **The mistakes.** `unbounded-queue` accepts everything: queue length looks like capacity
//! while the wait breaks the promise. `throttled-channel` scales payment consumers out to try
//! 400 calls/s against a channel that accepts 120/s: throttled calls are retried, the channel is
//! hammered, and throughput stays 120/s.
//!
//! **The fixes.** `admission-control` admits an order only while the expected wait (queue ÷
//! throughput) and the oldest message's age are under a threshold, and refuses the rest with
//! 503 and Retry-After: the waiting time stays bounded even when a consumer host dies.
//! `paced-to-channel` schedules payment work at the channel's rate and admits at the edge.
//!
//! One step is five seconds. The only fault is losing a consumer host (a quarter of the
//! capacity), at any step: the explorer proves the fixes for every moment it can happen.

use crate::sim::grouped;
use crate::sim::kit::Variants;
use crate::sim::{
    counted, given, ArrowKind, CodeView, Cursor, Figure, FigureBody, InvKind, Invariant, Knob,
    LaneView, Mark, MarkKind, Meter, Metric, Model, Notes, Plot, Present, RowView, Scenario,
    ScenarioMeta, Series, StateView, StepInfo, TableView, Text, Tone, Unit, VariantMeta,
};
use crate::tx;
use std::collections::VecDeque;
use std::hash::Hash;

const API: usize = 0;
const QUEUE: usize = 1;
const CONSUMERS: usize = 2;
const CHANNEL: usize = 3;

/// Seconds per step.
pub const STEP_S: u32 = 5;
/// A run stops here if the queue never drains (arrivals after the peak above capacity).
pub const MAX_S: u32 = 600;

const PROGRAM: &str = include_str!("backpressure/api.js");
const PROGRAM_ADMISSION: &str = include_str!("backpressure/api_admission.js");
const PROGRAM_THROTTLED: &str = include_str!("backpressure/consumer_throttled.js");
const PROGRAM_PACED: &str = include_str!("backpressure/consumer_paced.js");

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BpVariant {
    UnboundedQueue,
    AdmissionControl,
    ThrottledChannel,
    PacedToChannel,
}

impl BpVariant {
    pub const ALL: [BpVariant; 4] = [
        BpVariant::UnboundedQueue,
        BpVariant::AdmissionControl,
        BpVariant::ThrottledChannel,
        BpVariant::PacedToChannel,
    ];

    /// Refuses orders at the edge when the wait would pass the threshold.
    pub fn admits(self) -> bool {
        matches!(
            self,
            BpVariant::AdmissionControl | BpVariant::PacedToChannel
        )
    }

    /// Payment work goes through a rate-limited channel.
    pub fn channel(self) -> bool {
        matches!(
            self,
            BpVariant::ThrottledChannel | BpVariant::PacedToChannel
        )
    }
}

impl Variants for BpVariant {
    const ALL: &'static [BpVariant] = &BpVariant::ALL;
}

/// The scenario's numbers (the knobs), all whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rates {
    /// Orders per second during the peak.
    pub peak_in: u32,
    pub peak_s: u32,
    /// Orders per second after the peak.
    pub after_in: u32,
    /// Consumer slots, each busy `service_ms` per order.
    pub slots: u32,
    pub service_ms: u32,
    /// The longest an order may wait in the queue (the business's promise), in seconds.
    pub age_limit: u32,
    /// Admission control refuses new orders from this expected wait or oldest age on.
    pub admit_s: u32,
    /// Calls per second the payment channel accepts.
    pub channel: u32,
    /// Calls per second the scaled-out payment consumers try.
    pub attempts: u32,
}

impl Rates {
    pub const SEED: Rates = Rates {
        peak_in: 400,
        peak_s: 60,
        after_in: 80,
        slots: 48,
        service_ms: 200,
        age_limit: 30,
        admit_s: 20,
        channel: 120,
        attempts: 400,
    };

    /// Orders per second the consumers complete: slots / seconds per order.
    pub fn consumer_rate(&self, lost: bool) -> u32 {
        let slots = if lost {
            self.slots - self.slots / 4
        } else {
            self.slots
        };
        slots * 1000 / self.service_ms.max(1)
    }

    fn attempt_rate(&self, lost: bool) -> u32 {
        if lost {
            self.attempts - self.attempts / 4
        } else {
            self.attempts
        }
    }
}

/// What happened in the last step (five seconds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Flow {
    pub arrived: u32,
    pub admitted: u32,
    pub refused: u32,
    pub processed: u32,
    /// Calls made to the payment channel (or by consumers, where there is no limit).
    pub calls: u32,
    /// Calls the channel refused with 429.
    pub throttled: u32,
    /// The oldest age seen at any second of the step.
    pub worst_age: u32,
    /// The most calls in any one second of the step.
    pub peak_calls: u32,
}

/// A point of the curves, recorded at the end of each step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub t: u32,
    pub queued: u32,
    pub age: u32,
    pub wait: u32,
}

#[derive(Clone, Debug)]
pub struct BpState {
    /// Seconds since the start.
    pub t: u32,
    /// Orders waiting, oldest first: (the second they arrived, how many).
    pub cohorts: VecDeque<(u32, u32)>,
    pub queued: u32,
    /// Totals since the start.
    pub total: Flow,
    /// The last step's numbers.
    pub step: Flow,
    /// A consumer host has died (a quarter of the capacity is gone).
    pub lost: bool,
    /// The promise and the channel's limit, so that the invariants can judge the state alone.
    pub age_limit: u32,
    pub channel_limit: Option<u32>,
    /// The curves so far: drawn, not part of the state's identity (the future does not depend
    /// on them, so the explorer need not tell states apart by them).
    pub history: Vec<Sample>,
}

impl BpState {
    /// The age of the oldest waiting order at the current time.
    pub fn oldest_age(&self) -> u32 {
        self.cohorts.front().map_or(0, |&(at, _)| self.t - at)
    }

    #[allow(clippy::type_complexity)]
    fn identity(
        &self,
    ) -> (
        u32,
        &VecDeque<(u32, u32)>,
        u32,
        &Flow,
        &Flow,
        bool,
        u32,
        Option<u32>,
    ) {
        (
            self.t,
            &self.cohorts,
            self.queued,
            &self.total,
            &self.step,
            self.lost,
            self.age_limit,
            self.channel_limit,
        )
    }
}

crate::sim::kit::by_identity!(BpState);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BpAct {
    /// Five seconds pass.
    Advance,
    /// A consumer host dies: a quarter of the slots (or of the payment consumers) is gone.
    LoseConsumers,
}

#[derive(Clone)]
pub struct BackpressureModel {
    pub variant: BpVariant,
    pub rates: Rates,
    /// Where the default run (no fault) ends, and its largest queue and wait: the plots' axes.
    horizon: u32,
    top_queue: u32,
    top_wait: u32,
}

impl BackpressureModel {
    pub fn new(variant: BpVariant, knobs: &[u32]) -> BackpressureModel {
        let s = Rates::SEED;
        let k = |i: usize, lo: u32, hi: u32, d: u32| {
            knobs
                .get(i)
                .copied()
                .filter(|v| (lo..=hi).contains(v))
                .unwrap_or(d)
        };
        let rates = Rates {
            peak_in: k(0, 10, 1000, s.peak_in),
            peak_s: k(1, 10, 180, s.peak_s),
            after_in: k(2, 0, 400, s.after_in),
            slots: k(3, 4, 200, s.slots),
            service_ms: k(4, 50, 2000, s.service_ms),
            age_limit: k(5, 5, 300, s.age_limit),
            admit_s: k(6, 1, 300, s.admit_s),
            channel: k(7, 10, 1000, s.channel),
            attempts: k(8, 10, 1000, s.attempts),
        };
        let mut m = BackpressureModel {
            variant,
            rates,
            horizon: MAX_S,
            top_queue: 0,
            top_wait: 0,
        };
        // Run the default continuation once: the axes then stay put while the curves grow.
        let mut s = m.init();
        while !m.quiet(&s) {
            s = m.advance(&s);
            m.top_queue = m.top_queue.max(s.queued);
            m.top_wait = m.top_wait.max(s.step.worst_age).max(m.wait(&s));
        }
        m.horizon = s.t.max(STEP_S * 4);
        m
    }

    /// Orders per second the queue drains at now.
    pub fn throughput(&self, lost: bool) -> u32 {
        let r = &self.rates;
        if self.variant.channel() {
            r.attempt_rate(lost).min(r.channel)
        } else {
            r.consumer_rate(lost)
        }
    }

    /// The expected wait of an order that arrives now, in whole seconds (rounded up).
    pub fn wait(&self, s: &BpState) -> u32 {
        s.queued.div_ceil(self.throughput(s.lost).max(1))
    }

    fn quiet(&self, s: &BpState) -> bool {
        s.t >= MAX_S || (s.t >= self.rates.peak_s && s.queued == 0)
    }

    fn arrivals_at(&self, t: u32) -> u32 {
        if t < self.rates.peak_s {
            self.rates.peak_in
        } else {
            self.rates.after_in
        }
    }

    /// One second: arrivals (admitted or refused), then the consumers take from the head.
    fn second(&self, s: &mut BpState, f: &mut Flow) {
        let r = &self.rates;
        let arrived = self.arrivals_at(s.t);
        let admitted = if self.variant.admits() {
            let room = if s.oldest_age() < r.admit_s {
                (self.throughput(s.lost) * r.admit_s).saturating_sub(s.queued)
            } else {
                0
            };
            arrived.min(room)
        } else {
            arrived
        };
        if admitted > 0 {
            s.cohorts.push_back((s.t, admitted));
            s.queued += admitted;
        }
        let (tried, done) = match self.variant {
            BpVariant::ThrottledChannel => {
                let tried = s.queued.min(r.attempt_rate(s.lost));
                (tried, tried.min(r.channel))
            }
            _ => {
                let done = s.queued.min(self.throughput(s.lost));
                (done, done)
            }
        };
        let mut left = done;
        while left > 0 {
            let Some(front) = s.cohorts.front_mut() else {
                break;
            };
            let take = front.1.min(left);
            front.1 -= take;
            left -= take;
            if front.1 == 0 {
                s.cohorts.pop_front();
            }
        }
        s.queued -= done;
        s.t += 1;
        f.arrived += arrived;
        f.admitted += admitted;
        f.refused += arrived - admitted;
        f.processed += done;
        f.calls += tried;
        f.throttled += tried - done;
        f.worst_age = f.worst_age.max(s.oldest_age());
        f.peak_calls = f.peak_calls.max(tried);
    }

    fn advance(&self, b: &BpState) -> BpState {
        let mut s = b.clone();
        let mut f = Flow::default();
        for _ in 0..STEP_S {
            self.second(&mut s, &mut f);
        }
        let t = &mut s.total;
        t.arrived += f.arrived;
        t.admitted += f.admitted;
        t.refused += f.refused;
        t.processed += f.processed;
        t.calls += f.calls;
        t.throttled += f.throttled;
        t.worst_age = t.worst_age.max(f.worst_age);
        t.peak_calls = t.peak_calls.max(f.peak_calls);
        s.step = f;
        let wait = self.wait(&s);
        s.history.push(Sample {
            t: s.t,
            queued: s.queued,
            age: s.oldest_age(),
            wait,
        });
        s
    }
}

/// A round top for an axis: 1, 2 or 5 times a power of ten, at least `v`.
fn nice(v: u32) -> u32 {
    let mut p = 1u32;
    loop {
        for m in [1, 2, 5] {
            if let Some(n) = p.checked_mul(m) {
                if n >= v {
                    return n;
                }
            }
        }
        match p.checked_mul(10) {
            Some(n) => p = n,
            None => return u32::MAX,
        }
    }
}

fn too_old(s: &BpState) -> Option<Text> {
    let (age, limit) = (s.total.worst_age, s.age_limit);
    (age > limit).then(|| {
        tx!(
            "An order has waited {age} s in the queue, past the {limit} s the business promised; the API answered it 202 in milliseconds.",
            "有订单已在队列里等了 {age} 秒，超过业务承诺的 {limit} 秒；而 API 早在几毫秒内就回了它 202。"
        )
    })
}

fn over_channel(s: &BpState) -> Option<Text> {
    let limit = s.channel_limit?;
    let calls = s.total.peak_calls;
    (calls > limit).then(|| {
        tx!(
            "Consumers sent {calls} calls in one second to a channel that accepts {limit}/s: the rest came back 429 and were queued to be retried.",
            "消费者在一秒内向只接受每秒 {limit} 次的通道发起了 {calls} 次调用：其余都被 429 限流，又回到队列等待重试。"
        )
    })
}

impl Model for BackpressureModel {
    type State = BpState;
    type Act = BpAct;

    fn init(&self) -> BpState {
        BpState {
            t: 0,
            cohorts: VecDeque::new(),
            queued: 0,
            total: Flow::default(),
            step: Flow::default(),
            lost: false,
            age_limit: self.rates.age_limit,
            channel_limit: self.variant.channel().then_some(self.rates.channel),
            history: vec![Sample {
                t: 0,
                queued: 0,
                age: 0,
                wait: 0,
            }],
        }
    }

    fn actions(&self, s: &BpState, out: &mut Vec<BpAct>) {
        if self.quiet(s) {
            return;
        }
        out.push(BpAct::Advance);
        if !s.lost {
            out.push(BpAct::LoseConsumers);
        }
    }

    fn is_fault(&self, a: &BpAct) -> bool {
        *a == BpAct::LoseConsumers
    }

    fn fault_budget(&self) -> u8 {
        1
    }

    fn next(&self, s: &BpState, a: &BpAct) -> BpState {
        match a {
            BpAct::Advance => self.advance(s),
            BpAct::LoseConsumers => {
                let mut n = s.clone();
                n.lost = true;
                let wait = self.wait(&n);
                if let Some(last) = given(n.history.last_mut(), "a point of history") {
                    last.wait = wait;
                }
                n
            }
        }
    }

    fn invariants(&self) -> Vec<Invariant<BpState>> {
        vec![
            Invariant {
                name: Text::new("Orders wait within the promise", "订单等待不超过承诺"),
                kind: InvKind::Always,
                holds: Text::new(
                    "No order has waited in the queue longer than the business promised.",
                    "没有订单在队列里等得比业务承诺更久。",
                ),
                check: too_old,
                rows: |s| {
                    let oldest = s.cohorts.front().map(|&(at, _)| at / STEP_S * STEP_S);
                    oldest.map(|w| ("queue", format!("w{w}"))).into_iter().collect()
                },
            },
            Invariant {
                name: Text::new(
                    "Calls within the payment channel's limit",
                    "调用不超过支付通道的限额",
                ),
                kind: InvKind::Always,
                holds: Text::new(
                    "The payment channel never gets more calls in a second than it accepts (where it has a limit).",
                    "支付通道每秒收到的调用从不超过它接受的次数（有限额时）。",
                ),
                check: over_channel,
                rows: |_| vec![("capacity", "channel".into())],
            },
        ]
    }
}

impl Present for BackpressureModel {
    fn label(&self, s: &BpState, a: &BpAct) -> Text {
        match a {
            BpAct::Advance => tx!("Next 5 s (to {} s)", "再过 5 秒（到 {} 秒）", s.t + STEP_S),
            BpAct::LoseConsumers => Text::new(
                "Lose a consumer host (¼ of capacity)",
                "失去一台消费者主机（¼ 容量）",
            ),
        }
    }

    fn view(&self, s: &BpState) -> StateView {
        view(self, s)
    }

    fn describe(&self, b: &BpState, a: &BpAct, s: &BpState) -> StepInfo {
        narrate::describe(self, b, *a, s)
    }

    fn intro(&self) -> Text {
        let r = &self.rates;
        let base = tx!(
            "Orders arrive at {}/s for {} s, then at {}/s. Each step is 5 s.",
            "订单先以每秒 {} 条到达，持续 {} 秒，之后每秒 {} 条。每一步是 5 秒。",
            r.peak_in,
            r.peak_s,
            r.after_in
        );
        let cap = self.throughput(false);
        base.then(&match self.variant {
            BpVariant::UnboundedQueue => tx!(
                "Consumers complete {cap}/s ({} slots, {} ms per order). The API accepts every order with 202 and lets the queue absorb the peak.",
                "消费者每秒完成 {cap} 条（{} 个槽位，每单 {} 毫秒）。API 对每个订单都回 202，让队列缓冲高峰。",
                r.slots,
                r.service_ms
            ),
            BpVariant::AdmissionControl => tx!(
                "Consumers complete {cap}/s. The API admits an order only while the expected wait and the oldest message's age are under {} s; otherwise it answers 503 with Retry-After.",
                "消费者每秒完成 {cap} 条。只有预计等待和最老消息年龄都低于 {} 秒时，API 才受理订单；否则回 503 并带 Retry-After。",
                r.admit_s
            ),
            BpVariant::ThrottledChannel => tx!(
                "The payment channel accepts {}/s. Payment consumers were scaled out to try {}/s; throttled calls (429) go back to the queue to be retried.",
                "支付通道每秒只接受 {} 次。支付消费者扩容到每秒尝试 {} 次；被限流（429）的调用回到队列重试。",
                r.channel,
                r.attempts
            ),
            BpVariant::PacedToChannel => tx!(
                "The payment channel accepts {}/s. Consumers take a token per call at that rate, and the API admits an order only while the expected wait is under {} s.",
                "支付通道每秒只接受 {} 次。消费者按这个速率每次调用先取一个令牌；只有预计等待低于 {} 秒时，API 才受理订单。",
                r.channel,
                r.admit_s
            ),
        })
    }
}

fn secs_text(n: u32) -> Text {
    tx!("{n} s", "{n} 秒")
}

fn count(n: u32) -> Text {
    Text::same(grouped(n))
}

fn view(m: &BackpressureModel, s: &BpState) -> StateView {
    let (queue_plot, wait_plot) = (queue_plot(m, s), wait_plot(m, s));
    StateView {
        lanes: lanes(m.variant),
        tables: vec![
            flow_table(m.variant, s),
            capacity(m, s),
            queue_table(s),
            targets(m, s.oldest_age()),
        ],
        metrics: metrics(m, s),
        code: Some(code(m, s)),
        figure: Some(figure(m, s, &queue_plot, &wait_plot)),
        plots: vec![queue_plot, wait_plot],
        ..StateView::default()
    }
}

/// The four lanes: the API, the queue, the consumers and the payment channel.
fn lanes(v: BpVariant) -> Vec<LaneView> {
    vec![
        LaneView::process("Order API", "订单 API"),
        LaneView::store("Queue", "队列"),
        LaneView::process(
            if v.channel() {
                "Payment consumers"
            } else {
                "Consumers"
            },
            if v.channel() {
                "支付消费者"
            } else {
                "消费者"
            },
        ),
        LaneView::process("Payment channel", "支付通道"),
    ]
}

/// A flow's row: its rate, this step's count and the total so far.
fn flow_row(key: &str, en: &str, zh: &str, step: u32, total: u32) -> RowView {
    let per_s = Text::same(grouped(step / STEP_S));
    let cells = vec![Text::new(en, zh), per_s, count(step), count(total)];
    RowView::new(key.to_string(), cells)
}

/// What flowed in the last step and so far.
fn flow_table(v: BpVariant, s: &BpState) -> TableView {
    let (f, t) = (&s.step, &s.total);
    let mut flow = TableView::memory(
        "flow",
        Text::new("Flow in the last 5 s", "最近 5 秒的流量"),
        API,
    );
    flow.columns = vec![
        Text::new("flow", "流向"),
        Text::new("per second", "每秒"),
        Text::new("this step", "本步"),
        Text::new("so far", "累计"),
    ];
    flow.rows = vec![
        flow_row(
            "arrived",
            "orders arrived",
            "到达的订单",
            f.arrived,
            t.arrived,
        ),
        flow_row(
            "admitted",
            "accepted (202)",
            "已受理（202）",
            f.admitted,
            t.admitted,
        ),
    ];
    if v.admits() {
        flow.rows.push(flow_row(
            "refused",
            "refused (503, Retry-After)",
            "拒绝（503，Retry-After）",
            f.refused,
            t.refused,
        ));
    }
    flow.rows.push(flow_row(
        "processed",
        "processed",
        "处理完成",
        f.processed,
        t.processed,
    ));
    if v.channel() {
        flow.rows.push(flow_row(
            "calls",
            "calls to the channel",
            "通道调用",
            f.calls,
            t.calls,
        ));
        flow.rows.push(flow_row(
            "throttled",
            "throttled (429), retried",
            "被限流（429）后重试",
            f.throttled,
            t.throttled,
        ));
    }
    flow
}

/// The capacity arithmetic: what the consumers (and the channel) can complete, and the net
/// rate at which a backlog drains.
fn capacity(m: &BackpressureModel, s: &BpState) -> TableView {
    let (r, v) = (&m.rates, m.variant);
    let mut cap = TableView::memory("capacity", Text::new("Capacity", "容量"), CONSUMERS);
    cap.columns = vec![
        Text::new("what", "项目"),
        Text::new("how", "算法"),
        Text::new("per second", "每秒"),
    ];
    if v.channel() {
        cap.rows.extend(channel_rows(m, s));
    } else {
        cap.rows.push(consumers_row(m, s));
    }
    if v.admits() {
        cap.rows.push(RowView::new(
            "admission".into(),
            vec![
                Text::new("admission", "准入"),
                tx!(
                    "expected wait and oldest age < {} s",
                    "预计等待和最老消息年龄 < {} 秒",
                    r.admit_s
                ),
                tx!(
                    "≤ {} queued",
                    "排队 ≤ {}",
                    grouped(m.throughput(s.lost) * r.admit_s)
                ),
            ],
        ));
    }
    cap
}

/// With a payment channel: what the consumers try and what the channel accepts.
fn channel_rows(m: &BackpressureModel, s: &BpState) -> Vec<RowView> {
    let (r, v) = (&m.rates, m.variant);
    let mut rows = Vec::new();
    let attempts = r.attempt_rate(s.lost);
    rows.push(RowView::new(
        "consumers".into(),
        vec![
            Text::new("payment consumers try", "支付消费者尝试"),
            Text::new(
                if v == BpVariant::PacedToChannel {
                    "one token per call"
                } else {
                    "scaled out"
                },
                if v == BpVariant::PacedToChannel {
                    "每次调用取一个令牌"
                } else {
                    "扩容后"
                },
            ),
            count(if v == BpVariant::PacedToChannel {
                attempts.min(r.channel)
            } else {
                attempts
            }),
        ],
    ));
    rows.push(RowView::new(
        "channel".into(),
        vec![
            Text::new("payment channel accepts", "支付通道接受"),
            Text::new("its rate limit", "通道限流"),
            count(r.channel),
        ],
    ));
    rows
}

/// Without one: what the consumers complete, slots over the service time.
fn consumers_row(m: &BackpressureModel, s: &BpState) -> RowView {
    let r = &m.rates;
    let slots = if s.lost {
        r.slots - r.slots / 4
    } else {
        r.slots
    };
    let ms = r.service_ms;
    let secs = if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else if ms.is_multiple_of(100) {
        format!("{}.{}", ms / 1000, (ms % 1000) / 100)
    } else {
        format!("{}.{:02}", ms / 1000, (ms % 1000) / 10)
    };
    RowView::new(
        "consumers".into(),
        vec![
            Text::new("consumers complete", "消费者完成"),
            tx!(
                "{slots} busy slots × 1 / {secs} s",
                "{slots} 个忙碌槽位 × 1 / {secs} 秒"
            ),
            count(r.consumer_rate(s.lost)),
        ],
    )
}

/// The head of the queue, oldest first, in five-second arrival windows.
fn queue_table(s: &BpState) -> TableView {
    let mut queue = TableView::durable(
        "queue",
        Text::new("Queue, oldest first", "队列（最老的在前）"),
        QUEUE,
    );
    queue.columns = vec![
        Text::new("arrived", "到达时间"),
        Text::new("orders waiting", "等待中的订单"),
        Text::new("waiting for", "已等待"),
    ];
    queue.empty = Text::new("(empty: nothing waits)", "（空：没有订单在等）");
    let mut windows: Vec<(u32, u32, u32)> = Vec::new(); // (window start, orders, oldest second)
    for &(at, n) in &s.cohorts {
        let w = at / STEP_S * STEP_S;
        match windows.last_mut() {
            Some(last) if last.0 == w => last.1 += n,
            _ => windows.push((w, n, at)),
        }
    }
    let shown = 4;
    for &(w, n, at) in windows.iter().take(shown) {
        queue.rows.push(RowView::new(
            format!("w{w}"),
            vec![
                tx!("{w}–{} s", "{w}–{} 秒", w + STEP_S),
                count(n),
                secs_text(s.t - at),
            ],
        ));
    }
    if windows.len() > shown {
        let rest: u32 = windows.iter().skip(shown).map(|w| w.1).sum();
        let newest = windows.last().map_or(0, |w| w.0);
        queue.rows.push(RowView::new(
            "rest".into(),
            vec![
                tx!("… to {} s", "…… 到 {} 秒", newest + STEP_S),
                count(rest),
                Text::same("…"),
            ],
        ));
    }
    queue
}

/// The live numbers: time, queue, the oldest message's age, the expected wait, refusals and
/// throttling.
fn metrics(m: &BackpressureModel, s: &BpState) -> Vec<Metric> {
    let v = m.variant;
    let wait = m.wait(s);
    let age = s.oldest_age();
    let mut metrics = vec![
        Metric::count(Text::new("Time (s)", "时间（秒）"), s.t),
        Metric::count(Text::new("Queued", "排队"), s.queued),
        Metric::count(Text::new("Oldest waits (s)", "最老消息已等（秒）"), age),
        Metric::count(Text::new("Expected wait (s)", "预计等待（秒）"), wait),
    ];
    if v.admits() {
        metrics.push(Metric::count(
            Text::new("Refused (503)", "已拒绝（503）"),
            s.total.refused,
        ));
    }
    if v.channel() {
        metrics.push(Metric::count(
            Text::new("Throttled (429)", "被限流（429）"),
            s.total.throttled,
        ));
    }
    metrics
}

/// The queue's length over time, against the most it held.
fn queue_plot(m: &BackpressureModel, s: &BpState) -> Plot {
    let x_end = m.horizon.max(s.t);
    let top_queue = nice(
        s.history
            .iter()
            .map(|p| p.queued)
            .max()
            .unwrap_or(0)
            .max(m.top_queue)
            .max(10),
    );
    Plot {
        title: Text::new("Queue length", "队列长度"),
        unit: Text::new("orders", "条"),
        x_end,
        y_max: top_queue,
        series: vec![Series {
            name: Text::new("Queued", "排队"),
            points: s.history.iter().map(|p| (p.t, p.queued)).collect(),
            dashed: false,
            tone: Tone::Active,
        }],
        limit: None,
        summary: tx!(
            "At {} s, {} orders are queued; the most so far was {}.",
            "第 {} 秒，队列中有 {} 条订单；目前最多时为 {} 条。",
            s.t,
            grouped(s.queued),
            grouped(s.history.iter().map(|p| p.queued).max().unwrap_or(0))
        ),
    }
}

/// The oldest message's age and a new order's expected wait, against the promise.
fn wait_plot(m: &BackpressureModel, s: &BpState) -> Plot {
    let r = &m.rates;
    let x_end = m.horizon.max(s.t);
    let (age, wait) = (s.oldest_age(), m.wait(s));
    let top_wait = nice(
        s.history
            .iter()
            .map(|p| p.age.max(p.wait))
            .max()
            .unwrap_or(0)
            .max(m.top_wait)
            .max(r.age_limit + r.age_limit / 5),
    );
    let late = s.total.worst_age > r.age_limit;
    Plot {
        title: Text::new("Waiting time", "等待时间"),
        unit: Text::new("s", "秒"),
        x_end,
        y_max: top_wait,
        series: vec![
            Series {
                name: Text::new("Oldest message's age", "最老消息年龄"),
                points: s.history.iter().map(|p| (p.t, p.age)).collect(),
                dashed: false,
                tone: if late { Tone::Bad } else { Tone::Good },
            },
            Series {
                name: Text::new("Expected wait of a new order", "新订单的预计等待"),
                points: s.history.iter().map(|p| (p.t, p.wait)).collect(),
                dashed: true,
                tone: Tone::Quiet,
            },
        ],
        limit: Some((r.age_limit, Text::new("Promise", "承诺"))),
        summary: Text::new(
            format!(
                "The oldest order has waited {age} s and a new one would wait about {wait} s; the promise is {} s{}.",
                r.age_limit,
                if late { ", already broken" } else { "" }
            ),
            format!(
                "最老的订单已等 {age} 秒，新订单预计要等约 {wait} 秒；承诺是 {} 秒{}。",
                r.age_limit,
                if late { "，已经违背" } else { "" }
            ),
        ),
    }
}

/// The program card: the variant's program, with the line the API (or consumer) is on.
fn code(m: &BackpressureModel, s: &BpState) -> CodeView {
    let v = m.variant;
    let (title, text) = match v {
        BpVariant::UnboundedQueue => ("api.js", PROGRAM),
        BpVariant::AdmissionControl => ("api.js", PROGRAM_ADMISSION),
        BpVariant::ThrottledChannel => ("consumer.js", PROGRAM_THROTTLED),
        BpVariant::PacedToChannel => ("orders.js", PROGRAM_PACED),
    };
    let mut cursors = Vec::new();
    if s.t > 0 && !m.quiet(s) {
        let find = |needle: &str| text.lines().position(|l| l.contains(needle));
        let (needle, doing) = match v {
            BpVariant::AdmissionControl | BpVariant::PacedToChannel if s.step.refused > 0 => (
                "status(503)",
                Text::new(
                    "refusing: the wait would break the promise",
                    "拒绝：等待会超过承诺",
                ),
            ),
            BpVariant::ThrottledChannel if s.step.throttled > 0 => (
                "requeue",
                Text::new("429: back to the queue", "429：回到队列"),
            ),
            BpVariant::PacedToChannel => {
                ("bucket.take", Text::new("waiting for a token", "等待令牌"))
            }
            _ => ("status(202)", Text::new("accepting", "受理中")),
        };
        if let Some(line) = find(needle) {
            cursors.push(Cursor {
                line,
                who: "API".into(),
                doing,
            });
        }
    }
    CodeView {
        title,
        text,
        cursors,
    }
}

/// The queue variants' figure is their curves, drawn large in the timeline's place; the
/// channel variants' is the busiest second's calls against what the channel accepts.
fn figure(m: &BackpressureModel, s: &BpState, queue: &Plot, wait: &Plot) -> Figure {
    let Some(limit) = s.channel_limit.filter(|_| m.variant.channel()) else {
        return Figure {
            title: Text::new(
                "The queue and the wait, against the promise",
                "队列与等待时间，对照承诺",
            ),
            name: queue.summary.clone().then(&wait.summary),
            body: FigureBody::Plots,
            shows: vec![0, 1],
        };
    };
    let calls = s.total.peak_calls;
    Figure {
        title: Text::new(
            "Calls to the payment channel in its busiest second",
            "支付通道最繁忙一秒内的调用",
        ),
        name: Text::new(
            format!(
                "{} to the payment channel in one second, against the {limit} it accepts",
                counted(calls, "call", "calls")
            ),
            format!("一秒内向支付通道发起 {calls} 次调用，而它每秒只接受 {limit} 次"),
        ),
        body: FigureBody::Meter(Meter {
            value: calls,
            limit,
            limit_name: Text::new("calls/s the channel accepts", "通道每秒接受的调用"),
            unit: Unit::Count,
            parts: Vec::new(),
        }),
        shows: vec![0, 1],
    }
}

mod narrate;

fn knob(key: &'static str, name: [&str; 2], default: u32, min: u32, max: u32, step: u32) -> Knob {
    Knob {
        key,
        name: Text::new(name[0], name[1]),
        default,
        min,
        max,
        step,
        options: Vec::new(),
    }
}

/// The backpressure scenario: a peak, a queue and its oldest message.
pub struct Backpressure;

impl Backpressure {
    pub fn model(variant: BpVariant) -> BackpressureModel {
        BackpressureModel::new(variant, &[])
    }
}

impl Scenario for Backpressure {
    type Model = BackpressureModel;
    type Variant = BpVariant;

    fn model_of(variant: usize, _budget: Option<u8>, knobs: &[u32]) -> BackpressureModel {
        BackpressureModel::new(BpVariant::at(variant), knobs)
    }

    fn meta(&self) -> ScenarioMeta {
        let variants = [
            VariantMeta::mistake("unbounded-queue", ["Unbounded queue", "无界队列"],
                                 ["Accept everything: 9,600 queued after the peak, and the oldest order waits 40 s.",
                                  "全部受理：高峰后积压 9,600 条，最老的订单要等 40 秒。"])
            .failing("100000000000", ["just play: the queue grows through the peak; ⚡ lose a consumer host to see the promise break sooner.",
                                      "直接播放：高峰期间队列不断增长；⚡ 让一台消费者主机宕机，承诺会更早被打破。"]),
            VariantMeta::fix("admission-control", ["Admission control", "准入控制"],
                             ["Refuse with 503 + Retry-After when the expected wait or the oldest age passes 20 s.",
                              "预计等待或最老消息年龄超过 20 秒时，用 503 + Retry-After 拒绝。"])
            .hinted(["⚡ lose a consumer host at the peak: the API refuses with 503 and the wait stays within the promise.",
                     "在高峰时 ⚡ 让一台消费者主机宕机：API 用 503 拒绝，等待时间仍在承诺之内。"]),
            VariantMeta::mistake("throttled-channel", ["Consumers outrun the channel", "消费者跑赢通道"],
                                 ["Consumers try 400/s against a channel that accepts 120/s: 429s and retries, no extra throughput.",
                                  "消费者每秒尝试 400 次，通道只接受 120 次：429 与重试，吞吐不增。"])
            .failing("0", ["take one step: the consumers call 400/s at a channel that takes 120/s.",
                           "走一步：消费者每秒调用 400 次，通道每秒只接受 120 次。"]),
            VariantMeta::fix("paced-to-channel", ["Paced to the channel", "按通道限速"],
                             ["Take a token per call at the channel's 120/s and admit at the edge.",
                              "按通道每秒 120 次取令牌调用，并在入口做准入。"])
            .hinted(["play through the peak: calls stay at 120/s, and the edge refuses what would wait too long.",
                     "播放整个高峰：调用保持每秒 120 次，入口拒绝那些会等太久的请求。"]),
        ];
        ScenarioMeta {
            slug: "backpressure",
            theme: Text::new("Capacity and backpressure", "容量与背压"),
            title: Text::new(
                "Backpressure: 9,600 queued, 40 s waited",
                "背压：积压 9,600 条，等待 40 秒",
            ),
            summary: Text::new(
                "400 orders/s arrive for 60 s, consumers finish 240/s: the queue absorbs the peak, and the oldest order pays for it. Judge by age and expected wait, not length.",
                "60 秒内每秒到达 400 条，消费者每秒完成 240 条：队列缓冲了高峰，代价由最老的订单承担。要看消息年龄和预计等待，而不只是长度。",
            ),
            variants: variants
                .into_iter()
                .map(|m| {
                    let fixed_by = match m.slug {
                        "unbounded-queue" => Some("admission-control"),
                        "throttled-channel" => Some("paced-to-channel"),
                        _ => None,
                    };
                    VariantMeta {
                        fault_budget: 1,
                        fixed_by,
                        ..m
                    }
                })
                .collect(),
            knobs: vec![
                knob("in-peak", ["Peak arrivals (/s)", "高峰到达（每秒）"], 400, 10, 1000, 10),
                knob("peak", ["Peak length (s)", "高峰时长（秒）"], 60, 10, 180, 5),
                knob("in-after", ["Arrivals after (/s)", "高峰后到达（每秒）"], 80, 0, 400, 10),
                knob("slots", ["Consumer slots", "消费者槽位"], 48, 4, 200, 4),
                knob("service", ["Time per order (ms)", "每单耗时（毫秒）"], 200, 50, 2000, 50),
                knob("promise", ["Promised wait (s)", "承诺等待（秒）"], 30, 5, 300, 5),
                knob("admit", ["Admission threshold (s)", "准入阈值（秒）"], 20, 1, 300, 1),
                knob("channel", ["Channel limit (/s)", "通道限额（每秒）"], 120, 10, 1000, 10),
                knob("tries", ["Consumers try (/s)", "消费者尝试（每秒）"], 400, 10, 1000, 10),
            ],
            moves_heading: Some(Text::new("You move the clock", "由你推进时间")),
        }
    }
}

/// The notes' design inputs beside this run: their latency targets, the capacity line they ask
/// for, and the peak promise, which is this scenario's default and not theirs.
fn targets(m: &BackpressureModel, age: u32) -> TableView {
    let mut t = TableView::memory(
        "targets",
        Text::new(
            "The notes' targets and capacity line",
            "笔记里的目标与容量估算",
        ),
        API,
    );
    t.columns = vec![
        Text::new("what", "项目"),
        Text::new("the notes", "笔记"),
        Text::new("here", "这里"),
    ];
    t.reference = true;
    let rows = latency_rows(m, age).into_iter().chain(capacity_rows());
    for (key, what, notes, here) in rows {
        t.rows
            .push(RowView::new(key.into(), vec![what, notes, here]));
    }
    t
}

/// A row of the targets table: what, what the notes say, what this run shows.
type Target = (&'static str, Text, Text, Text);

/// The notes' latency targets against this run, and our defaults for the promise.
fn latency_rows(m: &BackpressureModel, age: u32) -> [Target; 3] {
    let r = &m.rates;
    [
        (
            "accept",
            Text::new(
                "accept latency, 95th percentile",
                "受理延迟（第 95 百分位）",
            ),
            Text::new("< 300 ms", "< 300 毫秒"),
            Text::new(
                "the API only records the order and answers",
                "API 只记录订单并应答",
            ),
        ),
        (
            "result",
            Text::new("accept to result, normal load", "受理到结果（常态）"),
            Text::new("≤ 5 s", "≤ 5 秒"),
            tx!(
                "the oldest order has waited {age} s",
                "最老的订单已等 {age} 秒"
            ),
        ),
        (
            "promise",
            Text::new("promised wait at the peak", "高峰时承诺的等待"),
            Text::new("a wait budget, no number", "等待预算，没有给数"),
            tx!(
                "{} s, admit under {} s: our defaults",
                "{} 秒，{} 秒内准入：本场景的默认值",
                r.age_limit,
                r.admit_s
            ),
        ),
    ]
}

/// The notes' capacity line: messages per order, orders a day, days kept.
fn capacity_rows() -> [Target; 2] {
    let per_day = MESSAGES_PER_ORDER * ORDERS_PER_DAY;
    [
        (
            "messages",
            Text::new("messages a day", "每日消息量"),
            tx!(
                "{MESSAGES_PER_ORDER} per order × {} orders",
                "每单 {MESSAGES_PER_ORDER} 条 × {} 个订单",
                grouped(ORDERS_PER_DAY)
            ),
            tx!(
                "≈ {}, before redeliveries and retries",
                "约 {}，未计重复投递与重试",
                grouped(per_day)
            ),
        ),
        (
            "kept",
            tx!("kept {KEPT_DAYS} days", "保留 {KEPT_DAYS} 天"),
            tx!("{KEPT_DAYS} × {}", "{KEPT_DAYS} × {}", grouped(per_day)),
            tx!(
                "≈ {} messages' bodies and metadata",
                "约 {} 条消息的消息体和元数据",
                grouped(per_day * KEPT_DAYS)
            ),
        ),
    ]
}

/// The notes' capacity line: messages per order, orders a day, days kept.
const MESSAGES_PER_ORDER: u32 = 6;
const ORDERS_PER_DAY: u32 = 100_000;
const KEPT_DAYS: u32 = 7;

/// Speaker notes for presenting this scenario. Not part of `meta()`: the page fetches them on
/// demand from `notes.json`, which `content::notes_json` writes (see `content`).
pub(crate) fn notes() -> Notes {
    Notes::new(
        ["A queue buys time, not capacity. 400/s in and 240/s out for 60 s is 9,600 queued; after the peak it drains at the net 160/s, so another 60 s — and the oldest order has waited 40 s while the API said 202 in 200 ms. Judge backpressure by the oldest message's age and the expected wait, refuse early with 503 and Retry-After, and schedule payment work at the channel's rate: 400 tries against 120/s only buys 429s. The notes' design inputs: accept within 300 ms at the 95th percentile, a result within 5 s at normal load; 6 messages per order × 100,000 orders a day ≈ 600,000 messages a day, kept 7 days (the 30 s promise here is our default).",
         "队列换来的是时间，不是容量。每秒进 400、出 240，持续 60 秒就积压 9,600 条；高峰后按净速率每秒 160 消化，还要 60 秒——最老的订单已经等了 40 秒，而 API 在 200 毫秒内回了 202。背压要看最老消息年龄和预计等待，尽早用 503 + Retry-After 拒绝，并按通道速率调度支付：对每秒 120 次的通道尝试 400 次，只会换来 429。笔记的设计输入：受理延迟第 95 百分位低于 300 毫秒，常态下 5 秒内出结果；每单 6 条消息 × 每日 10 万个订单 ≈ 每日 60 万条消息，保留 7 天（这里的 30 秒承诺是本场景的默认值）。"],
        ["“Why not divide 9,600 by 240?” New orders keep arriving: the net rate is 160/s. “48 slots at 0.2 s?” About 240/s — an upper bound; connections and channel limits lower it. “Just add consumers?” Only up to the slowest downstream stage.",
         "“为什么不是 9,600 ÷ 240？”新订单还在进来：净速率是每秒 160。“48 个槽位、每单 0.2 秒？”约每秒 240——是上限；连接数和通道限流会拉低它。“多加消费者不就行了？”只到最慢的下游环节为止。"],
        ["“The queue is short, so we are fine.” “Scale consumers out and the channel will cope.” “The API returns in 200 ms, so orders are fast.”",
         "“队列不长，所以没问题。”“消费者扩容，通道自然扛得住。”“API 200 毫秒就返回，所以订单很快。”"],
    )
}
