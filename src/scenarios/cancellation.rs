//! # Cancellation: "cancelled" on the screen, refunded in the ledger
//!
//! **Setting.** A support agent refunds three items of order ord-1701 as one batch (b-9):
//! op-1 40.00, op-2 25.00, op-3 35.00. A Node service records the three operations in
//! `refund_operations` (PENDING), then sends them to the payment provider one at a time, each a
//! `fetch` with an `AbortSignal`; the agent's screen shows the progress and a Cancel button,
//! which aborts the batch's `AbortController`.
//!
//! **The bug.** AbortSignal is cooperative: it makes the *caller* stop waiting; a request that
//! has left may still arrive, and a refund the provider has committed stays committed (Node.js
//! docs, nodejs.org/api/globals.html#class-abortsignal). `cancel-means-undone` treats the
//! `AbortError` (or a `TimeoutError`) as "nothing happened": it deletes every operation not yet
//! SUCCEEDED and tells the agent "Cancelled: 1 of 3 refunded, the rest cancelled", while the
//! provider's ledger holds op-2 as well.
//!
//! **Half a fix.** `cancel-then-ask-once` stops new work, keeps the operation whose request
//! was in flight (CANCEL_REQUESTED, or UNKNOWN after a timeout) and asks the provider once;
//! "not found" is taken as NOT_EXECUTED. That holds only while the provider answers a
//! connection's requests in order. A real client drops the aborted connection and asks on a
//! new one, so the query can overtake the refund (the fault `Overtake`): "not found", then the
//! refund commits.
//!
//! **The fix.** `cancel-then-reconcile` keeps the outcome unknown until the provider can no
//! longer execute the request. After a cancel it voids the request by its key: either the
//! provider has refunded ("already refunded") or the key is voided and the refund, arriving
//! later, is refused. After a timeout it retries with the same key, which replays or executes
//! once. Partial completion is reported: "Cancelled: 2 of 3 refunded, 1 not started".

use crate::sim::kit::{sorted_set, Variants};
use crate::sim::{
    given, CodeView, Cursor, Figure, FigureBody, InvKind, Invariant, LaneView, LedgerRow, Metric,
    Model, Notes, Present, RowView, Scenario, ScenarioMeta, StateView, StepInfo, TableView, Text,
    Unit, VariantMeta,
};
use crate::tx;

mod narrate;

pub(crate) const SCREEN: usize = 0;
pub(crate) const SERVICE: usize = 1;
pub(crate) const DB: usize = 2;
pub(crate) const PSP: usize = 3;

/// The batch: three refunds, in cents.
pub const AMOUNTS: [u32; 3] = [4_000, 2_500, 3_500];

const UNDONE_JS: &str = include_str!("cancellation/undone.js");
const ASK_ONCE_JS: &str = include_str!("cancellation/ask-once.js");
const RECONCILE_JS: &str = include_str!("cancellation/reconcile.js");

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CaVariant {
    CancelMeansUndone,
    CancelThenAskOnce,
    CancelThenReconcile,
}

impl CaVariant {
    pub const ALL: [CaVariant; 3] = [
        CaVariant::CancelMeansUndone,
        CaVariant::CancelThenAskOnce,
        CaVariant::CancelThenReconcile,
    ];

    fn naive(self) -> bool {
        self == CaVariant::CancelMeansUndone
    }

    /// Settles by the key (a void, a same-key retry) instead of trusting one "not found".
    fn settles(self) -> bool {
        self == CaVariant::CancelThenReconcile
    }
}

impl Variants for CaVariant {
    const ALL: &'static [CaVariant] = &CaVariant::ALL;
}

/// An operation's row in `refund_operations`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OpStatus {
    Pending,
    Sent,
    /// The request was in flight when the agent cancelled: its outcome is not known yet.
    CancelRequested,
    /// The request timed out: its outcome is not known yet.
    Unknown,
    Succeeded,
    NotExecuted,
    /// The row was deleted (the mistake's "so nothing happened").
    Deleted,
}

impl OpStatus {
    pub fn sql(self) -> &'static str {
        match self {
            OpStatus::Pending => "PENDING",
            OpStatus::Sent => "SENT",
            OpStatus::CancelRequested => "CANCEL_REQUESTED",
            OpStatus::Unknown => "UNKNOWN",
            OpStatus::Succeeded => "SUCCEEDED",
            OpStatus::NotExecuted => "NOT_EXECUTED",
            OpStatus::Deleted => "(deleted)",
        }
    }

    fn unsettled(self) -> bool {
        matches!(self, OpStatus::CancelRequested | OpStatus::Unknown)
    }
}

/// A request to the provider, an answer on its way back, or what the service awaits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Msg {
    /// `POST /refunds` with `Idempotency-Key: op`.
    Refund(u8),
    /// `provider.findRefund(op)`: has the key a refund?
    Query(u8),
    /// `provider.voidRefund(op)`: refund under this key never, unless it already has.
    Void(u8),
}

impl Msg {
    pub fn op(self) -> u8 {
        match self {
            Msg::Refund(o) | Msg::Query(o) | Msg::Void(o) => o,
        }
    }
}

/// What the service awaits: the answer to one of its requests.
pub type Wait = Msg;

/// How the batch ended, as the screen puts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum End {
    Done,
    /// Stopped, with what was refunded and what was not started.
    Cancelled,
    /// The mistake's catch after the agent's cancel: "the rest cancelled".
    Undone,
    /// The mistake's catch after a timeout.
    Failed,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Screen {
    /// The "Refund 3 items" button.
    Ready,
    Working,
    /// The agent clicked Cancel; the screen waits for the service's word.
    Cancelling,
    /// The final message: which operations it says were refunded (a bit each), how many it
    /// says were not started, and how it ended.
    Told {
        refunded: u8,
        not_started: u8,
        end: End,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CaState {
    pub screen: Screen,
    /// `refund_operations` rows (empty until the batch starts).
    pub ops: Vec<OpStatus>,
    /// The loop's position: the operation being (or next to be) sent.
    pub next: u8,
    pub wait: Option<Wait>,
    /// `controller.signal.aborted`.
    pub aborted: bool,
    /// Requests the provider has received and not yet handled, in order.
    pub inbox: Vec<Msg>,
    /// Refunds the provider committed, in order (the operation each was for).
    pub ledger: Vec<u8>,
    /// Keys the provider has voided: a refund under one of them is refused.
    pub voided: Vec<u8>,
    /// Answers on their way to the service: what they answer, and whether the provider has a
    /// refund under that key.
    pub answers: Vec<(Msg, bool)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaAct {
    /// The agent clicks "Refund 3 items".
    Start,
    Send,
    /// The provider handles the first request it holds.
    Provider,
    Receive,
    /// The aborted `fetch` rejects with AbortError.
    Abort,
    /// `AbortSignal.timeout(5000)` fires: the answer never came.
    Timeout,
    /// Ask the provider what became of the operation (once).
    Query,
    /// Void the operation's request by its key.
    Void,
    /// Send the refund again with the same key: it replays or executes once.
    Retry,
    /// A query's or a void's own timeout: ask again.
    AskTimeout,
    /// The loop ends: all sent, or the signal was aborted before the next send.
    Finish,
    // Faults.
    Cancel,
    LoseAnswer,
    /// The provider handles the second request it holds first: a query or a void sent on a new
    /// connection overtakes the refund still on the old one.
    Overtake,
}

#[derive(Clone)]
pub struct CancellationModel {
    pub variant: CaVariant,
    pub budget: u8,
}

pub(crate) fn op_id(o: u8) -> String {
    format!("op-{}", o + 1)
}

pub(crate) fn money(cents: u32) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

pub(crate) fn amount(o: u8) -> u32 {
    AMOUNTS.get(o as usize).copied().unwrap_or(0)
}

/// "op-1 and op-2", "op-1, op-2 and op-3", "none".
pub(crate) fn list(ops: &[u8]) -> Text {
    let names: Vec<String> = ops.iter().map(|&o| op_id(o)).collect();
    match names.len() {
        0 => Text::new("none", "没有"),
        1 => Text::same(names[0].clone()),
        n => Text::new(
            format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
            format!("{} 和 {}", names[..n - 1].join("、"), names[n - 1]),
        ),
    }
}

fn bits(mask: u8) -> Vec<u8> {
    (0..AMOUNTS.len() as u8)
        .filter(|o| mask & (1 << o) != 0)
        .collect()
}

impl CaState {
    fn current(&self) -> Option<OpStatus> {
        self.ops.get(self.next as usize).copied()
    }

    fn answered(&self, m: Msg) -> bool {
        self.answers.iter().any(|a| a.0 == m)
    }

    fn at_provider(&self, m: Msg) -> bool {
        self.inbox.contains(&m)
    }

    fn done(&self) -> bool {
        matches!(self.screen, Screen::Told { .. })
    }

    /// Operations in the provider's ledger, in order, without repeats.
    pub fn refunded(&self) -> Vec<u8> {
        sorted_set(self.ledger.iter().copied())
    }

    /// The provider has refunded `o`, or still holds a refund for it that no void stops.
    fn may_run(&self, o: u8) -> bool {
        self.ledger.contains(&o)
            || (self.inbox.contains(&Msg::Refund(o)) && !self.voided.contains(&o))
    }

    fn succeeded_mask(&self) -> u8 {
        self.ops
            .iter()
            .enumerate()
            .filter(|(_, s)| **s == OpStatus::Succeeded)
            .fold(0, |m, (o, _)| m | 1 << o)
    }
}

impl CancellationModel {
    /// How the service settles an operation whose outcome it does not know: ask once, or, in
    /// the fix, void it by its key after a cancel and send it again with the key after a
    /// timeout (either way the provider can no longer run it behind the service's back).
    fn settle(&self, s: &CaState) -> CaAct {
        match (self.variant.settles(), s.aborted) {
            (false, _) => CaAct::Query,
            (true, true) => CaAct::Void,
            (true, false) => CaAct::Retry,
        }
    }

    /// The provider handles the `i`-th request it holds. A refund under a voided key is
    /// refused; a void of a refunded key answers "already refunded". Only a caller still
    /// waiting hears the answer: an aborted fetch has closed its connection.
    fn handle(s: &mut CaState, i: usize) {
        if i >= s.inbox.len() {
            return;
        }
        let m = s.inbox.remove(i);
        let o = m.op();
        match m {
            Msg::Refund(_) if !s.voided.contains(&o) && !s.ledger.contains(&o) => s.ledger.push(o),
            Msg::Void(_) if !s.ledger.contains(&o) && !s.voided.contains(&o) => s.voided.push(o),
            _ => {}
        }
        let listening = s.wait == Some(m) && !(matches!(m, Msg::Refund(_)) && s.aborted);
        if listening {
            s.answers.push((m, s.ledger.contains(&o)));
        }
    }

    /// The mistake's `catch`: every row not SUCCEEDED deleted, the screen told the rest.
    fn give_up(&self, s: &mut CaState, end: End) {
        for st in s.ops.iter_mut() {
            if *st != OpStatus::Succeeded {
                *st = OpStatus::Deleted;
            }
        }
        s.wait = None;
        s.screen = Screen::Told {
            refunded: s.succeeded_mask(),
            not_started: 0,
            end,
        };
    }
}

/// The transitions too long for a line of `next`, one per action.
impl CancellationModel {
    fn on_receive(&self, s: &mut CaState) {
        if let Some(m) = s.wait {
            if let Some(i) = s.answers.iter().position(|x| x.0 == m) {
                let (_, found) = s.answers.remove(i);
                let o = s.next as usize;
                if let Some(st) = given(s.ops.get_mut(o), "the operation awaited") {
                    *st = if found {
                        OpStatus::Succeeded
                    } else {
                        OpStatus::NotExecuted
                    };
                }
                s.next += 1;
                s.wait = None;
            }
        }
    }

    fn on_abort(&self, s: &mut CaState, a: &CaAct) {
        if let Some(Msg::Refund(o)) = s.wait {
            s.answers.retain(|x| x.0 != Msg::Refund(o));
            if self.variant.naive() {
                let end = if *a == CaAct::Abort {
                    End::Undone
                } else {
                    End::Failed
                };
                self.give_up(s, end);
            } else {
                if let Some(st) = given(s.ops.get_mut(o as usize), "the operation awaited") {
                    *st = if *a == CaAct::Abort {
                        OpStatus::CancelRequested
                    } else {
                        OpStatus::Unknown
                    };
                }
                s.wait = None;
            }
        }
    }

    fn on_query(&self, s: &mut CaState, a: &CaAct) {
        let o = s.next;
        let m = match *a {
            CaAct::Query => Msg::Query(o),
            CaAct::Void => Msg::Void(o),
            _ => Msg::Refund(o),
        };
        s.inbox.push(m);
        s.wait = Some(m);
    }

    fn on_finish(&self, s: &mut CaState) {
        let stopped = (s.next as usize) < s.ops.len();
        if stopped && self.variant.naive() {
            // The aborted signal makes the next fetch reject at once: the same catch.
            self.give_up(s, End::Undone);
        } else {
            let mut not_started = 0;
            for st in s.ops.iter_mut() {
                if *st == OpStatus::Pending {
                    *st = OpStatus::NotExecuted;
                    not_started += 1;
                }
            }
            s.screen = Screen::Told {
                refunded: s.succeeded_mask(),
                not_started,
                end: if stopped { End::Cancelled } else { End::Done },
            };
        }
    }
}

impl Model for CancellationModel {
    type State = CaState;
    type Act = CaAct;

    fn init(&self) -> CaState {
        CaState {
            screen: Screen::Ready,
            ops: Vec::new(),
            next: 0,
            wait: None,
            aborted: false,
            inbox: Vec::new(),
            ledger: Vec::new(),
            voided: Vec::new(),
            answers: Vec::new(),
        }
    }

    fn actions(&self, s: &CaState, out: &mut Vec<CaAct>) {
        if s.screen == Screen::Ready {
            out.push(CaAct::Start);
            return;
        }
        // The service.
        if !s.done() {
            match s.wait {
                None => match s.current() {
                    Some(OpStatus::Pending) if !s.aborted => out.push(CaAct::Send),
                    Some(st) if st.unsettled() => out.push(self.settle(s)),
                    _ => out.push(CaAct::Finish),
                },
                Some(Msg::Refund(o)) => {
                    let m = Msg::Refund(o);
                    if s.aborted {
                        out.push(CaAct::Abort);
                    } else if s.answered(m) {
                        out.push(CaAct::Receive);
                    } else if !s.at_provider(m) {
                        out.push(CaAct::Timeout);
                    }
                }
                Some(m) => {
                    if s.answered(m) {
                        out.push(CaAct::Receive);
                    } else if !s.at_provider(m) {
                        out.push(CaAct::AskTimeout);
                    }
                }
            }
        }
        // The provider.
        if !s.inbox.is_empty() {
            out.push(CaAct::Provider);
        }
        if matches!(s.screen, Screen::Working) && !s.aborted {
            out.push(CaAct::Cancel);
        }
        if !s.answers.is_empty() {
            out.push(CaAct::LoseAnswer);
        }
        if s.inbox.len() > 1 {
            out.push(CaAct::Overtake);
        }
    }

    fn is_fault(&self, a: &CaAct) -> bool {
        matches!(a, CaAct::Cancel | CaAct::LoseAnswer | CaAct::Overtake)
    }

    fn fault_budget(&self) -> u8 {
        self.budget
    }

    fn next(&self, s: &CaState, a: &CaAct) -> CaState {
        let mut s = s.clone();
        match *a {
            CaAct::Start => {
                s.screen = Screen::Working;
                s.ops = vec![OpStatus::Pending; AMOUNTS.len()];
            }
            CaAct::Send => {
                let o = s.next;
                if let Some(st) = given(s.ops.get_mut(o as usize), "an operation left to send") {
                    *st = OpStatus::Sent;
                }
                s.inbox.push(Msg::Refund(o));
                s.wait = Some(Wait::Refund(o));
            }
            CaAct::Provider => Self::handle(&mut s, 0),
            CaAct::Overtake => {
                Self::handle(&mut s, 1);
            }
            CaAct::Receive => self.on_receive(&mut s),
            CaAct::Abort | CaAct::Timeout => self.on_abort(&mut s, a),
            CaAct::Query | CaAct::Void | CaAct::Retry => self.on_query(&mut s, a),
            CaAct::AskTimeout => s.wait = None,
            CaAct::Finish => self.on_finish(&mut s),
            CaAct::Cancel => {
                s.aborted = true;
                s.screen = Screen::Cancelling;
            }
            CaAct::LoseAnswer => {
                if !s.answers.is_empty() {
                    s.answers.remove(0);
                }
            }
        }
        s
    }

    fn invariants(&self) -> Vec<Invariant<CaState>> {
        vec![
            Invariant {
                name: Text::new(
                    "the screen matches the provider's ledger",
                    "屏幕上说的与支付方账本一致",
                ),
                kind: InvKind::Eventually,
                holds: Text::new(
                    "When nothing is left to happen, the refunds the agent is told about are exactly the refunds in the provider's ledger.",
                    "所有动作都结束后，告诉客服的退款恰好就是支付方账本里的退款。",
                ),
                check: told_otherwise,
                rows: |s| (0..s.ledger.len()).map(|i| ("ledger", format!("re-{i}"))).collect(),
            },
            Invariant {
                name: Text::new(
                    "nothing written off while the provider may still refund it",
                    "支付方仍可能退款时，不把操作记为没发生",
                ),
                kind: InvKind::Always,
                holds: Text::new(
                    "No row of refund_operations is deleted or marked NOT_EXECUTED while the provider has refunded it or holds a refund for it that no void stops.",
                    "支付方已经退款，或手里还有未被作废的退款请求时，refund_operations 里对应的行不会被删除，也不会记为 NOT_EXECUTED。",
                ),
                check: written_off_while_unknown,
                rows: |s| {
                    let off = (0..s.ops.len() as u8).filter(|&o| written_off(s, o) && s.may_run(o));
                    off.map(|o| ("ops", op_id(o))).collect()
                },
            },
        ]
    }
}

impl Present for CancellationModel {
    fn label(&self, s: &CaState, a: &CaAct) -> Text {
        narrate::label(self, s, *a)
    }

    fn view(&self, s: &CaState) -> StateView {
        let told = match s.screen {
            Screen::Told { refunded, .. } => bits(refunded).len() as u32,
            _ => 0,
        };
        let unknown = s
            .ops
            .iter()
            .filter(|st| matches!(st, OpStatus::Sent) || st.unsettled())
            .count() as u32;
        StateView {
            lanes: vec![
                LaneView::process("Agent's screen", "客服的屏幕"),
                LaneView::process("Refund service (Node)", "退款服务（Node）"),
                LaneView::store("Database", "数据库"),
                LaneView::store("Payment provider", "支付方"),
            ],
            tables: vec![
                self.screen_table(s),
                self.ops_table(s),
                self.ledger_table(s),
                self.service_table(s),
                self.wire_table(s),
            ],
            metrics: vec![
                Metric::count(
                    Text::new("refunds at the provider", "支付方的退款"),
                    s.refunded().len() as u32,
                ),
                Metric::count(
                    Text::new("refunds the screen reports", "屏幕报告的退款"),
                    told,
                ),
                Metric::count(Text::new("outcomes not known", "结果未知的操作"), unknown),
            ],
            code: Some(self.code(s)),
            figure: Some(figure(s, told)),
            ..StateView::default()
        }
    }

    fn describe(&self, b: &CaState, a: &CaAct, s: &CaState) -> StepInfo {
        narrate::describe(self, b, *a, s)
    }

    fn intro(&self) -> Text {
        narrate::intro(self.variant)
    }
}

/// What the provider did against what the agent's screen says, and the operations whose outcome
/// nobody knows yet: cancel is not undo.
fn figure(s: &CaState, told: u32) -> Figure {
    let made = s.refunded().len() as u32;
    // Written off while the provider ran it or still may: the second invariant, counted.
    let deleted = (0..s.ops.len() as u8)
        .filter(|&o| written_off(s, o) && s.may_run(o))
        .count() as u32;
    Figure {
        title: Text::new("Refunds: the provider against the screen", "退款：支付方与屏幕"),
        name: Text::new(
            format!(
                "the provider made {}, the screen reports {told}; {} written off",
                crate::sim::counted(made, "refund", "refunds"),
                crate::sim::counted(deleted, "refund", "refunds")
            ),
            format!("支付方执行了 {made} 笔退款，屏幕报告 {told} 笔；{deleted} 笔已执行或仍在路上的退款被当作没发生"),
        ),
        body: FigureBody::Ledger(vec![
            LedgerRow {
                name: Text::new("refunds made (the screen's count expected)", "已执行的退款（屏幕上的数为应有）"),
                intended: told,
                executed: made,
                unit: Unit::Count,
            },
            LedgerRow {
                name: Text::new("written off, yet made or still on its way", "被当作没发生，却已执行或仍在路上"),
                intended: 0,
                executed: deleted,
                unit: Unit::Count,
            },
        ]),
        shows: vec![0, 1],
    }
}

fn told_otherwise(s: &CaState) -> Option<Text> {
    let ledger = s.refunded();
    if let Some(Msg::Refund(o)) = s.inbox.iter().find(|m| matches!(m, Msg::Refund(_))) {
        let id = op_id(*o);
        return Some(tx!(
            "Not settled: the provider still holds the request for {id}.",
            "尚未落定：支付方手里还有 {id} 的请求。"
        ));
    }
    match s.screen {
        Screen::Told { refunded, .. } => {
            let said = bits(refunded);
            (said != ledger).then(|| {
                let (a, b) = (list(&said), list(&ledger));
                Text::new(
                    format!(
                        "The screen says {} of 3 refunded ({}), but the provider's ledger holds refunds for {}.",
                        said.len(),
                        a.en,
                        b.en
                    ),
                    format!(
                        "屏幕上说 3 笔中退了 {} 笔（{}），支付方账本里却有 {} 的退款。",
                        said.len(),
                        a.zh,
                        b.zh
                    ),
                )
            })
        }
        _ => Some(Text::new(
            "The agent has not been told how the batch ended.",
            "客服还没有被告知这批退款的结果。",
        )),
    }
}

/// The service has given `o` up as not done: its row deleted, or marked NOT_EXECUTED.
fn written_off(s: &CaState, o: u8) -> bool {
    matches!(
        s.ops.get(o as usize),
        Some(OpStatus::Deleted | OpStatus::NotExecuted)
    )
}

fn written_off_while_unknown(s: &CaState) -> Option<Text> {
    (0..s.ops.len() as u8).find_map(|o| {
        (written_off(s, o) && s.may_run(o)).then(|| {
            let id = op_id(o);
            let (en, zh) = if s.ledger.contains(&o) {
                (
                    "the provider has already refunded it",
                    "支付方已经退了这笔款",
                )
            } else {
                (
                    "its request is still waiting at the provider, and nothing stops it",
                    "它的请求还在支付方等待处理，没有什么能拦住它",
                )
            };
            let (did_en, did_zh) = match s.ops[o as usize] {
                OpStatus::Deleted => (
                    "was deleted as if nothing had happened",
                    "被当作什么都没发生删掉了",
                ),
                _ => ("says NOT_EXECUTED", "记为 NOT_EXECUTED"),
            };
            tx!(
                "The row of {id} {did_en}, but {en}.",
                "{id} 的记录{did_zh}，但{zh}。"
            )
        })
    })
}

impl CancellationModel {
    /// The screen's message, in words.
    pub fn message(s: &CaState) -> Text {
        match s.screen {
            Screen::Ready => Text::new("Refund 3 items of ord-1701?", "为 ord-1701 退 3 件商品？"),
            Screen::Working => {
                let done = s.ops.iter().filter(|x| **x == OpStatus::Succeeded).count();
                tx!(
                    "Refunding… {done} of 3 done",
                    "退款中…… 3 笔已完成 {done} 笔"
                )
            }
            Screen::Cancelling => Text::new("Cancelling…", "正在取消……"),
            Screen::Told {
                refunded,
                not_started,
                end,
            } => {
                let n = bits(refunded).len();
                match end {
                    End::Done => tx!("Done: {n} of 3 refunded", "完成：3 笔退了 {n} 笔"),
                    End::Cancelled => {
                        // Sent, then settled as not executed (voided, or "not found").
                        let off = s
                            .ops
                            .iter()
                            .filter(|x| **x == OpStatus::NotExecuted)
                            .count();
                        match off.saturating_sub(not_started as usize) {
                            0 => tx!(
                                "Cancelled: {n} of 3 refunded, {not_started} not started",
                                "已取消：3 笔退了 {n} 笔，{not_started} 笔未开始"
                            ),
                            k => tx!(
                                "Cancelled: {n} of 3 refunded, {k} stopped, {not_started} not started",
                                "已取消：3 笔退了 {n} 笔，{k} 笔已拦下，{not_started} 笔未开始"
                            ),
                        }
                    }
                    End::Undone => tx!(
                        "Cancelled: {n} of 3 refunded, the rest cancelled",
                        "已取消：3 笔退了 {n} 笔，其余已撤销"
                    ),
                    End::Failed => tx!(
                        "Failed: {n} of 3 refunded, the rest not refunded",
                        "失败：3 笔退了 {n} 笔，其余没有退"
                    ),
                }
            }
        }
    }

    fn screen_table(&self, s: &CaState) -> TableView {
        let mut t = TableView::memory(
            "screen",
            Text::new("What the agent sees", "客服看到的"),
            SCREEN,
        );
        t.columns = vec![Text::new("message", "消息"), Text::new("button", "按钮")];
        let button = match s.screen {
            Screen::Ready => Text::new("Refund 3 items", "退 3 件"),
            Screen::Working => Text::new("Cancel", "取消"),
            Screen::Cancelling => Text::new("Cancel (pressed)", "取消（已按下）"),
            Screen::Told { .. } => Text::new("(none)", "（无）"),
        };
        t.rows.push(RowView::new(
            "message".into(),
            vec![Self::message(s), button],
        ));
        t
    }

    fn ops_table(&self, s: &CaState) -> TableView {
        let mut t = TableView::durable("ops", Text::same("refund_operations"), DB);
        t.columns = ["operation_id", "batch_id", "amount", "status"]
            .into_iter()
            .map(Text::same)
            .collect();
        t.empty = Text::new("(no batch yet)", "（还没有批次）");
        for (o, st) in s.ops.iter().enumerate() {
            let status = match st {
                OpStatus::Deleted => Text::new("(deleted)", "（已删除）"),
                OpStatus::CancelRequested if self.variant.settles() => {
                    Text::new("CANCEL_REQUESTED (voiding)", "CANCEL_REQUESTED（作废中）")
                }
                OpStatus::CancelRequested => {
                    Text::new("CANCEL_REQUESTED (asking)", "CANCEL_REQUESTED（查询中）")
                }
                OpStatus::Unknown if self.variant.settles() => {
                    Text::new("UNKNOWN (same key again)", "UNKNOWN（用同一个键重发）")
                }
                OpStatus::Unknown => Text::new("UNKNOWN (asking)", "UNKNOWN（查询中）"),
                st => Text::same(st.sql()),
            };
            let mut row = RowView::new(
                op_id(o as u8),
                vec![
                    Text::same(op_id(o as u8)),
                    Text::same("b-9"),
                    Text::same(money(amount(o as u8))),
                    status,
                ],
            );
            row.faint = *st == OpStatus::Deleted;
            t.rows.push(row);
        }
        t
    }

    fn ledger_table(&self, s: &CaState) -> TableView {
        let mut t = TableView::durable("ledger", Text::new("Provider ledger", "支付方账本"), PSP);
        t.columns = vec![
            Text::new("refund", "退款"),
            Text::same("Idempotency-Key"),
            Text::new("amount", "金额"),
            Text::new("status", "状态"),
        ];
        t.empty = Text::new("(no refund)", "（没有退款）");
        for (i, &o) in s.ledger.iter().enumerate() {
            t.rows.push(RowView::new(
                format!("re-{i}"),
                vec![
                    Text::same(format!("re_{}", i + 1)),
                    Text::same(op_id(o)),
                    Text::same(money(amount(o))),
                    Text::new("succeeded", "成功"),
                ],
            ));
        }
        // A voided key is a row too: the provider's promise that no refund will run under it.
        for (i, &o) in s.voided.iter().enumerate() {
            t.rows.push(RowView::new(
                format!("void-{i}"),
                vec![
                    Text::same("—"),
                    Text::same(op_id(o)),
                    Text::same(money(amount(o))),
                    Text::new("voided: will not run", "已作废：不会执行"),
                ],
            ));
        }
        t
    }

    fn service_table(&self, s: &CaState) -> TableView {
        let mut t = TableView::memory("service", Text::new("Service memory", "服务内存"), SERVICE);
        t.columns = vec![
            Text::same("signal.aborted"),
            Text::new("awaiting", "在等待"),
        ];
        let awaiting = match s.wait {
            None if s.done() => Text::new("(finished)", "（已结束）"),
            None => Text::new("(nothing)", "（无）"),
            Some(Msg::Refund(o)) => Text::same(format!("fetch POST /refunds ({})", op_id(o))),
            Some(Msg::Query(o)) => Text::same(format!("provider.findRefund({})", op_id(o))),
            Some(Msg::Void(o)) => Text::same(format!("provider.voidRefund({})", op_id(o))),
        };
        t.rows.push(RowView::new(
            "signal".into(),
            vec![Text::same(s.aborted.to_string()), awaiting],
        ));
        t
    }

    fn wire_table(&self, s: &CaState) -> TableView {
        let mut t = TableView::memory("wire", Text::new("On the wire", "网络中"), PSP);
        t.columns = vec![Text::new("message", "消息"), Text::new("to", "发往")];
        t.empty = Text::new("(nothing in flight)", "（没有在途消息）");
        for (i, m) in s.inbox.iter().enumerate() {
            let what = match m {
                Msg::Refund(o) => tx!("refund request {}", "退款请求 {}", op_id(*o)),
                Msg::Query(o) => tx!("query: refund for {}?", "查询：{} 有退款吗？", op_id(*o)),
                Msg::Void(o) => tx!("void the key {}", "作废键 {}", op_id(*o)),
            };
            t.rows.push(RowView::new(
                format!("in-{i}"),
                vec![what, Text::new("provider", "支付方")],
            ));
        }
        for (i, (m, found)) in s.answers.iter().enumerate() {
            let what = match (m, found) {
                (Msg::Refund(o), true) => tx!("200 refunded ({})", "200 已退款（{}）", op_id(*o)),
                (Msg::Refund(o), false) => {
                    tx!("409 key voided ({})", "409 键已作废（{}）", op_id(*o))
                }
                (Msg::Void(o), true) => tx!("already refunded: {}", "已经退款：{}", op_id(*o)),
                (Msg::Void(o), false) => tx!(
                    "voided: {} will never run",
                    "已作废：{} 永远不会执行",
                    op_id(*o)
                ),
                (Msg::Query(o), true) => tx!("found: {} refunded", "查到：{} 已退款", op_id(*o)),
                (Msg::Query(o), false) => tx!(
                    "not found: no refund for {}",
                    "没有：{} 没有退款",
                    op_id(*o)
                ),
            };
            t.rows.push(RowView::new(
                format!("ans-{i}"),
                vec![what, Text::new("service", "服务")],
            ));
        }
        t
    }

    fn code(&self, s: &CaState) -> CodeView {
        let text = match self.variant {
            CaVariant::CancelMeansUndone => UNDONE_JS,
            CaVariant::CancelThenAskOnce => ASK_ONCE_JS,
            CaVariant::CancelThenReconcile => RECONCILE_JS,
        };
        let find = |needle: &str| text.lines().position(|l| l.contains(needle)).unwrap_or(0);
        let (line, doing) = match (s.screen, s.wait) {
            (Screen::Ready, _) => (
                find("async function refundBatch"),
                Text::new("not started", "未开始"),
            ),
            (Screen::Told { end, .. }, _) => (
                match (self.variant.naive(), end) {
                    (false, _) => find("screen.show(summary"),
                    (true, End::Done) => find("screen.show('Done"),
                    (true, _) => find("screen.show(err.name"),
                },
                Text::new("finished", "已结束"),
            ),
            (_, Some(Msg::Refund(_))) => (
                find("const res = await"),
                Text::new("awaiting fetch", "等待 fetch"),
            ),
            (_, Some(Msg::Query(_))) => (
                find("return await provider.findRefund"),
                Text::new("awaiting findRefund", "等待 findRefund"),
            ),
            (_, Some(Msg::Void(_))) => (
                find("provider.voidRefund"),
                Text::new("awaiting voidRefund", "等待 voidRefund"),
            ),
            (_, None) => match s.current() {
                Some(OpStatus::Unknown) if self.variant.settles() && !s.aborted => (
                    find("continue;"),
                    Text::new("about to send again, same key", "准备用同一个键重发"),
                ),
                Some(st) if st.unsettled() && self.variant.settles() => (
                    find("provider.voidRefund"),
                    Text::new("about to void by the key", "准备按键作废"),
                ),
                Some(st) if st.unsettled() => (
                    find("const refund = await reconcile"),
                    Text::new("about to ask the provider", "准备询问支付方"),
                ),
                _ if s.aborted && !self.variant.naive() => (
                    find("if (signal.aborted) break"),
                    Text::new("checking the signal", "检查信号"),
                ),
                _ => (
                    find("await db.setStatus(op.id, 'SENT')"),
                    Text::new("next operation", "下一个操作"),
                ),
            },
        };
        CodeView {
            title: "refund-batch.js",
            text,
            cursors: vec![Cursor {
                line,
                who: "S".into(),
                doing,
            }],
        }
    }
}

/// The cancellation scenario: an aborted fetch does not undo a committed refund.
pub struct Cancellation;

impl Cancellation {
    pub fn model(variant: CaVariant, budget: u8) -> CancellationModel {
        CancellationModel { variant, budget }
    }
}

impl Scenario for Cancellation {
    type Model = CancellationModel;
    type Variant = CaVariant;

    fn model_of(variant: usize, budget: Option<u8>, _knobs: &[u32]) -> CancellationModel {
        Self::model(CaVariant::at(variant), budget.unwrap_or(2))
    }

    fn meta(&self) -> ScenarioMeta {
        let variants = [
            VariantMeta::mistake("cancel-means-undone", ["Cancel means undone", "取消即撤销"],
                                 ["The aborted fetch is taken for “nothing happened”: the rows are deleted and the screen says cancelled, while the provider refunded.",
                                  "把中止的 fetch 当成“什么都没发生”：删掉记录，屏幕显示已取消，而支付方已经退了款。"])
            .failing("0010", ["start the batch, let op-1 go out, then click Cancel while it is in flight.",
                              "开始批次，让 op-1 发出，然后趁它在途时点击取消。"]),
            VariantMeta::mistake("cancel-then-ask-once", ["Cancel, then ask once", "取消后只查一次"],
                                 ["Keep the operation that was in flight and ask the provider once: “not found” is taken as not executed, but the query can overtake the refund.",
                                  "保留在途的操作，向支付方查询一次：“没有”就当作没执行，可查询可能抢在退款前面。"])
            .failing("0010010", ["let op-1 go out and click Cancel before the provider commits it; then ⚡ let the query overtake the refund.",
                                 "让 op-1 发出，在支付方提交前点击取消；再 ⚡ 让查询抢在退款前面。"]),
            VariantMeta::fix("cancel-then-reconcile", ["Cancel, then void by key", "取消后按键作废"],
                             ["Keep the outcome unknown until the provider can no longer run it: void the request by its key after a cancel, send it again with the same key after a timeout; report 2 of 3 refunded, 1 not started.",
                              "在支付方再也不能执行之前，结果一直算未知：取消后按键作废请求，超时后用同一个键重发；报告 3 笔退了 2 笔，1 笔未开始。"])
            .hinted(["click Cancel while a refund is in flight, then ⚡ let the void overtake the refund: the late refund is refused.",
                     "在退款在途时点击取消，再 ⚡ 让作废抢在退款前面：迟到的退款被拒绝。"]),
        ];
        ScenarioMeta {
            slug: "cancellation",
            theme: Text::new("Retries, timeouts and recovery", "重试、超时与恢复"),
            title: Text::new(
                "Cancellation: an aborted request is not an undone refund",
                "取消：中止请求 ≠ 撤销退款",
            ),
            summary: Text::new(
                "AbortSignal stops the waiting, not the provider: cancel a batch of refunds mid-flight and the screen says “cancelled” while the ledger says refunded.",
                "AbortSignal 停止的是等待，而不是支付方：在途中取消一批退款，屏幕说“已取消”，账本却说已退款。",
            ),
            variants: variants
                .into_iter()
                .map(|m| VariantMeta {
                    fault_budget: 2,
                    fixed_by: (!m.fixed).then_some("cancel-then-reconcile"),
                    ..m
                })
                .collect(),
            knobs: Vec::new(),
            moves_heading: None,
        }
    }
}

/// Speaker notes for presenting this scenario. Not part of `meta()`: the page fetches them on
/// demand from `notes.json`, which `content::notes_json` writes (see `content`).
pub(crate) fn notes() -> Notes {
    Notes::new(
        ["Cancellation is a cooperative signal, not a transaction rollback. AbortSignal tells code that supports it to stop waiting or stop working, but the request may already have reached the provider and its write may be committed. Propagate the deadline and the signal, stop taking new work, release local resources in finally, and settle the refunds already sent: void each by its key, or send it again with the same key, or wait until the provider can no longer process it. One “not found” is not proof while the request may still arrive on another connection. “Cancelled” on the screen cannot erase an external fact. Report partial completion and what is still being checked.",
         "取消是协作信号，不是事务回滚。Node 的 AbortSignal 可通知支持取消的请求停止等待或停止执行，但请求可能已经到达远端，远端写也可能已经提交。调用方应传播 deadline 和取消信号，停止领取新工作，并在 finally 释放本地资源。对已经发出的退款仍要了结：按键作废，或用同一个键重发，或等到支付方再也不会处理它。请求还可能从另一条连接到达时，一次“查无此款”不算证据。UI 上的“已取消”不能抹掉外部事实。返回部分完成和待核查状态。"],
        ["“Is cancel an immediate stop?” Stop dispatching and propagate the cancellation; side effects in progress may complete, so return partial completion and a to-be-verified status instead of erasing finished results. “The browser disconnected: does the task end?” That is the product's contract; a durable task usually goes on, and the disconnect only ends the subscription.",
         "“取消是不是立即终止？”停止派发并传播取消；进行中的副作用可能完成，返回部分完成和待核查状态，而不是抹除已完成结果。“浏览器断开，任务结束吗？”由产品契约决定；持久任务通常继续，断开只影响订阅。"],
        ["“Cancelling the HTTP request undoes the remote transaction.” “On a cancel signal, committed refunds are reversed automatically.”",
         "“取消 HTTP 请求就撤销远端事务。”“只要收到取消信号，已提交退款会自动冲销。”"],
    )
}
