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
//! **The fix.** `cancel-then-reconcile` stops *new* work (the loop checks `signal.aborted`
//! before sending), keeps the operation whose request was in flight (CANCEL_REQUESTED, or
//! UNKNOWN after a timeout), asks the provider what became of it, and reports partial
//! completion: "Cancelled: 2 of 3 refunded, 1 not started". The provider handles a
//! connection's requests in order, so the query is answered after the refund it asks about.

use crate::sim::{
    CodeView, Cursor, Figure, FigureBody, InvKind, Invariant, LaneView, LedgerRow, Metric,
    MetricValue, Model, Notes, RowView, Scenario, ScenarioMeta, StateView, StepInfo, TableView,
    Text, Unit, VariantMeta,
};

mod narrate;

pub(crate) const SCREEN: usize = 0;
pub(crate) const SERVICE: usize = 1;
pub(crate) const DB: usize = 2;
pub(crate) const PSP: usize = 3;

/// The batch: three refunds, in cents.
pub const AMOUNTS: [u32; 3] = [4_000, 2_500, 3_500];

const UNDONE_JS: &str = include_str!("cancellation/undone.js");
const RECONCILE_JS: &str = include_str!("cancellation/reconcile.js");

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CaVariant {
    CancelMeansUndone,
    CancelThenReconcile,
}

impl CaVariant {
    pub const ALL: [CaVariant; 2] = [CaVariant::CancelMeansUndone, CaVariant::CancelThenReconcile];

    fn naive(self) -> bool {
        self == CaVariant::CancelMeansUndone
    }
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

/// What the service is awaiting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wait {
    /// `fetch(POST /refunds)` for this operation.
    Refund(u8),
    /// `provider.findRefund(op)`.
    Query(u8),
}

/// A message at the provider, or an answer on its way back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Msg {
    Refund(u8),
    Query(u8),
}

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
    /// Answers on their way to the service: what they answer, and for a query whether the
    /// provider found a refund.
    pub answers: Vec<(Msg, bool)>,
    pub faults: u8,
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
    /// Ask the provider what became of the operation.
    Query,
    /// The query's own timeout: ask again.
    QueryTimeout,
    /// The loop ends: all sent, or the signal was aborted before the next send.
    Finish,
    // Faults.
    Cancel,
    LoseAnswer,
}

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
        let mut v: Vec<u8> = self.ledger.clone();
        v.sort_unstable();
        v.dedup();
        v
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
    fn can_fault(&self, s: &CaState) -> bool {
        s.faults < self.budget
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
            answers: Vec::new(),
            faults: 0,
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
                    Some(st) if st.unsettled() => out.push(CaAct::Query),
                    _ => out.push(CaAct::Finish),
                },
                Some(Wait::Refund(o)) => {
                    let m = Msg::Refund(o);
                    if s.aborted {
                        out.push(CaAct::Abort);
                    } else if s.answered(m) {
                        out.push(CaAct::Receive);
                    } else if !s.at_provider(m) {
                        out.push(CaAct::Timeout);
                    }
                }
                Some(Wait::Query(o)) => {
                    let m = Msg::Query(o);
                    if s.answered(m) {
                        out.push(CaAct::Receive);
                    } else if !s.at_provider(m) {
                        out.push(CaAct::QueryTimeout);
                    }
                }
            }
        }
        // The provider.
        if !s.inbox.is_empty() {
            out.push(CaAct::Provider);
        }
        if self.can_fault(s) {
            if matches!(s.screen, Screen::Working) && !s.aborted {
                out.push(CaAct::Cancel);
            }
            if !s.answers.is_empty() {
                out.push(CaAct::LoseAnswer);
            }
        }
    }

    fn is_fault(&self, a: &CaAct) -> bool {
        matches!(a, CaAct::Cancel | CaAct::LoseAnswer)
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
                if let Some(st) = s.ops.get_mut(o as usize) {
                    *st = OpStatus::Sent;
                }
                s.inbox.push(Msg::Refund(o));
                s.wait = Some(Wait::Refund(o));
            }
            CaAct::Provider => {
                if !s.inbox.is_empty() {
                    let m = s.inbox.remove(0);
                    let found = match m {
                        Msg::Refund(o) => {
                            if !s.ledger.contains(&o) {
                                s.ledger.push(o);
                            }
                            true
                        }
                        Msg::Query(o) => s.ledger.contains(&o),
                    };
                    // Only a caller still waiting hears the answer; an aborted fetch has
                    // closed its connection.
                    let listening = match (m, s.wait) {
                        (Msg::Refund(o), Some(Wait::Refund(w))) => o == w && !s.aborted,
                        (Msg::Query(o), Some(Wait::Query(w))) => o == w,
                        _ => false,
                    };
                    if listening {
                        s.answers.push((m, found));
                    }
                }
            }
            CaAct::Receive => {
                if let Some(w) = s.wait {
                    let m = match w {
                        Wait::Refund(o) => Msg::Refund(o),
                        Wait::Query(o) => Msg::Query(o),
                    };
                    if let Some(i) = s.answers.iter().position(|x| x.0 == m) {
                        let (_, found) = s.answers.remove(i);
                        let o = s.next as usize;
                        if let Some(st) = s.ops.get_mut(o) {
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
            CaAct::Abort | CaAct::Timeout => {
                if let Some(Wait::Refund(o)) = s.wait {
                    s.answers.retain(|x| x.0 != Msg::Refund(o));
                    if self.variant.naive() {
                        let end = if *a == CaAct::Abort {
                            End::Undone
                        } else {
                            End::Failed
                        };
                        self.give_up(&mut s, end);
                    } else {
                        if let Some(st) = s.ops.get_mut(o as usize) {
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
            CaAct::Query => {
                let o = s.next;
                s.inbox.push(Msg::Query(o));
                s.wait = Some(Wait::Query(o));
            }
            CaAct::QueryTimeout => s.wait = None,
            CaAct::Finish => {
                let stopped = (s.next as usize) < s.ops.len();
                if stopped && self.variant.naive() {
                    // The aborted signal makes the next fetch reject at once: the same catch.
                    self.give_up(&mut s, End::Undone);
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
            CaAct::Cancel => {
                s.faults += 1;
                s.aborted = true;
                s.screen = Screen::Cancelling;
            }
            CaAct::LoseAnswer => {
                s.faults += 1;
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
                    "no operation deleted while its outcome is unknown",
                    "结果未知时不删除操作记录",
                ),
                kind: InvKind::Always,
                holds: Text::new(
                    "No row of refund_operations is deleted while the provider holds or has executed its request.",
                    "支付方持有或已执行某个请求时，refund_operations 里对应的行不会被删除。",
                ),
                check: deleted_while_unknown,
                rows: |s| {
                    let deleted = (s.ops.iter().enumerate()).filter(|(_, st)| **st == OpStatus::Deleted);
                    deleted.map(|(o, _)| ("ops", op_id(o as u8))).collect()
                },
            },
        ]
    }

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
                LaneView::new("Agent's screen", "客服的屏幕", false, false),
                LaneView::new("Refund service (Node)", "退款服务（Node）", false, false),
                LaneView::new("Database", "数据库", true, false),
                LaneView::new("Payment provider", "支付方", true, false),
            ],
            tables: vec![
                self.screen_table(s),
                self.ops_table(s),
                self.ledger_table(s),
                self.service_table(s),
                self.wire_table(s),
            ],
            metrics: vec![
                Metric {
                    name: Text::new("refunds at the provider", "支付方的退款"),
                    value: MetricValue::Count(s.refunded().len() as u32),
                },
                Metric {
                    name: Text::new("refunds the screen reports", "屏幕报告的退款"),
                    value: MetricValue::Count(told),
                },
                Metric {
                    name: Text::new("outcomes not known", "结果未知的操作"),
                    value: MetricValue::Count(unknown),
                },
            ],
            code: Some(self.code(s)),
            tree: Vec::new(),
            chart: None,
            plots: Vec::new(),
            figure: Some(figure(s, told)),
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
    let deleted = (s.ops.iter().enumerate())
        .filter(|&(o, st)| *st == OpStatus::Deleted && s.ledger.contains(&(o as u8)))
        .count() as u32;
    Figure {
        title: Text::new("Refunds: the provider against the screen", "退款：支付方与屏幕"),
        name: Text::new(
            format!(
                "the provider made {}, the screen reports {told}; {} no record left",
                crate::sim::counted(made, "refund", "refunds"),
                crate::sim::counted(deleted, "made refund has", "made refunds have")
            ),
            format!("支付方执行了 {made} 笔退款，屏幕报告 {told} 笔；{deleted} 笔已执行的退款没有留下记录"),
        ),
        body: FigureBody::Ledger(vec![
            LedgerRow {
                name: Text::new("refunds made (the screen's count expected)", "已执行的退款（屏幕上的数为应有）"),
                intended: told,
                executed: made,
                unit: Unit::Count,
            },
            LedgerRow {
                name: Text::new("made refunds whose record was deleted", "记录已被删除的已执行退款"),
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
        return Some(Text::new(
            format!("Not settled: the provider still holds the request for {id}."),
            format!("尚未落定：支付方手里还有 {id} 的请求。"),
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

fn deleted_while_unknown(s: &CaState) -> Option<Text> {
    s.ops.iter().enumerate().find_map(|(o, st)| {
        let o = o as u8;
        let executed = s.ledger.contains(&o);
        let held = s.inbox.contains(&Msg::Refund(o));
        (*st == OpStatus::Deleted && (executed || held)).then(|| {
            let id = op_id(o);
            let (en, zh) = if executed {
                (
                    "the provider has already refunded it",
                    "支付方已经退了这笔款",
                )
            } else {
                (
                    "its request is still waiting at the provider",
                    "它的请求还在支付方等待处理",
                )
            };
            Text::new(
                format!("The row of {id} was deleted as if nothing had happened, but {en}."),
                format!("{id} 的记录被当作什么都没发生删掉了，但{zh}。"),
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
                Text::new(
                    format!("Refunding… {done} of 3 done"),
                    format!("退款中…… 3 笔已完成 {done} 笔"),
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
                    End::Done => Text::new(
                        format!("Done: {n} of 3 refunded"),
                        format!("完成：3 笔退了 {n} 笔"),
                    ),
                    End::Cancelled => Text::new(
                        format!("Cancelled: {n} of 3 refunded, {not_started} not started"),
                        format!("已取消：3 笔退了 {n} 笔，{not_started} 笔未开始"),
                    ),
                    End::Undone => Text::new(
                        format!("Cancelled: {n} of 3 refunded, the rest cancelled"),
                        format!("已取消：3 笔退了 {n} 笔，其余已撤销"),
                    ),
                    End::Failed => Text::new(
                        format!("Failed: {n} of 3 refunded, the rest not refunded"),
                        format!("失败：3 笔退了 {n} 笔，其余没有退"),
                    ),
                }
            }
        }
    }

    fn screen_table(&self, s: &CaState) -> TableView {
        let mut t = TableView::new(
            "screen",
            Text::new("What the agent sees", "客服看到的"),
            SCREEN,
            false,
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
        let mut t = TableView::new("ops", Text::same("refund_operations"), DB, true);
        t.columns = ["operation_id", "batch_id", "amount", "status"]
            .into_iter()
            .map(Text::same)
            .collect();
        t.empty = Text::new("(no batch yet)", "（还没有批次）");
        for (o, st) in s.ops.iter().enumerate() {
            let status = match st {
                OpStatus::Deleted => Text::new("(deleted)", "（已删除）"),
                OpStatus::CancelRequested => {
                    Text::new("CANCEL_REQUESTED (asking)", "CANCEL_REQUESTED（查询中）")
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
        let mut t = TableView::new(
            "ledger",
            Text::new("Provider ledger", "支付方账本"),
            PSP,
            true,
        );
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
        t
    }

    fn service_table(&self, s: &CaState) -> TableView {
        let mut t = TableView::new(
            "service",
            Text::new("Service memory", "服务内存"),
            SERVICE,
            false,
        );
        t.columns = vec![
            Text::same("signal.aborted"),
            Text::new("awaiting", "在等待"),
        ];
        let awaiting = match s.wait {
            None if s.done() => Text::new("(finished)", "（已结束）"),
            None => Text::new("(nothing)", "（无）"),
            Some(Wait::Refund(o)) => Text::same(format!("fetch POST /refunds ({})", op_id(o))),
            Some(Wait::Query(o)) => Text::same(format!("provider.findRefund({})", op_id(o))),
        };
        t.rows.push(RowView::new(
            "signal".into(),
            vec![Text::same(s.aborted.to_string()), awaiting],
        ));
        t
    }

    fn wire_table(&self, s: &CaState) -> TableView {
        let mut t = TableView::new("wire", Text::new("On the wire", "网络中"), PSP, false);
        t.columns = vec![Text::new("message", "消息"), Text::new("to", "发往")];
        t.empty = Text::new("(nothing in flight)", "（没有在途消息）");
        for (i, m) in s.inbox.iter().enumerate() {
            let what = match m {
                Msg::Refund(o) => Text::new(
                    format!("refund request {}", op_id(*o)),
                    format!("退款请求 {}", op_id(*o)),
                ),
                Msg::Query(o) => Text::new(
                    format!("query: refund for {}?", op_id(*o)),
                    format!("查询：{} 有退款吗？", op_id(*o)),
                ),
            };
            t.rows.push(RowView::new(
                format!("in-{i}"),
                vec![what, Text::new("provider", "支付方")],
            ));
        }
        for (i, (m, found)) in s.answers.iter().enumerate() {
            let what = match (m, found) {
                (Msg::Refund(o), _) => Text::new(
                    format!("200 refunded ({})", op_id(*o)),
                    format!("200 已退款（{}）", op_id(*o)),
                ),
                (Msg::Query(o), true) => Text::new(
                    format!("found: {} refunded", op_id(*o)),
                    format!("查到：{} 已退款", op_id(*o)),
                ),
                (Msg::Query(o), false) => Text::new(
                    format!("not found: no refund for {}", op_id(*o)),
                    format!("没有：{} 没有退款", op_id(*o)),
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
        let text = if self.variant.naive() {
            UNDONE_JS
        } else {
            RECONCILE_JS
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
            (_, Some(Wait::Refund(_))) => (
                find("const res = await fetch"),
                Text::new("awaiting fetch", "等待 fetch"),
            ),
            (_, Some(Wait::Query(_))) => (
                find("return await provider.findRefund"),
                Text::new("awaiting findRefund", "等待 findRefund"),
            ),
            (_, None) => match s.current() {
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
    fn variant(index: usize) -> CaVariant {
        CaVariant::ALL
            .get(index)
            .copied()
            .unwrap_or(CaVariant::CancelMeansUndone)
    }

    pub fn model(variant: CaVariant, budget: u8) -> CancellationModel {
        CancellationModel { variant, budget }
    }
}

impl Scenario for Cancellation {
    type Model = CancellationModel;

    fn model_of(variant: usize, budget: Option<u8>, _knobs: &[u32]) -> CancellationModel {
        Self::model(Self::variant(variant), budget.unwrap_or(2))
    }

    fn meta(&self) -> ScenarioMeta {
        let v = VariantMeta::new;
        let variants = [
            v("cancel-means-undone", ["Cancel means undone", "取消即撤销"],
              ["The aborted fetch is taken for “nothing happened”: the rows are deleted and the screen says cancelled, while the provider refunded.",
               "把中止的 fetch 当成“什么都没发生”：删掉记录，屏幕显示已取消，而支付方已经退了款。"], false)
            .failing("0010", ["start the batch, let op-1 go out, then click Cancel while it is in flight.",
                              "开始批次，让 op-1 发出，然后趁它在途时点击取消。"]),
            v("cancel-then-reconcile", ["Cancel, then reconcile", "取消后对账"],
              ["Stop new work, keep the operation that was in flight, ask the provider, report partial completion: 2 of 3 refunded, 1 not started.",
               "停止新工作，保留在途的操作，向支付方查询，报告部分完成：3 笔退了 2 笔，1 笔未开始。"], true)
            .hinted(["click Cancel while a refund is in flight: the service asks the provider before it reports.",
                     "在退款在途时点击取消：服务先问支付方，再报告结果。"]),
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
        ["Cancellation is a cooperative signal, not a transaction rollback. AbortSignal tells code that supports it to stop waiting or stop working, but the request may already have reached the provider and its write may be committed. Propagate the deadline and the signal, stop taking new work, release local resources in finally, and still query the refunds already sent: “cancelled” on the screen cannot erase an external fact. Report partial completion and what is still being checked.",
         "取消是协作信号，不是事务回滚。Node 的 AbortSignal 可通知支持取消的请求停止等待或停止执行，但请求可能已经到达远端，远端写也可能已经提交。调用方应传播 deadline 和取消信号，停止领取新工作，并在 finally 释放本地资源。对已经发出的退款仍要查询状态；UI 上的“已取消”不能抹掉外部事实。返回部分完成和待核查状态。"],
        ["“Is cancel an immediate stop?” Stop dispatching and propagate the cancellation; side effects in progress may complete, so return partial completion and a to-be-verified status instead of erasing finished results. “The browser disconnected: does the task end?” That is the product's contract; a durable task usually goes on, and the disconnect only ends the subscription.",
         "“取消是不是立即终止？”停止派发并传播取消；进行中的副作用可能完成，返回部分完成和待核查状态，而不是抹除已完成结果。“浏览器断开，任务结束吗？”由产品契约决定；持久任务通常继续，断开只影响订阅。"],
        ["“Cancelling the HTTP request undoes the remote transaction.” “On a cancel signal, committed refunds are reversed automatically.”",
         "“取消 HTTP 请求就撤销远端事务。”“只要收到取消信号，已提交退款会自动冲销。”"],
    )
}
