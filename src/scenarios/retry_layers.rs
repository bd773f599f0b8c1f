//! # Retry layering: 3 × 3 × 3 = 27
//!
//! **Setting.** One refund (order ord-1701, 80.00) goes through a stack of layers, outermost
//! first: a workflow engine (activity retry), a graph framework (node retry), an agent SDK
//! (tool-call retry) and, with four layers, an HTTP client (request retry). The innermost one
//! calls the payment API with a 5 s timeout.
//!
//! **The bug.** Each team configured "3 attempts". Retries multiply: every attempt of a layer
//! runs all the attempts of the layer inside it, so a downstream that never answers in time
//! sees 3 × 3 × 3 = 27 calls. If the provider is merely slow (it performs the refund but
//! answers after the timeout), and no stable idempotency key is sent, every one of those calls
//! is a refund.
//!
//! **The fixes, and why both are needed.** One retry authority (the outermost layer retries
//! under a shared attempt budget and a deadline, with exponential backoff and jitter; inner
//! layers fail fast) bounds the load but still refunds once per attempt on a slow provider. A
//! stable idempotency key on every attempt lets the provider execute the refund once and replay
//! its saved result (Stripe API v1 semantics), but the load is still 27 calls. Together: at most
//! `attempts` calls and one refund. Temporal's default activity policy (unlimited attempts,
//! 1 s × 2.0 up to 100 s) is bounded only by its Schedule-To-Close timeout.
//!
//! **The model.** Time is explicit (milliseconds); a step is one downstream call's outcome,
//! which the downstream's behaviour chooses by default and the learner (or the explorer) may
//! choose otherwise: answered in time, performed but answered late, a fast 503, or no answer.
//! The outcome's failure climbs the stack until a layer still has an attempt left; that layer
//! backs off and starts a fresh attempt, whose inner layers start their attempts over, and the
//! next call goes out in the same step. The history (spans and the refund ledger) is kept for
//! the view but is not part of a state's identity: no decision reads it.

use crate::sim::kit::Retry;
use crate::sim::kit::Variants;
use crate::sim::{
    Figure, FigureBody, InvKind, Invariant, Kept, Knob, KnobOption, LaneView, Level, Metric, Model,
    Notes, Present, RowView, Scenario, ScenarioMeta, Span, SpanChart, StateView, StepInfo,
    TableView, Text, Tone, TreeItem, VariantMeta,
};
use crate::tx;
use std::hash::Hash;

mod narrate;

/// Layer names, outermost first, and what each one retries.
pub const LAYERS: [[&str; 2]; 4] = [
    ["Workflow engine", "工作流引擎"],
    ["Graph framework", "图框架"],
    ["Agent SDK", "Agent SDK"],
    ["HTTP client", "HTTP 客户端"],
];
const RETRIES: [[&str; 2]; 4] = [
    ["activity retry", "Activity 重试"],
    ["node retry", "节点重试"],
    ["tool-call retry", "工具调用重试"],
    ["request retry", "请求重试"],
];
/// The innermost layer's per-call timeout.
pub const CALL_TIMEOUT_MS: u32 = 5_000;
/// How long the provider takes to answer in time, and to refuse with a 503.
pub const ANSWER_MS: u32 = 400;
pub const FAIL_MS: u32 = 200;
/// The stable operation key of the variants that send one.
pub const KEY: &str = "refund:ord-1701";
/// Knob defaults: three layers of three attempts, a slow provider, a 120 s deadline.
pub const LAYERS_DEFAULT: u32 = 3;
pub const ATTEMPTS_DEFAULT: u32 = 3;
pub const DEADLINE_DEFAULT_S: u32 = 120;
pub const SEED_DEFAULT: u32 = 1701;
/// Ledger rows shown; earlier ones are summed up in one row.
const LEDGER_ROWS: usize = 12;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RlVariant {
    EveryLayerRetries,
    OneRetryAuthority,
    IdempotencyKey,
    TemporalDefaults,
    BothFixes,
}

impl RlVariant {
    pub const ALL: [RlVariant; 5] = [
        RlVariant::EveryLayerRetries,
        RlVariant::OneRetryAuthority,
        RlVariant::IdempotencyKey,
        RlVariant::TemporalDefaults,
        RlVariant::BothFixes,
    ];

    /// Every attempt carries the same key, so the provider executes the refund once.
    pub fn keyed(self) -> bool {
        matches!(self, RlVariant::IdempotencyKey | RlVariant::BothFixes)
    }

    /// Only the outermost layer retries; the others fail fast.
    pub fn one_authority(self) -> bool {
        matches!(self, RlVariant::OneRetryAuthority | RlVariant::BothFixes)
    }

    /// The outermost layer stops at the deadline (a Schedule-To-Close timeout).
    pub fn enforces_deadline(self) -> bool {
        matches!(
            self,
            RlVariant::OneRetryAuthority | RlVariant::BothFixes | RlVariant::TemporalDefaults
        )
    }
}

impl Variants for RlVariant {
    const ALL: &'static [RlVariant] = &RlVariant::ALL;
}

/// What the payment API does with the calls, by default (the learner may pick another outcome
/// at any call).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Behaviour {
    /// Performs the refund, answers after the caller's timeout.
    SlowSuccess,
    AlwaysTimesOut,
    /// Refuses `fail_first` calls with a 503, then answers in time.
    FailsThenSucceeds,
}

impl Behaviour {
    pub const ALL: [Behaviour; 3] = [
        Behaviour::SlowSuccess,
        Behaviour::AlwaysTimesOut,
        Behaviour::FailsThenSucceeds,
    ];

    /// The word a link uses for it (`downstream=always-timeout`), and its name.
    pub fn option(self) -> KnobOption {
        let (word, en, zh) = match self {
            Behaviour::SlowSuccess => (
                "slow-success",
                "Slow: refunds, answers late",
                "慢：退款了，应答太迟",
            ),
            Behaviour::AlwaysTimesOut => ("always-timeout", "Always times out", "总是超时"),
            Behaviour::FailsThenSucceeds => (
                "fail-k",
                "Fails k times, then succeeds",
                "先失败 k 次，然后成功",
            ),
        };
        KnobOption::new(word, Text::new(en, zh))
    }
}

/// The outcome of one call to the payment API.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// Performs the refund (or replays the saved result) and answers in time.
    Answer,
    /// Performs the refund (or replays), answers after the caller gave up.
    Late,
    /// Refuses at once with a 503; nothing performed.
    Refuse,
    /// Never reaches the provider's ledger; no answer.
    NoAnswer,
}

impl Outcome {
    pub const ALL: [Outcome; 4] = [
        Outcome::Answer,
        Outcome::Late,
        Outcome::Refuse,
        Outcome::NoAnswer,
    ];

    pub fn performs(self) -> bool {
        matches!(self, Outcome::Answer | Outcome::Late)
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum End {
    Succeeded,
    /// The outermost layer used its last attempt.
    GaveUp,
    /// The outermost layer's deadline passed.
    Deadline,
}

/// What the provider did with a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Effect {
    Nothing,
    /// Executed a refund (its number in the ledger, 1-based).
    Refunded(u32),
    /// Replayed the result saved under the key.
    Replayed,
}

/// One finished call, for the ledger and the chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallRec {
    pub start: u32,
    pub end: u32,
    pub outcome: Outcome,
    pub effect: Effect,
    /// The caller saw an answer (rather than a timeout).
    pub answered: bool,
}

/// One finished attempt or backoff of a layer, for the chart and the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpanRec {
    pub layer: u8,
    /// 1-based attempt number (for a backoff: the attempt it follows).
    pub attempt: u32,
    pub start: u32,
    pub end: u32,
    pub kind: SpanKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpanKind {
    Succeeded,
    /// The attempt's call timed out (innermost) or its inner layer gave up.
    Failed,
    /// Cut by the deadline.
    Cut,
    Backoff,
}

/// The state. Identity (`Eq`, `Ord`, `Hash`) is everything a decision reads; the history
/// (`spans`, `log`, `began`) is carried for the view only.
#[derive(Clone, Debug)]
pub struct RlState {
    pub now: u32,
    /// The current attempt (1-based) of each layer, outermost first.
    pub attempt: Vec<u32>,
    /// Calls issued so far, the one in flight included.
    pub calls: u32,
    /// Refunds the provider executed.
    pub refunds: u32,
    /// The provider holds a saved result for the key.
    pub saved: bool,
    /// `None` while a call is in flight (issued at `now`).
    pub end: Option<End>,
    /// The invariant's budget: the attempts one policy allows.
    pub budget: u32,
    /// When each layer's current attempt began.
    pub began: Vec<u32>,
    pub spans: Vec<SpanRec>,
    pub log: Vec<CallRec>,
}

impl RlState {
    fn identity(&self) -> (u32, &[u32], u32, u32, bool, Option<End>, u32) {
        (
            self.now,
            &self.attempt,
            self.calls,
            self.refunds,
            self.saved,
            self.end,
            self.budget,
        )
    }
}

crate::sim::kit::by_identity!(RlState);

/// One layer's retry policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    pub retry: Retry,
    /// Equal jitter: half the interval fixed, half drawn from the scenario's seed.
    pub jitter: bool,
}

/// The setup: variant and knobs.
#[derive(Clone, Debug)]
pub struct RetryLayersModel {
    pub variant: RlVariant,
    pub layers: u8,
    pub attempts: u32,
    pub behaviour: Behaviour,
    pub fail_first: u32,
    pub deadline_ms: u32,
    pub seed: u32,
    pub policies: Vec<Policy>,
}

impl RetryLayersModel {
    pub fn new(variant: RlVariant, knobs: &[u32]) -> RetryLayersModel {
        let k = |i: usize, lo: u32, hi: u32, d: u32| {
            knobs
                .get(i)
                .copied()
                .filter(|v| (lo..=hi).contains(v))
                .unwrap_or(d)
        };
        let layers = k(0, 1, 4, LAYERS_DEFAULT) as u8;
        let attempts = k(1, 1, 5, ATTEMPTS_DEFAULT);
        let behaviour = Behaviour::ALL[k(2, 0, 2, 0) as usize];
        let fail_first = k(3, 0, 30, 2);
        let deadline_ms = k(4, 10, 600, DEADLINE_DEFAULT_S) * 1000;
        let seed = k(5, 0, 9999, SEED_DEFAULT);
        let fixed = |attempts_max: u32, max_s: u64| Policy {
            retry: Retry {
                attempts_max,
                initial_interval_ms: 1_000,
                coefficient_tenths: 20,
                max_interval_ms: max_s * 1000,
            },
            jitter: false,
        };
        let policies = (0..layers)
            .map(|i| match (variant, i) {
                (RlVariant::TemporalDefaults, 0) => Policy {
                    retry: Retry::TEMPORAL_DEFAULT,
                    jitter: false,
                },
                (v, 0) if v.one_authority() => Policy {
                    jitter: true,
                    ..fixed(attempts, 30)
                },
                (v, _) if v.one_authority() => fixed(1, 10),
                _ => fixed(attempts, 10),
            })
            .collect();
        RetryLayersModel {
            variant,
            layers,
            attempts,
            behaviour,
            fail_first,
            deadline_ms,
            seed,
            policies,
        }
    }

    pub fn api_lane(&self) -> usize {
        self.layers as usize
    }

    /// The wait after attempt `attempt` of layer `layer` failed, jitter included.
    pub fn backoff_ms(&self, layer: usize, attempt: u32) -> u32 {
        let p = self.policies[layer];
        let wait = p.retry.backoff_ms(attempt) as u32;
        if !p.jitter {
            return wait;
        }
        let r = splitmix(((self.seed as u64) << 32) | ((layer as u64) << 24) | attempt as u64);
        wait / 2 + ((wait / 2) as u64 * (r % 1001) / 1000) as u32
    }

    /// The outcome the downstream's behaviour gives call number `call` (1-based).
    pub fn default_outcome(&self, call: u32) -> Outcome {
        match self.behaviour {
            Behaviour::SlowSuccess => Outcome::Late,
            Behaviour::AlwaysTimesOut => Outcome::NoAnswer,
            Behaviour::FailsThenSucceeds if call <= self.fail_first => Outcome::Refuse,
            Behaviour::FailsThenSucceeds => Outcome::Answer,
        }
    }

    /// How long the caller of a call issued at `now` waits before giving up.
    pub fn timeout_at(&self, now: u32) -> u32 {
        if self.variant.enforces_deadline() {
            CALL_TIMEOUT_MS.min(self.deadline_ms.saturating_sub(now))
        } else {
            CALL_TIMEOUT_MS
        }
    }

    /// The most calls the layers' attempts allow (`None`: unlimited), the formula's product.
    pub fn worst_case(&self) -> Option<u32> {
        self.policies.iter().try_fold(1u32, |n, p| {
            (p.retry.attempts_max > 0).then(|| n.saturating_mul(p.retry.attempts_max))
        })
    }

    /// Starts a fresh attempt at every layer from `from` inward and issues the call.
    fn start_inner(&self, s: &mut RlState, from: usize) {
        for l in from..self.layers as usize {
            if l > from {
                s.attempt[l] = 1;
            }
            s.began[l] = s.now;
        }
        s.calls += 1;
    }
}

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

fn layer_name(l: usize) -> Text {
    let [en, zh] = LAYERS[l.min(3)];
    Text::new(en, zh)
}

/// Seconds with at most one decimal: "5 s", "1.4 s".
pub fn secs(ms: u32) -> String {
    if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{}.{} s", ms / 1000, (ms % 1000) / 100)
    }
}

/// The call and what the failure does after it, for `next`.
impl RetryLayersModel {
    /// The innermost layer's call with outcome `o`: the provider's effect, the clock, the log.
    /// Whether the caller heard an answer in time.
    fn call(&self, s: &mut RlState, o: Outcome) -> bool {
        let start = s.now;
        let limit = self.timeout_at(start);
        let (took, answered) = match o {
            Outcome::Answer if ANSWER_MS <= limit => (ANSWER_MS, true),
            Outcome::Refuse if FAIL_MS <= limit => (FAIL_MS, false),
            _ => (limit, false),
        };
        let effect = if !o.performs() {
            Effect::Nothing
        } else if self.variant.keyed() && s.saved {
            Effect::Replayed
        } else {
            s.refunds += 1;
            s.saved |= self.variant.keyed();
            Effect::Refunded(s.refunds)
        };
        s.now += took;
        s.log.push(CallRec {
            start,
            end: s.now,
            outcome: o,
            effect,
            answered,
        });
        answered
    }

    /// The failure climbs until a layer has an attempt left, which backs off and starts its
    /// inner layers over; or no layer has, and the operation gives up.
    fn climb(&self, s: &mut RlState) {
        for l in (0..self.layers as usize).rev() {
            close(s, l, SpanKind::Failed);
            let p = self.policies[l];
            if !p.retry.allows(s.attempt[l] + 1) {
                continue;
            }
            let wait = self.backoff_ms(l, s.attempt[l]);
            if self.variant.enforces_deadline() && s.now + wait >= self.deadline_ms {
                // Schedule-To-Close: the next attempt would start too late; the whole
                // operation stops, the outer layers' attempts with it.
                for outer in (0..l).rev() {
                    close(s, outer, SpanKind::Cut);
                }
                s.end = Some(End::Deadline);
                return;
            }
            s.spans.push(SpanRec {
                layer: l as u8,
                attempt: s.attempt[l],
                start: s.now,
                end: s.now + wait,
                kind: SpanKind::Backoff,
            });
            s.now += wait;
            s.attempt[l] += 1;
            self.start_inner(s, l);
            return;
        }
        s.end = Some(End::GaveUp);
    }
}

/// Layer `l`'s current attempt ends now, as `kind`.
fn close(s: &mut RlState, l: usize, kind: SpanKind) {
    s.spans.push(SpanRec {
        layer: l as u8,
        attempt: s.attempt[l],
        start: s.began[l],
        end: s.now,
        kind,
    });
}

impl Model for RetryLayersModel {
    type State = RlState;
    type Act = Outcome;

    fn init(&self) -> RlState {
        let n = self.layers as usize;
        RlState {
            now: 0,
            attempt: vec![1; n],
            calls: 1,
            refunds: 0,
            saved: false,
            end: None,
            budget: self.attempts,
            began: vec![0; n],
            spans: Vec::new(),
            log: Vec::new(),
        }
    }

    fn actions(&self, s: &RlState, out: &mut Vec<Outcome>) {
        if s.end.is_some() {
            return;
        }
        let first = self.default_outcome(s.calls);
        out.push(first);
        out.extend(Outcome::ALL.into_iter().filter(|&o| o != first));
    }

    fn is_fault(&self, _: &Outcome) -> bool {
        false
    }

    fn fault_budget(&self) -> u8 {
        0
    }

    fn next(&self, s: &RlState, &o: &Outcome) -> RlState {
        let mut s = s.clone();
        let answered = self.call(&mut s, o);
        let n = self.layers as usize;
        if answered {
            for l in (0..n).rev() {
                close(&mut s, l, SpanKind::Succeeded);
            }
            s.end = Some(End::Succeeded);
        } else if self.variant.enforces_deadline() && s.now >= self.deadline_ms {
            for l in (0..n).rev() {
                close(&mut s, l, SpanKind::Cut);
            }
            s.end = Some(End::Deadline);
        } else {
            self.climb(&mut s);
        }
        s
    }

    fn invariants(&self) -> Vec<Invariant<RlState>> {
        vec![
            Invariant {
                name: Text::new("downstream calls within budget", "下游调用不超出预算"),
                kind: InvKind::Always,
                holds: tx!(
                    "At most {} calls to the payment API: the attempts one retry policy allows.",
                    "对支付 API 的调用最多 {} 次：一个重试策略允许的次数。",
                    self.attempts
                ),
                check: over_budget,
                rows: |_| Vec::new(),
            },
            Invariant {
                name: Text::new("refund executed at most once", "退款最多执行一次"),
                kind: InvKind::Always,
                holds: Text::new(
                    "The provider's ledger holds at most one refund for ord-1701.",
                    "支付方账本里 ord-1701 最多只有一笔退款。",
                ),
                check: refunded_twice,
                rows: |_| Vec::new(),
            },
        ]
    }
}

impl Present for RetryLayersModel {
    fn label(&self, s: &RlState, o: &Outcome) -> Text {
        let replay = self.variant.keyed() && s.saved;
        match (o, replay) {
            (Outcome::Answer, false) => Text::new(
                "Payment API: refund, answer in time",
                "支付 API：执行退款，及时应答",
            ),
            (Outcome::Answer, true) => Text::new(
                "Payment API: replay the saved result in time",
                "支付 API：及时重放已保存的结果",
            ),
            (Outcome::Late, false) => Text::new(
                "Payment API: refund, answer after the timeout",
                "支付 API：执行退款，超时后才应答",
            ),
            (Outcome::Late, true) => Text::new(
                "Payment API: replay the saved result, too late",
                "支付 API：重放已保存的结果，但太迟",
            ),
            (Outcome::Refuse, _) => Text::new(
                "Payment API: refuse with 503 (nothing done)",
                "支付 API：返回 503（什么都没做）",
            ),
            (Outcome::NoAnswer, _) => Text::new(
                "Payment API: no answer (nothing done)",
                "支付 API：无应答（什么都没做）",
            ),
        }
    }

    fn view(&self, s: &RlState) -> StateView {
        let mut lanes: Vec<LaneView> = (0..self.layers as usize)
            .map(|l| LaneView {
                name: layer_name(l),
                durable: false,
                down: false,
            })
            .collect();
        lanes.push(LaneView::store("Payment API", "支付 API"));
        let mut tables = vec![self.policy_table(s), self.ledger(s)];
        if self.variant.keyed() {
            tables.push(self.keys_table(s));
        }
        StateView {
            lanes,
            tables,
            metrics: self.metrics(s),
            tree: self.tree(s),
            chart: Some(self.chart(s)),
            figure: Some(self.figure(s)),
            ..StateView::default()
        }
    }

    /// Said directly: the view draws every call so far (a tree and a chart), so building it for
    /// each of a 625-step run's steps made replaying it quadratic. No lane goes down here.
    fn kept(&self, _: &RlState) -> Kept {
        Kept {
            down: vec![false; self.layers as usize + 1],
            waiting: Vec::new(),
        }
    }

    fn describe(&self, b: &RlState, o: &Outcome, s: &RlState) -> StepInfo {
        narrate::describe(self, b, *o, s)
    }

    fn intro(&self) -> Text {
        narrate::intro(self)
    }
}

fn over_budget(s: &RlState) -> Option<Text> {
    (s.calls > s.budget).then(|| {
        let (c, b) = (s.calls, s.budget);
        tx!(
            "{c} calls to the payment API against a budget of {b}: the layers' retries multiply.",
            "对支付 API 调用了 {c} 次，预算是 {b}：各层的重试相乘了。"
        )
    })
}

fn refunded_twice(s: &RlState) -> Option<Text> {
    (s.refunds > 1).then(|| {
        let r = s.refunds;
        tx!(
            "The provider executed {r} refunds for one operation: each retry without a stable key is a new refund.",
            "同一个操作，支付方执行了 {r} 笔退款：没有稳定键的每次重试都是一笔新退款。"
        )
    })
}

impl RetryLayersModel {
    fn metrics(&self, s: &RlState) -> Vec<Metric> {
        let count = |en: String, zh: String, n: u32| Metric::count(Text::new(en, zh), n);
        let (a, n) = (self.attempts, self.layers);
        let mut out = vec![
            count("downstream calls".into(), "下游调用".into(), s.calls),
            count("refunds executed".into(), "已执行的退款".into(), s.refunds),
        ];
        if self.variant.one_authority() {
            out.push(count(
                "shared attempt budget".into(),
                "共享尝试预算".into(),
                a,
            ));
        } else if let Some(w) = self.worst_case() {
            out.push(count(
                format!("attempts^layers = {a}^{n}"),
                format!("尝试次数^层数 = {a}^{n}"),
                w,
            ));
        } else {
            out.push(count(
                format!("inner layers per attempt: {a}^{}", n - 1),
                format!("每次 Activity 尝试的内层调用：{a}^{}", n - 1),
                a.pow(n as u32 - 1),
            ));
        }
        out.push(count(
            "elapsed (s)".into(),
            "已用时间（秒）".into(),
            s.now / 1000,
        ));
        out.push(count(
            "deadline (s)".into(),
            "截止时间（秒）".into(),
            self.deadline_ms / 1000,
        ));
        out
    }

    fn attempts_text(&self, l: usize) -> Text {
        match self.policies[l].retry.attempts_max {
            0 => Text::new("unlimited", "不限"),
            1 => Text::new("1 (fails fast)", "1（快速失败）"),
            a => Text::same(a.to_string()),
        }
    }

    fn policy_table(&self, s: &RlState) -> TableView {
        let mut t = TableView::memory("policies", Text::new("Retry policies", "重试策略"), 0);
        t.columns = vec![
            Text::new("layer", "层"),
            Text::new("attempts", "尝试次数"),
            Text::new("backoff", "退避"),
            Text::new("per-attempt timeout", "单次超时"),
            Text::new("now", "当前"),
        ];
        for (l, (&p, retries)) in self.policies.iter().zip(RETRIES).enumerate() {
            let r = p.retry;
            let (backoff, timeout) = (backoff_text(p), self.timeout_text(l));
            let of = match r.attempts_max {
                0 => String::new(),
                m => format!("/{m}"),
            };
            let now = match s.end {
                None => tx!("attempt {}{of}", "第 {}{of} 次尝试", s.attempt[l]),
                Some(End::Succeeded) => Text::new("succeeded", "成功"),
                Some(End::GaveUp) => Text::new("gave up", "已放弃"),
                Some(End::Deadline) => Text::new("stopped at the deadline", "到截止时间停止"),
            };
            t.rows.push(RowView::new(
                format!("layer-{l}"),
                vec![
                    layer_name(l).then(&Text::new(
                        format!("({})", retries[0]),
                        format!("（{}）", retries[1]),
                    )),
                    self.attempts_text(l),
                    backoff,
                    timeout,
                    now,
                ],
            ));
        }
        t
    }

    /// Layer `l`'s per-attempt timeout (and, for the outermost layer that enforces one, the
    /// total deadline).
    fn timeout_text(&self, l: usize) -> Text {
        let n = self.layers as usize;
        let timeout = if l + 1 == n {
            tx!("{} (the call)", "{}（调用）", secs(CALL_TIMEOUT_MS))
        } else {
            Text::new("until the inner layer gives up", "直到内层放弃")
        };
        if l == 0 && self.variant.enforces_deadline() {
            let d = secs(self.deadline_ms);
            timeout.then(&tx!(
                "; total {d} (Schedule-To-Close)",
                "；总计 {d}（Schedule-To-Close）"
            ))
        } else {
            timeout
        }
    }

    fn ledger(&self, s: &RlState) -> TableView {
        let mut t = TableView::durable(
            "ledger",
            Text::new("Provider's refund ledger", "支付方退款账本"),
            self.api_lane(),
        );
        t.columns = vec![
            Text::new("refund", "退款"),
            Text::new("call", "调用"),
            Text::new("idempotency key", "幂等键"),
            Text::new("amount", "金额"),
            Text::new("caller saw", "调用方看到"),
        ];
        t.empty = Text::new("(no refund executed)", "（没有执行任何退款）");
        let done: Vec<(usize, &CallRec)> = s
            .log
            .iter()
            .enumerate()
            .filter(|(_, c)| matches!(c.effect, Effect::Refunded(_)))
            .collect();
        let hidden = done.len().saturating_sub(LEDGER_ROWS);
        if hidden > 0 {
            t.rows.push(RowView::new(
                "earlier".into(),
                vec![
                    tx!("… {hidden} earlier refunds", "……更早的 {hidden} 笔退款"),
                    Text::same(""),
                    Text::same(""),
                    Text::same(""),
                    Text::same(""),
                ],
            ));
        }
        for &(i, c) in &done[hidden..] {
            let Effect::Refunded(k) = c.effect else {
                continue;
            };
            let key = if self.variant.keyed() {
                Text::same(KEY)
            } else {
                Text::new("(none)", "（无）")
            };
            let saw = if c.answered {
                Text::new("200 refunded", "200 已退款")
            } else {
                Text::new("timeout", "超时")
            };
            t.rows.push(RowView::new(
                format!("re-{k}"),
                vec![
                    Text::same(format!("re_{k}")),
                    Text::same(format!("#{}", i + 1)),
                    key,
                    Text::same("80.00"),
                    saw,
                ],
            ));
        }
        t
    }

    fn keys_table(&self, s: &RlState) -> TableView {
        let mut t = TableView::durable(
            "keys",
            Text::new("Saved idempotent results", "已保存的幂等结果"),
            self.api_lane(),
        );
        t.columns = vec![
            Text::new("key", "键"),
            Text::new("parameters", "参数"),
            Text::new("saved result", "保存的结果"),
            Text::new("replays", "重放次数"),
        ];
        if s.saved {
            let replays = s
                .log
                .iter()
                .filter(|c| c.effect == Effect::Replayed)
                .count();
            t.rows.push(RowView::new(
                "key".into(),
                vec![
                    Text::same(KEY),
                    Text::same("ch_1701 · 80.00"),
                    Text::new("refund re_1 succeeded", "退款 re_1 成功"),
                    Text::same(replays.to_string()),
                ],
            ));
        }
        t
    }

    /// The call tree: every attempt of the current path's layers, earlier attempts summed up
    /// in one line each, the call in flight (or the last one) at the bottom.
    /// The multiplication: every layer's attempts so far, each layer's most being its own
    /// attempts times the layer above's (3 → 9 → 27); the innermost layer's attempts are the
    /// calls to the API. A layer with unlimited attempts (Temporal's default) multiplies by what
    /// it has made.
    fn figure(&self, s: &RlState) -> Figure {
        let mut levels = Vec::new();
        let mut most = 1u32;
        for l in 0..self.layers as usize {
            let finished = (s.spans.iter())
                .filter(|r| r.layer as usize == l && r.kind != SpanKind::Backoff)
                .count() as u32;
            let current_done = (s.spans.iter()).any(|r| {
                r.layer as usize == l && r.kind != SpanKind::Backoff && r.start == s.began[l]
            });
            let done = finished + u32::from(!current_done && s.calls > 0);
            most = match self.policies[l].retry.attempts_max {
                0 => most.max(done),
                a => most.saturating_mul(a),
            };
            levels.push(Level {
                name: layer_name(l),
                done,
                total: most.max(done),
            });
        }
        // The innermost layer's attempts are the calls to the API.
        let factors: Vec<String> = levels
            .iter()
            .scan(1u32, |above, l| {
                let f = l.total / (*above).max(1);
                *above = l.total;
                Some(f.to_string())
            })
            .take(self.layers as usize)
            .collect();
        let calls = s.calls;
        Figure {
            title: Text::new("Calls that reach the payment API", "到达支付 API 的调用"),
            name: Text::new(
                format!(
                    "{calls} calls reached the payment API, of at most {} ({}); {} executed",
                    most.max(calls),
                    factors.join(" × "),
                    match s.refunds {
                        1 => "1 refund".to_string(),
                        n => format!("{n} refunds"),
                    }
                ),
                format!(
                    "{calls} 次调用到达支付 API，最多 {}（{}）；执行了 {} 笔退款",
                    most.max(calls),
                    factors.join(" × "),
                    s.refunds
                ),
            ),
            body: FigureBody::Tree(levels),
            shows: vec![0, 1],
        }
    }

    fn tree(&self, s: &RlState) -> Vec<TreeItem> {
        let mut out: Vec<TreeItem> = (0..self.layers as usize)
            .flat_map(|l| self.layer_items(s, l))
            .collect();
        out.extend(self.call_item(s));
        out
    }

    /// Layer `l`'s attempts within its parent's current attempt: the finished ones, then the
    /// current one.
    fn layer_items(&self, s: &RlState, l: usize) -> Vec<TreeItem> {
        let mut out = Vec::new();
        // This layer's attempts within its parent's current attempt.
        let since = if l == 0 { 0 } else { s.began[l - 1] };
        for r in s
            .spans
            .iter()
            .filter(|r| r.layer as usize == l && r.kind != SpanKind::Backoff)
            .filter(|r| r.start >= since && r.attempt < s.attempt[l])
        {
            let calls = s
                .log
                .iter()
                .filter(|c| c.start >= r.start && c.start < r.end)
                .count();
            let (status, tone) = self.span_status(r.kind, calls);
            out.push(TreeItem {
                depth: l as u8,
                label: self.attempt_label(l, r.attempt),
                status,
                tone,
            });
        }
        let current = s
            .spans
            .iter()
            .rev()
            .find(|r| r.layer as usize == l && r.kind != SpanKind::Backoff)
            .filter(|r| r.attempt == s.attempt[l]);
        let (status, tone) = match (s.end, current) {
            (None, _) => (Text::new("running", "运行中"), Tone::Active),
            (Some(_), Some(r)) => {
                let calls = s.log.iter().filter(|c| c.start >= r.start).count();
                self.span_status(r.kind, calls)
            }
            (Some(_), None) => (Text::new("not reached", "未到达"), Tone::Quiet),
        };
        out.push(TreeItem {
            depth: l as u8,
            label: self.attempt_label(l, s.attempt[l]),
            status,
            tone,
        });
        out
    }

    /// The Payment API call at the bottom of the tree: in flight, or how the last one ended.
    fn call_item(&self, s: &RlState) -> Option<TreeItem> {
        let (label, status, tone) = match (s.end, s.log.last()) {
            (None, _) => (
                tx!("Payment API call #{}", "支付 API 调用 #{}", s.calls),
                Text::new("in flight", "进行中"),
                Tone::Active,
            ),
            (Some(_), Some(c)) => {
                let (st, tone) = call_status(c);
                (
                    tx!("Payment API call #{}", "支付 API 调用 #{}", s.log.len()),
                    st,
                    tone,
                )
            }
            (Some(_), None) => return None,
        };
        Some(TreeItem {
            depth: self.layers,
            label,
            status,
            tone,
        })
    }

    fn attempt_label(&self, l: usize, a: u32) -> Text {
        let name = layer_name(l);
        match self.policies[l].retry.attempts_max {
            0 => Text::new(
                format!("{} · attempt {a}", name.en),
                format!("{} · 第 {a} 次尝试", name.zh),
            ),
            m => Text::new(
                format!("{} · attempt {a} of {m}", name.en),
                format!("{} · 第 {a}/{m} 次尝试", name.zh),
            ),
        }
    }

    fn span_status(&self, kind: SpanKind, calls: usize) -> (Text, Tone) {
        let c = Text::new(
            format!("({calls} call{})", if calls == 1 { "" } else { "s" }),
            format!("（{calls} 次调用）"),
        );
        match kind {
            SpanKind::Succeeded => (Text::new("✓ succeeded", "✓ 成功").then(&c), Tone::Good),
            SpanKind::Failed => (Text::new("✕ failed", "✕ 失败").then(&c), Tone::Bad),
            SpanKind::Cut => (
                Text::new("✕ cut by the deadline", "✕ 被截止时间切断").then(&c),
                Tone::Bad,
            ),
            SpanKind::Backoff => (Text::new("waiting", "等待中"), Tone::Quiet),
        }
    }

    fn chart(&self, s: &RlState) -> SpanChart {
        let n = self.layers as usize;
        let mut rows: Vec<Text> = (0..n).map(layer_name).collect();
        rows.push(Text::new("Payment API", "支付 API"));
        let mut spans: Vec<Span> = s
            .spans
            .iter()
            .map(|r| Span {
                row: r.layer,
                start: r.start,
                end: r.end,
                tone: match r.kind {
                    SpanKind::Succeeded => Tone::Good,
                    SpanKind::Failed | SpanKind::Cut => Tone::Bad,
                    SpanKind::Backoff => Tone::Quiet,
                },
                wait: r.kind == SpanKind::Backoff,
            })
            .collect();
        if s.end.is_none() {
            // The open attempts, drawn up to now with a sliver so they show.
            spans.extend((0..=n).map(|l| Span {
                row: l as u8,
                start: s.began.get(l).copied().unwrap_or(s.now),
                end: s.now,
                tone: Tone::Active,
                wait: false,
            }));
        }
        spans.extend(s.log.iter().map(|c| Span {
            row: n as u8,
            start: c.start,
            end: c.end,
            tone: match c.effect {
                Effect::Refunded(_) if !c.answered => Tone::Bad,
                _ if c.answered => Tone::Good,
                _ => Tone::Quiet,
            },
            wait: false,
        }));
        let (calls, refunds, t) = (s.calls, s.refunds, secs(s.now));
        SpanChart {
            rows,
            spans,
            now: s.now,
            deadline: Some(self.deadline_ms),
            summary: tx!(
                "{calls} calls and {refunds} refunds in {t}; deadline {}.",
                "{t} 内 {calls} 次调用、{refunds} 笔退款；截止时间 {}。",
                secs(self.deadline_ms)
            ),
        }
    }
}

/// What became of a finished call, in words.
pub fn call_status(c: &CallRec) -> (Text, Tone) {
    let what = match c.effect {
        Effect::Refunded(k) => tx!("refund re_{k} executed", "执行了退款 re_{k}"),
        Effect::Replayed => Text::new("saved result replayed", "重放了保存的结果"),
        Effect::Nothing => Text::new("nothing done", "什么都没做"),
    };
    let saw = match (c.answered, c.outcome) {
        (true, _) => Text::new("; answered in time", "；及时应答"),
        (false, Outcome::Refuse) => Text::new("; 503", "；503"),
        (false, _) => Text::new("; caller timed out", "；调用方超时"),
    };
    let tone = match (c.answered, c.effect) {
        (true, _) => Tone::Good,
        (false, Effect::Refunded(_)) => Tone::Bad,
        _ => Tone::Quiet,
    };
    let mut t = what;
    t.en.push_str(&saw.en);
    t.zh.push_str(&saw.zh);
    (t, tone)
}

fn knob(key: &'static str, name: [&str; 2], default: u32, min: u32, max: u32) -> Knob {
    Knob {
        key,
        name: Text::new(name[0], name[1]),
        default,
        min,
        max,
        step: 1,
        options: Vec::new(),
    }
}

/// The retry-layers scenario: three teams each configure "3 attempts".
pub struct RetryLayers;

impl RetryLayers {
    pub fn model(variant: RlVariant) -> RetryLayersModel {
        RetryLayersModel::new(variant, &[])
    }
}

impl Scenario for RetryLayers {
    type Model = RetryLayersModel;
    type Variant = RlVariant;

    fn model_of(variant: usize, _budget: Option<u8>, knobs: &[u32]) -> RetryLayersModel {
        RetryLayersModel::new(RlVariant::at(variant), knobs)
    }

    fn meta(&self) -> ScenarioMeta {
        let variants = [
            VariantMeta::mistake("every-layer-retries", ["Every layer retries", "每一层都重试"],
                                 ["Three layers of three attempts: 27 calls, and on a slow provider 27 refunds.",
                                  "三层各重试三次：27 次调用；支付方慢时就是 27 笔退款。"])
            .failing("00", ["let the payment API answer after the timeout: every layer retries, and each late answer is one more refund.",
                            "让支付 API 在超时之后才回答：每一层都重试，每个迟到的回答都多一笔退款。"]),
            VariantMeta::mistake("one-retry-authority", ["One retry authority", "单一重试权威"],
                                 ["Only the outermost layer retries, within a shared budget and a deadline: 3 calls, but no key, so 3 refunds on a slow provider.",
                                  "只有最外层重试，受共享预算和截止时间约束：3 次调用；但没有键，支付方慢时仍有 3 笔退款。"])
            .failing("00", ["let the payment API answer after the timeout: 3 calls, and each one a refund.",
                            "让支付 API 在超时之后才回答：3 次调用，每次都是一笔退款。"]),
            VariantMeta::mistake("idempotency-key", ["Stable idempotency key", "稳定幂等键"],
                                 ["The same key on every attempt: one refund, but still 27 calls of load.",
                                  "每次尝试都带同一个键：只有一笔退款，但负载仍是 27 次调用。"])
            .failing("000", ["answer late: the key turns the retries into replays, but the calls still multiply.",
                             "让回答迟到：幂等键把重试变成重放，但调用次数照样成倍增长。"]),
            VariantMeta::mistake("temporal-defaults", ["Temporal defaults", "Temporal 默认策略"],
                                 ["Unlimited activity attempts (1 s × 2.0, max 100 s), bounded only by Schedule-To-Close.",
                                  "Activity 尝试次数不限（1 秒 × 2.0，最多 100 秒），只受 Schedule-To-Close 限制。"])
            .failing("00", ["answer late: attempts go on until the deadline, each a refund.",
                            "让回答迟到：尝试一直持续到截止时间，每次都是一笔退款。"]),
            VariantMeta::fix("both-fixes", ["One authority + stable key", "单一权威 + 稳定键"],
                             ["Both fixes: at most 3 calls, and the provider executes the refund once.",
                              "两个修复一起：最多 3 次调用，支付方只执行一次退款。"])
            .hinted(["answer late as often as you like: at most 3 calls, one refund.",
                     "随便让回答迟到多少次：最多 3 次调用，一笔退款。"]),
        ];
        ScenarioMeta {
            slug: "retry-layers",
            theme: Text::new("Retries, timeouts and recovery", "重试、超时与恢复"),
            title: Text::new(
                "Retry layering: 3 × 3 × 3 = 27",
                "重试叠加：3 × 3 × 3 = 27",
            ),
            summary: Text::new(
                "A workflow engine, a graph framework and an agent SDK each retry three times: one refund becomes 27 calls, and on a slow provider, 27 refunds.",
                "工作流引擎、图框架和 Agent SDK 各重试三次：一次退款变成 27 次调用；支付方慢时，就是 27 笔退款。",
            ),
            variants: variants
                .into_iter()
                .map(|m| VariantMeta {
                    fault_budget: 0,
                    fixed_by: (!m.fixed).then_some("both-fixes"),
                    ..m
                })
                .collect(),
            knobs: vec![
                knob("layers", ["Layers that retry", "重试的层数"], LAYERS_DEFAULT, 1, 4),
                knob("attempts", ["Attempts per layer", "每层尝试次数"], ATTEMPTS_DEFAULT, 1, 5),
                Knob {
                    options: Behaviour::ALL.map(Behaviour::option).to_vec(),
                    ..knob("downstream", ["Payment API behaviour", "支付 API 的表现"], 0, 0, 2)
                },
                knob("fail-k", ["k (fails k times)", "k（先失败 k 次）"], 2, 0, 30),
                Knob {
                    step: 10,
                    ..knob("deadline", ["Deadline (s)", "截止时间（秒）"], DEADLINE_DEFAULT_S, 10, 600)
                },
                knob("seed", ["Jitter seed", "抖动种子"], SEED_DEFAULT, 0, 9999),
            ],
            moves_heading: Some(Text::new("You are the payment API", "由你扮演支付 API")),
        }
    }
}

/// Speaker notes for presenting this scenario. Not part of `meta()`: the page fetches them on
/// demand from `notes.json`, which `content::notes_json` writes (see `content`).
pub(crate) fn notes() -> Notes {
    Notes::new(
        ["Each layer that retries three times multiplies the others: an SDK, a graph framework and a workflow engine make 27 calls from one request, and on a slow provider without a stable key, 27 refunds. Name one retry authority (the outer layer, a shared budget and a deadline, backoff with jitter), let the inner layers fail fast, and send the same idempotency key on every attempt. Both fixes are needed.",
         "每一层各重试三次就会相乘：SDK、图框架、工作流引擎让一个请求变成 27 次调用；支付方慢又没有稳定键时，就是 27 笔退款。明确唯一的重试权威（外层、共享预算和截止时间、带抖动的退避），内层快速失败，并在每次尝试中发送同一个幂等键。两个修复缺一不可。"],
        ["“Temporal retries by default?” Activities do: 1 s, ×2, up to 100 s, unlimited attempts — bounded only by Schedule-To-Close unless you set maximum attempts. “Combine them all for robustness?” Three retry policies and three states; decide who owns the run.",
         "“Temporal 默认就会重试？”Activity 会：1 秒、×2、最多 100 秒、次数不限——除非设置最大次数，否则只受 Schedule-To-Close 限制。“全都组合起来更稳？”三套重试、三套状态；先决定谁拥有这次运行。"],
        ["“Temporal and LangGraph are the same thing.” “The more frameworks, the more production-grade.”",
         "“Temporal 和 LangGraph 完全等价。”“框架越多，系统就越生产级。”"],
    )
}

/// A policy's backoff: initial interval × coefficient up to a maximum, plus jitter if any.
fn backoff_text(p: Policy) -> Text {
    let r = p.retry;
    let mut backoff = if r.attempts_max == 1 {
        Text::same("—")
    } else {
        tx!(
            "{} × {}.{}, max {}",
            "{} × {}.{}，最多 {}",
            secs(r.initial_interval_ms as u32),
            r.coefficient_tenths / 10,
            r.coefficient_tenths % 10,
            secs(r.max_interval_ms as u32)
        )
    };
    if p.jitter {
        backoff = backoff.then(&Text::new("+ jitter", "+ 抖动"));
    }
    backoff
}
