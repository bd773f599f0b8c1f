//! # Dead letters: bounded retries, a record for every give-up, and replay that re-checks
//!
//! **Setting.** A payment consumer reads partition payments-0 in order: m-1 charges ord-1701,
//! m-2 charges ord-1702 in a schema (v3) this consumer cannot read, m-3 charges ord-1703. The
//! provider may answer 503 (a fault: a burst of them).
//!
//! **The mistakes.** Retrying every error in place, forever, leaves the unreadable m-2 at the
//! head: the partition stops and m-3 waits behind it (`retry-forever`). Giving up by acknowledging
//! and logging loses the message with nothing to replay it from (`log-and-drop`). Replaying a
//! parked charge as it was, after the order was cancelled or after another replay, charges a
//! cancelled order or charges twice (`blind-replay`).
//!
//! **The fixes.** Classify errors: a 503 is retried with exponential backoff and jitter, at most
//! three attempts including the first; an unreadable message is not retried. A message that gives
//! up is parked in `dead_letters` with its reason, attempts, owner and age alert, in the same
//! step as its acknowledgement (`dead-letter`). Replay re-reads the order (locking it against a
//! cancel) and its payments before charging, and refuses a stale command (`checked-replay`).

use crate::sim::kit::Variants;
use crate::sim::{
    Figure, FigureBody, InvKind, Invariant, LaneView, LedgerRow, Meter, Metric, Model, Notes,
    Present, RowView, Scenario, ScenarioMeta, StateView, StepInfo, TableView, Text, Unit,
    VariantMeta,
};
use crate::tx;

const BROKER: usize = 0;
const CONSUMER: usize = 1;
const PROVIDER: usize = 2;
const DB: usize = 3;
const OPERATOR: usize = 4;

/// Attempts a message may take, the first included (the fixes' policy).
pub const MAX_ATTEMPTS: u8 = 3;
/// How many attempts on one message the run watches `retry-forever` make before it stops
/// watching: the consumer would go on for ever.
pub const WATCHED: u8 = 6;
/// The unreadable message (m-2), by index.
pub const POISON: u8 = 1;
/// The orders the three messages charge, by message index.
pub const ORDERS: [&str; 3] = ["ord-1701", "ord-1702", "ord-1703"];
/// Jitter, in tenths of the base delay (under half of it), drawn per message and attempt.
const JITTER: [u16; 5] = [3, 1, 4, 1, 2];

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DlVariant {
    RetryForever,
    LogAndDrop,
    DeadLetter,
    BlindReplay,
    CheckedReplay,
}

impl DlVariant {
    pub const ALL: [DlVariant; 5] = [
        DlVariant::RetryForever,
        DlVariant::LogAndDrop,
        DlVariant::DeadLetter,
        DlVariant::BlindReplay,
        DlVariant::CheckedReplay,
    ];

    /// Whether the consumer classifies errors and bounds attempts (every variant but the first).
    pub fn bounded(self) -> bool {
        self != DlVariant::RetryForever
    }

    /// Whether a message that gives up is parked with a record (not acknowledged and logged).
    pub fn parks(self) -> bool {
        !matches!(self, DlVariant::RetryForever | DlVariant::LogAndDrop)
    }

    /// Whether an operator replays what is parked.
    pub fn replays(self) -> bool {
        matches!(self, DlVariant::BlindReplay | DlVariant::CheckedReplay)
    }
}

impl Variants for DlVariant {
    const ALL: &'static [DlVariant] = &DlVariant::ALL;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OrderStatus {
    Pending,
    Paid,
    Cancelled,
}

/// A message in the partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Msg {
    /// 0–2: m-1…m-3; a replay's copy keeps its original's index and counts its replay.
    pub of: u8,
    /// 0 for the original; n for the n-th replay of it.
    pub replay: u8,
    pub attempts: u8,
    /// When the next attempt may start (tenths of a second).
    pub next_at: u16,
}

impl Msg {
    pub fn name(&self) -> String {
        match self.replay {
            0 => format!("m-{}", self.of + 1),
            r => format!("m-{}/r{r}", self.of + 1),
        }
    }

    pub fn order(&self) -> &'static str {
        ORDERS[self.of as usize]
    }

    /// Whether this consumer cannot read it: the original m-2 (its replay comes with the
    /// reader for schema v3).
    pub fn unreadable(&self) -> bool {
        self.of == POISON && self.replay == 0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reason {
    /// Schema v3, which this consumer cannot read: a permanent error.
    Schema,
    /// 503 on every attempt: transient, but the attempts are spent.
    Unavailable,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Parked {
    Parked,
    Replayed,
    RefusedCancelled,
    RefusedPaid,
}

/// A row of `dead_letters`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Dead {
    pub of: u8,
    pub reason: Reason,
    pub attempts: u8,
    pub status: Parked,
    /// How many times an operator has replayed it.
    pub replays: u8,
}

/// A charge the provider made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Charge {
    pub msg: Msg,
    /// The order was cancelled when the charge went through.
    pub stale: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DlState {
    /// Tenths of a second since the three messages were published.
    pub clock: u16,
    pub queue: Vec<Msg>,
    pub dead: Vec<Dead>,
    pub orders: [OrderStatus; 3],
    pub charges: Vec<Charge>,
    /// Messages acknowledged with only a log line (`log-and-drop`).
    pub dropped: Vec<Msg>,
    /// Refused replays (checked replay acknowledges them, and the record says so).
    pub refused: Vec<Msg>,
    /// Calls to the provider, 503s included.
    pub calls: u8,
    /// The most attempts any one message has taken.
    pub most: u8,
}

impl DlState {
    pub fn head(&self) -> Option<&Msg> {
        self.queue.first()
    }

    fn dead_of(&self, of: u8) -> Option<usize> {
        self.dead.iter().position(|d| d.of == of)
    }

    /// Whether charge `i` is for an order an earlier charge already took money for.
    pub fn repeats(&self, i: usize) -> bool {
        let of = self.charges[i].msg.of;
        self.charges[..i].iter().any(|c| c.msg.of == of)
    }

    /// Charges of one order beyond its first.
    pub fn extra_charges(&self) -> u32 {
        (0..self.charges.len()).filter(|&i| self.repeats(i)).count() as u32
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DlAct {
    /// The consumer takes the head message and handles it (a charge answers 200).
    Handle,
    /// The provider answers 503 to the head message's charge.
    Unavailable,
    /// The operator deploys the v3 reader and replays a parked message (by original index).
    Replay(u8),
    /// A second operator replays the same message again.
    ReplayAgain(u8),
    /// The customer cancels an order whose charge is parked.
    Cancel(u8),
}

#[derive(Clone)]
pub struct DeadLetterModel {
    pub variant: DlVariant,
    pub budget: u8,
}

impl DeadLetterModel {
    /// Whether handling `m` now calls the provider and can meet a 503: the originals only
    /// (replays happen after the burst), so a message is parked at most once.
    fn may_meet_503(&self, s: &DlState, m: &Msg) -> bool {
        m.replay == 0 && !m.unreadable() && self.check(s, m).is_none()
    }

    /// What a checked replay refuses `m` for, if anything.
    pub fn check(&self, s: &DlState, m: &Msg) -> Option<Parked> {
        if self.variant != DlVariant::CheckedReplay || m.replay == 0 {
            return None;
        }
        match s.orders[m.of as usize] {
            OrderStatus::Cancelled => Some(Parked::RefusedCancelled),
            OrderStatus::Paid => Some(Parked::RefusedPaid),
            OrderStatus::Pending => None,
        }
    }

    /// The wait before attempt `n + 1` of message `of`: 1 s, 2 s, 4 s… plus under half of
    /// that again as jitter; `retry-forever` retries every second.
    pub fn backoff(&self, of: u8, n: u8) -> u16 {
        if !self.variant.bounded() {
            return 10;
        }
        let base = 10u16 << (n.saturating_sub(1).min(4));
        base + base * JITTER[((of + n) % 5) as usize] / 10
    }

    fn may_retry(&self, m: &Msg, transient: bool) -> bool {
        !self.variant.bounded() || (transient && m.attempts < MAX_ATTEMPTS)
    }

    /// The head message failed (`transient`: a 503): retry it, or give up on it.
    fn failed(&self, s: &mut DlState, transient: bool) {
        let Some(m) = s.queue.first_mut() else { return };
        if self.may_retry(m, transient) {
            m.next_at = s.clock + self.backoff(m.of, m.attempts);
            return;
        }
        let m = s.queue.remove(0);
        if self.variant.parks() {
            let reason = if transient {
                Reason::Unavailable
            } else {
                Reason::Schema
            };
            s.dead.push(Dead {
                of: m.of,
                reason,
                attempts: m.attempts,
                status: Parked::Parked,
                replays: 0,
            });
        } else {
            s.dropped.push(m);
        }
    }

    fn handle(&self, s: &mut DlState) {
        let Some(m) = s.queue.first_mut() else { return };
        s.clock = s.clock.max(m.next_at);
        m.attempts += 1;
        let m = *m;
        s.most = s.most.max(m.attempts);
        if m.unreadable() {
            self.failed(s, false);
            return;
        }
        if let Some(refusal) = self.check(s, &m) {
            s.queue.remove(0);
            s.refused.push(m);
            if let Some(d) = s.dead_of(m.of) {
                s.dead[d].status = refusal;
            }
            return;
        }
        s.calls += 1;
        s.queue.remove(0);
        let o = m.of as usize;
        s.charges.push(Charge {
            msg: m,
            stale: s.orders[o] == OrderStatus::Cancelled,
        });
        s.orders[o] = OrderStatus::Paid;
    }

    fn unavailable(&self, s: &mut DlState) {
        let Some(m) = s.queue.first_mut() else { return };
        s.clock = s.clock.max(m.next_at);
        m.attempts += 1;
        s.most = s.most.max(m.attempts);
        s.calls += 1;
        self.failed(s, true);
    }

    fn replay(s: &mut DlState, of: u8) {
        let Some(d) = s.dead_of(of) else { return };
        s.dead[d].replays += 1;
        s.dead[d].status = Parked::Replayed;
        s.queue.push(Msg {
            of,
            replay: s.dead[d].replays,
            attempts: 0,
            next_at: s.clock,
        });
    }
}

impl Model for DeadLetterModel {
    type State = DlState;
    type Act = DlAct;

    fn init(&self) -> DlState {
        let msg = |of| Msg {
            of,
            replay: 0,
            attempts: 0,
            next_at: 0,
        };
        DlState {
            clock: 0,
            queue: vec![msg(0), msg(1), msg(2)],
            dead: Vec::new(),
            orders: [OrderStatus::Pending; 3],
            charges: Vec::new(),
            dropped: Vec::new(),
            refused: Vec::new(),
            calls: 0,
            most: 0,
        }
    }

    fn actions(&self, s: &DlState, out: &mut Vec<DlAct>) {
        if let Some(m) = s.head().filter(|m| m.attempts < WATCHED) {
            out.push(DlAct::Handle);
            if self.may_meet_503(s, m) {
                out.push(DlAct::Unavailable);
            }
        }
        if !self.variant.replays() {
            return;
        }
        for d in &s.dead {
            if d.status == Parked::Parked && s.queue.is_empty() {
                out.push(DlAct::Replay(d.of));
            } else if d.replays == 1 {
                out.push(DlAct::ReplayAgain(d.of));
            }
        }
        for d in &s.dead {
            if s.orders[d.of as usize] == OrderStatus::Pending {
                out.push(DlAct::Cancel(d.of));
            }
        }
    }

    fn is_fault(&self, a: &DlAct) -> bool {
        matches!(
            a,
            DlAct::Unavailable | DlAct::ReplayAgain(_) | DlAct::Cancel(_)
        )
    }

    fn fault_budget(&self) -> u8 {
        self.budget
    }

    fn next(&self, s: &DlState, a: &DlAct) -> DlState {
        let mut s = s.clone();
        match *a {
            DlAct::Handle => self.handle(&mut s),
            DlAct::Unavailable => self.unavailable(&mut s),
            DlAct::Replay(of) | DlAct::ReplayAgain(of) => Self::replay(&mut s, of),
            DlAct::Cancel(of) => s.orders[of as usize] = OrderStatus::Cancelled,
        }
        s
    }

    fn invariants(&self) -> Vec<Invariant<DlState>> {
        vec![
            Invariant {
                name: Text::new("the queue keeps draining", "队列持续排空"),
                kind: InvKind::Eventually,
                holds: Text::new(
                    "Every message leaves the partition: charged, parked or refused.",
                    "每条消息都会离开分区：扣款完成、停放或被拒绝。",
                ),
                check: stuck,
                rows: |s| s.queue.iter().map(|m| ("queue", m.name())).collect(),
            },
            Invariant {
                name: Text::new(
                    "no message disappears without a record",
                    "没有消息无记录地消失",
                ),
                kind: InvKind::Always,
                holds: Text::new(
                    "A message that gives up is parked in dead_letters, with its reason.",
                    "放弃处理的消息都停放在 dead_letters 里，并写明原因。",
                ),
                check: lost,
                rows: |s| s.dropped.iter().map(|m| ("log", m.name())).collect(),
            },
            Invariant {
                name: Text::new("no stale command executes", "过期命令不会执行"),
                kind: InvKind::Always,
                holds: Text::new(
                    "No charge goes through on a cancelled order.",
                    "已取消的订单不会被扣款。",
                ),
                check: stale,
                rows: |s| {
                    (0..s.charges.len())
                        .filter(|&i| s.charges[i].stale)
                        .map(|i| ("ledger", format!("ch-{i}")))
                        .collect()
                },
            },
            Invariant {
                name: Text::new("no order is charged twice", "订单不会被扣两次款"),
                kind: InvKind::Always,
                holds: Text::new(
                    "The provider holds at most one charge per order.",
                    "支付方对每个订单最多只有一笔扣款。",
                ),
                check: twice,
                rows: |s| {
                    (0..s.charges.len())
                        .filter(|&i| s.repeats(i))
                        .map(|i| ("ledger", format!("ch-{i}")))
                        .collect()
                },
            },
        ]
    }
}

/// "0.0 s", "12.6 s".
pub fn secs(tenths: u16) -> String {
    format!("{}.{} s", tenths / 10, tenths % 10)
}

fn stuck(s: &DlState) -> Option<Text> {
    let head = s.head()?;
    let (h, n) = (head.name(), head.attempts);
    let behind = s.queue.len() - 1;
    Some(tx!(
        "{h} is still at the head of payments-0 after {n} attempts, and would be tried for ever; {behind} message(s) wait behind it.",
        "{h} 尝试了 {n} 次仍堵在 payments-0 的队头，而且会被永远重试；后面还有 {behind} 条消息在等。"
    ))
}

fn lost(s: &DlState) -> Option<Text> {
    let m = s.dropped.first()?;
    let name = m.name();
    Some(tx!(
        "{name} was acknowledged with only a log line: it is gone from the partition, and nothing records it to replay from.",
        "{name} 只留下一行日志就被确认了：它离开了分区，却没有任何记录可供重放。"
    ))
}

fn stale(s: &DlState) -> Option<Text> {
    let c = s.charges.iter().find(|c| c.stale)?;
    let (m, o) = (c.msg.name(), c.msg.order());
    Some(tx!(
        "{m} charged {o} after the customer cancelled it: the replay ran an old command as it was.",
        "{m} 在客户取消 {o} 之后仍然扣了款：重放原样执行了一条过期命令。"
    ))
}

fn twice(s: &DlState) -> Option<Text> {
    let i = (1..s.charges.len()).find(|&i| s.repeats(i))?;
    let o = s.charges[i].msg.order();
    Some(tx!(
        "The provider charged {o} twice: two replays of one parked command each charged.",
        "支付方对 {o} 扣了两次款：同一条停放命令的两次重放各扣了一次。"
    ))
}

impl Present for DeadLetterModel {
    fn label(&self, s: &DlState, a: &DlAct) -> Text {
        view::label(self, s, *a)
    }

    fn view(&self, s: &DlState) -> StateView {
        StateView {
            lanes: vec![
                LaneView::store("Broker · payments-0", "消息代理 · payments-0"),
                LaneView::process("Payment consumer", "支付消费者"),
                LaneView::store("Payment provider", "支付方"),
                LaneView::store("Database", "数据库"),
                LaneView::process("Operator", "值班运维"),
            ],
            tables: view::tables(self, s),
            metrics: vec![
                Metric::count(
                    Text::new("messages in the partition", "分区内消息"),
                    s.queue.len() as u32,
                ),
                Metric::count(
                    Text::new("calls to the provider", "调用支付方次数"),
                    u32::from(s.calls),
                ),
                Metric::count(Text::new("dead letters", "死信"), s.dead.len() as u32),
            ],
            figure: Some(figure(self.variant, s)),
            ..StateView::default()
        }
    }

    fn describe(&self, b: &DlState, a: &DlAct, s: &DlState) -> StepInfo {
        narrate::describe(self, b, *a, s)
    }

    fn intro(&self) -> Text {
        narrate::intro(self.variant)
    }
}

/// The retry variants: attempts on one message against the cap. The others: what was meant
/// against what happened — messages lost, stale and extra charges.
fn figure(v: DlVariant, s: &DlState) -> Figure {
    if matches!(v, DlVariant::RetryForever | DlVariant::DeadLetter) {
        let wait = s.queue.last().map_or(0, |_| s.clock);
        return Figure {
            title: Text::new("Attempts on one message", "单条消息的尝试次数"),
            name: tx!(
                "{} attempts on one message against a cap of {MAX_ATTEMPTS}; the last in the partition has waited {}",
                "单条消息尝试 {} 次，上限 {MAX_ATTEMPTS} 次；分区里最后一条已等待 {}",
                s.most,
                secs(wait)
            ),
            body: FigureBody::Meter(Meter {
                value: u32::from(s.most),
                limit: u32::from(MAX_ATTEMPTS),
                limit_name: Text::new("cap, the first included", "上限（含首次）"),
                unit: Unit::Count,
                parts: Vec::new(),
            }),
            shows: vec![0],
        };
    }
    let stale = s.charges.iter().filter(|c| c.stale).count() as u32;
    let row = |en: &str, zh: &str, executed| LedgerRow {
        name: Text::new(en, zh),
        intended: 0,
        executed,
        unit: Unit::Count,
    };
    let (rows, shows) = if v == DlVariant::LogAndDrop {
        let lost = s.dropped.len() as u32;
        (
            vec![row(
                "messages gone without a record",
                "无记录消失的消息",
                lost,
            )],
            vec![1],
        )
    } else {
        (
            vec![
                row("charges on cancelled orders", "对已取消订单的扣款", stale),
                row(
                    "second charges of one order",
                    "同一订单的第二笔扣款",
                    s.extra_charges(),
                ),
            ],
            vec![2, 3],
        )
    };
    let lost = s.dropped.len();
    Figure {
        title: Text::new("Meant against happened", "应有与实有"),
        name: tx!(
            "{lost} messages lost, {stale} charges on cancelled orders, {} second charges; none meant",
            "丢失消息 {lost} 条，对已取消订单扣款 {stale} 笔，重复扣款 {} 笔；本应都是 0",
            s.extra_charges()
        ),
        body: FigureBody::Ledger(rows),
        shows,
    }
}

mod narrate;
mod view;

/// The dead-letter scenario.
pub struct DeadLetter;

impl DeadLetter {
    pub fn model(variant: DlVariant, budget: u8) -> DeadLetterModel {
        DeadLetterModel { variant, budget }
    }
}

impl Scenario for DeadLetter {
    type Model = DeadLetterModel;
    type Variant = DlVariant;

    fn model_of(variant: usize, budget: Option<u8>, _knobs: &[u32]) -> DeadLetterModel {
        Self::model(DlVariant::at(variant), budget.unwrap_or(3))
    }

    fn meta(&self) -> ScenarioMeta {
        let variants = [
            VariantMeta::mistake("retry-forever", ["Retry in place, forever", "原地永远重试"],
                ["Every error is retried where it is, every second: the unreadable m-2 never leaves the head, and m-3 waits behind it.",
                 "每个错误都原地每秒重试：读不懂的 m-2 永远离不开队头，m-3 在它后面一直等。"])
            .failing("0000000", ["just let it run: m-2 fails, again and again.",
                                 "直接运行：m-2 一次又一次失败。"]),
            VariantMeta::mistake("log-and-drop", ["Give up: log and acknowledge", "放弃：记日志后确认"],
                ["Errors are classified and attempts bounded, but giving up acknowledges the message with a log line: nothing is left to replay.",
                 "错误分了类，尝试也有上限，但放弃时只记一行日志就确认消息：没有留下任何可重放的东西。"])
            .failing("00", ["let m-2 be handled: it is acknowledged and gone.",
                            "让 m-2 被处理：它被确认，然后消失。"]),
            VariantMeta::fix("dead-letter", ["Bounded retries, then a dead letter", "有界重试，然后进死信"],
                ["503s are retried with backoff and jitter, three attempts at most, the first included; m-2 is parked at once with its reason, owner and alert. The partition drains.",
                 "503 按退避加抖动重试，最多三次（含首次）；m-2 立即停放，写明原因、负责人和告警。分区能排空。"])
            .hinted(["⚡ answer 503 three times to m-1: it is parked too, and m-3 still goes through.",
                     "对 m-1 ⚡ 连续三次回 503：它也被停放，m-3 照样处理。"]),
            VariantMeta::mistake("blind-replay", ["Replay as it was", "原样重放"],
                ["The operator deploys the v3 reader and replays m-2 as it was: after the customer cancelled ord-1702, or replayed twice, it charges anyway.",
                 "运维部署了 v3 读取器，把 m-2 原样重放：即使客户已取消 ord-1702，或者重放了两次，它照样扣款。"])
            .failing("000100", ["⚡ cancel ord-1702 while m-2 is parked, then replay it.",
                               "在 m-2 停放期间 ⚡ 取消 ord-1702，然后重放它。"]),
            VariantMeta::fix("checked-replay", ["Replay that re-checks", "重放前先核对"],
                ["The replayed command first locks and re-reads ord-1702 and its payments: a cancelled or paid order refuses it, and the record says why.",
                 "重放的命令先锁定并重读 ord-1702 及其支付：订单已取消或已支付就拒绝执行，并在记录里写明原因。"])
            .hinted(["⚡ cancel ord-1702 before the replay, or ⚡ replay it twice: the check refuses.",
                     "重放前 ⚡ 取消 ord-1702，或 ⚡ 重放两次：核对会拒绝。"]),
        ];
        ScenarioMeta {
            slug: "dead-letter",
            theme: Text::new("Retries, timeouts and recovery", "重试、超时与恢复"),
            title: Text::new(
                "Dead letters: give up with a record, replay with a check",
                "死信：放弃要留记录，重放要先核对",
            ),
            summary: Text::new(
                "Retrying a poison message for ever stops the partition; giving up without a record loses it; replaying it blindly charges a cancelled order.",
                "永远重试毒消息会堵死分区；放弃而不留记录会丢消息；盲目重放会给已取消的订单扣款。",
            ),
            variants: variants
                .into_iter()
                .map(|m| VariantMeta {
                    // Three: enough for a 503 on every attempt of m-1, so it is parked too.
                    fault_budget: 3,
                    fixed_by: (!m.fixed).then_some(match m.slug {
                        "blind-replay" => "checked-replay",
                        _ => "dead-letter",
                    }),
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
        ["Retry only what may recover (a 503, a rate limit), with a bounded number of attempts that counts the first, exponential backoff and jitter. An error that will not recover (a schema this consumer cannot read, invalid input) is not retried. A message that gives up is parked with its reason, attempts, owner and an age alert — a dead letter is a queue of work someone owns, not the end of it. Replay re-checks the order and the payment first: an old command for a cancelled order must be refused.",
         "只重试可能恢复的错误（503、限流），尝试次数有上限且包含首次，指数退避加抖动。不会恢复的错误（读不懂的 schema、非法参数）不重试。放弃的消息带着原因、尝试次数、负责人和积压告警停放——死信是有人负责的待处理工作，不是终点。重放前先核对订单和支付：已取消订单的旧命令必须拒绝。"],
        ["“Why not retry for ever?” One poison message stops its partition (head-of-line) and a 503 burst becomes a storm of calls. “Can we replay the whole DLQ after the fix?” Not blindly: each command is re-checked against the order's current state, the payments it has and how long the operation stays valid.",
         "“为什么不永远重试？”一条毒消息就能堵住整个分区（队头阻塞），一阵 503 会被放大成调用风暴。“修好以后能把死信全部重放吗？”不能无差别重放：每条命令都要按订单当前状态、已有支付和操作有效期重新核对。"],
        ["“The DLQ is where failed messages go to die.” “Acknowledge and log the error, we can grep for it later.”",
         "“死信队列就是失败消息的归宿。”“确认掉再记个错误日志，以后 grep 就行。”"],
    )
}
