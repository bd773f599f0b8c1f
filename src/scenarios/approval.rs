//! # Human approval: approve a proposal, not a chat message
//!
//! **Setting.** An agent proposes a refund on order ord-2042 of merchant m-88 (paid 1,000.00,
//! state version 3): refund 80.00 USD, requested by agent-7, valid until 10:15. Alice, a human,
//! approves it; the agent then executes the refund at the payment provider.
//!
//! **The bug.** `approve-chat-text`: Alice's "yes" in the chat authorises whatever the agent runs
//! next. Between the "yes" and the call, the agent re-generates its arguments (80.00 becomes
//! 800.00), support refunds 50.00 on the same order (version 3 → 4), the approval's 15 minutes
//! run out, or Alice's "yes" arrives twice: every one of them is executed, because nothing ties
//! the call to what Alice saw.
//!
//! **The fix.** `approve-versioned-proposal`: the proposal is a row (merchant, order, action,
//! amount, currency, state version, expiry, requester) with a digest of those fields; approving
//! stores the digest (`INSERT … ON CONFLICT DO NOTHING`, so a second click changes nothing);
//! executing is one transaction of conditional UPDATEs that re-check the status, the digest, the
//! expiry and the order's version, and the amount comes from the proposal row, not from the
//! agent. A changed amount, a changed order or an expired approval gets `UPDATE 0`: ask again.
//!
//! **Invariants.** "executed exactly what was approved" (every refund the agent ran has the
//! approved amount, ran against the approved order version, before the expiry) and "executed at
//! most once". Worked counterexample: propose, "yes", edit to 800.00, execute: the provider
//! refunds 800.00 against an approval of 80.00.

use crate::sim::kit::Variants;
use crate::sim::{
    mark, ArrowKind, Figure, FigureBody, InvKind, Invariant, LaneView, LedgerRow, MarkKind, Metric,
    Model, Notes, Present, RowRef, RowView, Scenario, ScenarioMeta, StateView, StepInfo, TableView,
    Text, Unit, VariantMeta,
};
use crate::tx;

/// The approved amount, the agent's edit, support's refund meanwhile, what the order paid.
pub const AMOUNT: i32 = 80;
pub const EDITED: i32 = 800;
pub const SUPPORT: i32 = 50;
pub const PAID: i32 = 1_000;
/// The order's state version when the proposal was made.
pub const VERSION: u8 = 3;
pub const PROPOSAL: &str = "pr-1";
pub const ORDER: &str = "ord-2042";
/// What Alice approves under: stored with the approval, so an audit can tell whether she was
/// allowed to (the notes: store the approver, the time, the permission and the digest).
pub const PERMISSION: &str = "refunds.approve";

const AGENT: usize = 0;
const ALICE: usize = 1;
const DB: usize = 2;
const PSP: usize = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ApVariant {
    ChatText,
    VersionedProposal,
}

impl ApVariant {
    pub const ALL: [ApVariant; 2] = [ApVariant::ChatText, ApVariant::VersionedProposal];
}

impl Variants for ApVariant {
    const ALL: &'static [ApVariant] = &ApVariant::ALL;
}

/// Why a conditional execute matched no row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Refusal {
    AlreadyExecuted,
    DigestDiffers,
    Expired,
    VersionChanged,
}

/// One call of the agent's execute step and what came of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// A refund was executed: its index in the provider's ledger.
    Refunded(u8),
    Refused(Refusal),
}

/// A refund at the provider: who ran it, how much, the order version it ran against, and
/// whether it ran after the approval's expiry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Entry {
    pub by_agent: bool,
    pub amount: i32,
    pub version_seen: u8,
    pub late: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ApState {
    pub proposed: bool,
    /// Times Alice approved (said "yes", or clicked the link).
    pub clicks: u8,
    /// The proposal row's status is EXECUTED (versioned variant).
    pub executed: bool,
    /// Resumes of the waiting run the agent has not handled yet (one per approval).
    pub pending: u8,
    /// The amount in the agent's memory: what it will ask to execute.
    pub agent_amount: i32,
    pub order_version: u8,
    pub order_refunded: i32,
    /// 10:15 has passed.
    pub expired: bool,
    pub support_refunded: bool,
    pub calls: Vec<Outcome>,
    pub ledger: Vec<Entry>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApAct {
    Propose,
    Approve,
    Execute,
    // Faults and concurrent changes.
    ApproveAgain,
    EditAmount,
    SupportRefund,
    Expire,
}

#[derive(Clone)]
pub struct ApprovalModel {
    pub variant: ApVariant,
    pub budget: u8,
}

pub(crate) fn money(x: i32) -> String {
    if x >= 1_000 {
        format!("{},{:03}.00", x / 1_000, x % 1_000)
    } else {
        format!("{x}.00")
    }
}

/// The proposal's digest: FNV-1a over its canonical fields, as 8 hex digits. Deterministic, and
/// any change of a field changes it.
pub fn digest(amount: i32, version: u8) -> String {
    let canon = format!(
        "m-88|{ORDER}|refund|{}|USD|v{version}|10:15|agent-7",
        money(amount)
    );
    let mut h: u32 = 0x811c_9dc5;
    for b in canon.bytes() {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    format!("{h:08x}")
}

impl ApprovalModel {
    fn versioned(&self) -> bool {
        self.variant == ApVariant::VersionedProposal
    }

    /// What the conditional UPDATEs find, in the order the WHERE clauses are checked.
    fn refusal(&self, s: &ApState) -> Option<Refusal> {
        if s.executed {
            Some(Refusal::AlreadyExecuted)
        } else if s.agent_amount != AMOUNT {
            Some(Refusal::DigestDiffers)
        } else if s.expired {
            Some(Refusal::Expired)
        } else if s.order_version != VERSION {
            Some(Refusal::VersionChanged)
        } else {
            None
        }
    }

    fn refund(s: &mut ApState, amount: i32) -> u8 {
        s.ledger.push(Entry {
            by_agent: true,
            amount,
            version_seen: s.order_version,
            late: s.expired,
        });
        s.order_refunded += amount;
        s.order_version += 1;
        (s.ledger.len() - 1) as u8
    }

    fn before_execution(s: &ApState) -> bool {
        s.proposed && s.calls.is_empty()
    }
}

impl Model for ApprovalModel {
    type State = ApState;
    type Act = ApAct;

    fn init(&self) -> ApState {
        ApState {
            proposed: false,
            clicks: 0,
            executed: false,
            pending: 0,
            agent_amount: AMOUNT,
            order_version: VERSION,
            order_refunded: 0,
            expired: false,
            support_refunded: false,
            calls: Vec::new(),
            ledger: Vec::new(),
        }
    }

    fn actions(&self, s: &ApState, out: &mut Vec<ApAct>) {
        if !s.proposed {
            out.push(ApAct::Propose);
            return;
        }
        if s.clicks == 0 {
            out.push(ApAct::Approve);
        }
        if s.pending > 0 {
            out.push(ApAct::Execute);
        }
        if s.clicks == 1 {
            out.push(ApAct::ApproveAgain);
        }
        if Self::before_execution(s) && s.agent_amount == AMOUNT {
            out.push(ApAct::EditAmount);
        }
        if Self::before_execution(s) && !s.support_refunded {
            out.push(ApAct::SupportRefund);
        }
        if Self::before_execution(s) && s.clicks > 0 && !s.expired {
            out.push(ApAct::Expire);
        }
    }

    fn is_fault(&self, a: &ApAct) -> bool {
        !matches!(a, ApAct::Propose | ApAct::Approve | ApAct::Execute)
    }

    fn fault_budget(&self) -> u8 {
        self.budget
    }

    fn next(&self, s: &ApState, a: &ApAct) -> ApState {
        let mut s = s.clone();
        match a {
            ApAct::Propose => s.proposed = true,
            ApAct::Approve | ApAct::ApproveAgain => {
                s.clicks += 1;
                s.pending += 1;
            }
            ApAct::Execute => {
                s.pending -= 1;
                let outcome = if self.versioned() {
                    match self.refusal(&s) {
                        Some(r) => Outcome::Refused(r),
                        None => {
                            s.executed = true;
                            // The amount comes from the proposal row, never from the agent.
                            Outcome::Refunded(Self::refund(&mut s, AMOUNT))
                        }
                    }
                } else {
                    let amount = s.agent_amount;
                    Outcome::Refunded(Self::refund(&mut s, amount))
                };
                s.calls.push(outcome);
            }
            ApAct::EditAmount => s.agent_amount = EDITED,
            ApAct::SupportRefund => {
                s.support_refunded = true;
                s.ledger.push(Entry {
                    by_agent: false,
                    amount: SUPPORT,
                    version_seen: s.order_version,
                    late: false,
                });
                s.order_refunded += SUPPORT;
                s.order_version += 1;
            }
            ApAct::Expire => s.expired = true,
        }
        s
    }

    fn invariants(&self) -> Vec<Invariant<ApState>> {
        vec![
            Invariant {
                name: Text::new("executed exactly what was approved", "执行的正是被批准的"),
                kind: InvKind::Always,
                holds: Text::new(
                    "Every refund the agent ran is 80.00 USD on ord-2042 at state version 3, before 10:15: what Alice approved.",
                    "Agent 执行的每笔退款都是 ord-2042 在状态版本 3 上的 80.00 USD，且在 10:15 之前：正是 Alice 批准的内容。",
                ),
                check: not_as_approved,
                rows: agent_rows,
            },
            Invariant {
                name: Text::new("executed at most once", "最多执行一次"),
                kind: InvKind::Always,
                holds: Text::new(
                    "The provider's ledger holds at most one refund by the agent on Alice's one approval.",
                    "支付方账本里凭 Alice 这一次批准、由 Agent 发起的退款最多一笔。",
                ),
                check: executed_twice,
                rows: agent_rows,
            },
        ]
    }
}

impl Present for ApprovalModel {
    fn label(&self, _: &ApState, a: &ApAct) -> Text {
        let chat = !self.versioned();
        match a {
            ApAct::Propose => Text::new("Agent: propose the refund", "Agent：提出退款提案"),
            ApAct::Approve if chat => Text::new("Alice: reply “yes”", "Alice：回复“可以”"),
            ApAct::Approve => Text::new("Alice: click Approve", "Alice：点击“批准”"),
            ApAct::Execute => Text::new("Agent: execute the refund", "Agent：执行退款"),
            ApAct::ApproveAgain if chat => {
                Text::new("Alice's “yes” arrives twice", "Alice 的“可以”到了两次")
            }
            ApAct::ApproveAgain => Text::new(
                "Alice clicks the approval link twice",
                "Alice 把审批链接点了两次",
            ),
            ApAct::EditAmount => Text::new(
                "Agent edits the amount to 800.00",
                "Agent 把金额改成 800.00",
            ),
            ApAct::SupportRefund => {
                Text::new("Support refunds 50.00 meanwhile", "与此同时客服退了 50.00")
            }
            ApAct::Expire => Text::new(
                "Let the approval expire (10:15 passes)",
                "让批准过期（过了 10:15）",
            ),
        }
    }

    fn view(&self, s: &ApState) -> StateView {
        let db = if self.versioned() {
            LaneView::store("Database", "数据库")
        } else {
            LaneView::store("Chat + database", "聊天记录与数据库")
        };
        let lanes = vec![
            LaneView::process("Agent", "Agent"),
            LaneView::process("Alice · approver", "审批人 Alice"),
            db,
            LaneView::store("Payment provider", "支付方"),
        ];
        let mut tables = if self.versioned() {
            vec![self.proposals_table(s), self.approvals_table(s)]
        } else {
            vec![self.chat_table(s)]
        };
        tables.push(self.agent_table(s));
        tables.push(self.order_table(s));
        if self.versioned() {
            tables.push(self.calls_table(s));
        }
        tables.push(self.ledger_table(s));
        let by_agent = s.ledger.iter().filter(|e| e.by_agent).count() as u32;
        StateView {
            lanes,
            tables,
            metrics: vec![
                Metric::count(Text::new("approvals given", "批准次数"), s.clicks as u32),
                Metric::count(Text::new("execute calls", "执行调用"), s.calls.len() as u32),
                Metric::count(
                    Text::new("refunds by the agent", "Agent 执行的退款"),
                    by_agent,
                ),
                Metric::count(
                    Text::new("refunded on ord-2042", "ord-2042 已退金额"),
                    s.order_refunded as u32,
                ),
            ],
            figure: Some(figure(s)),
            ..StateView::default()
        }
    }

    fn describe(&self, b: &ApState, a: &ApAct, s: &ApState) -> StepInfo {
        narrate::describe(self, b, *a, s)
    }

    fn intro(&self) -> Text {
        narrate::intro(self.variant)
    }
}

fn refund_id(i: usize) -> String {
    format!("re_{}", i + 1)
}

/// The approval covers one execution, the agent's first refund; any further one is a breach of
/// "executed at most once" and judged there.
/// What Alice approved against what the agent executed: one refund of 80.00, once approved.
fn figure(s: &ApState) -> Figure {
    let agent: Vec<&Entry> = s.ledger.iter().filter(|e| e.by_agent).collect();
    let paid: i32 = agent.iter().map(|e| e.amount).sum();
    let approved = if s.clicks > 0 { AMOUNT } else { 0 };
    let (n, cents) = (agent.len() as u32, |x: i32| x.max(0) as u32 * 100);
    Figure {
        title: Text::new("Approved against executed", "批准的与执行的"),
        name: tx!(
            "approved {}, the agent refunded {} in {n} refunds",
            "批准了 {}，Agent 实际退款 {}，共 {n} 笔",
            money(approved),
            money(paid)
        ),
        body: FigureBody::Ledger(vec![
            LedgerRow {
                name: Text::new("refunded by the agent", "Agent 退出的金额"),
                intended: cents(approved),
                executed: cents(paid),
                unit: Unit::Cents,
            },
            LedgerRow {
                name: Text::new("refunds by the agent", "Agent 执行的退款"),
                intended: u32::from(s.clicks > 0),
                executed: n,
                unit: Unit::Count,
            },
        ]),
        shows: vec![0, 1],
    }
}

/// The provider's ledger rows of the refunds the agent executed.
fn agent_rows(s: &ApState) -> Vec<RowRef> {
    (s.ledger.iter().enumerate())
        .filter(|(_, e)| e.by_agent)
        .map(|(i, _)| ("ledger", refund_id(i)))
        .collect()
}

fn not_as_approved(s: &ApState) -> Option<Text> {
    s.ledger
        .iter()
        .enumerate()
        .find(|(_, e)| e.by_agent)
        .and_then(|(i, e)| {
            let id = refund_id(i);
            let a = money(e.amount);
            if e.amount != AMOUNT {
                Some(tx!(
                    "The provider refunded {a} ({id}) on ord-2042, but Alice approved {}: the agent changed the amount after the approval.",
                    "支付方在 ord-2042 上退了 {a}（{id}），而 Alice 批准的是 {}：Agent 在批准之后改了金额。",
                    money(AMOUNT)
                ))
            } else if e.version_seen != VERSION {
                Some(tx!(
                    "Refund {id} ({a}) ran against order version {}, but the approval was for version {VERSION}: the order changed after Alice looked at it.",
                    "退款 {id}（{a}）执行时订单已是版本 {}，而批准针对的是版本 {VERSION}：Alice 看过之后订单变了。",
                    e.version_seen
                ))
            } else if e.late {
                Some(tx!(
                    "Refund {id} ({a}) ran at 10:20; the approval expired at 10:15.",
                    "退款 {id}（{a}）在 10:20 执行；批准在 10:15 就已过期。"
                ))
            } else {
                None
            }
        })
}

fn executed_twice(s: &ApState) -> Option<Text> {
    let n = s.ledger.iter().filter(|e| e.by_agent).count();
    (n > 1).then(|| {
        tx!(
            "The agent executed {n} refunds on one approval: each “yes” let the next refund through.",
            "Agent 凭一次审批执行了 {n} 笔退款：每个“可以”都放行了下一次退款。"
        )
    })
}

impl ApprovalModel {
    fn proposal_status(&self, s: &ApState) -> &'static str {
        if s.executed {
            "EXECUTED"
        } else if s.clicks > 0 {
            "APPROVED"
        } else {
            "PENDING"
        }
    }

    fn proposals_table(&self, s: &ApState) -> TableView {
        let mut t = TableView::durable("proposals", Text::same("proposals"), DB);
        t.columns = [
            "id",
            "merchant",
            "order_id",
            "action",
            "amount",
            "currency",
            "state_version",
            "expires_at",
            "requester",
            "digest",
            "status",
        ]
        .into_iter()
        .map(Text::same)
        .collect();
        t.empty = Text::new("(no proposal yet)", "（还没有提案）");
        if s.proposed {
            t.rows.push(RowView::new(
                PROPOSAL.into(),
                [
                    PROPOSAL,
                    "m-88",
                    ORDER,
                    "refund",
                    &money(AMOUNT),
                    "USD",
                    "3",
                    "10:15",
                    "agent-7",
                    &digest(AMOUNT, VERSION),
                    self.proposal_status(s),
                ]
                .into_iter()
                .map(Text::same)
                .collect(),
            ));
        }
        t
    }

    fn approvals_table(&self, s: &ApState) -> TableView {
        let mut t = TableView::durable("approvals", Text::same("approvals"), DB);
        t.columns = [
            "proposal_id",
            "digest",
            "approver",
            "permission",
            "approved_at",
        ]
        .into_iter()
        .map(Text::same)
        .collect();
        t.empty = Text::new("(not approved)", "（未批准）");
        if s.clicks > 0 {
            t.rows.push(RowView::new(
                PROPOSAL.into(),
                [
                    PROPOSAL,
                    &digest(AMOUNT, VERSION),
                    "alice",
                    PERMISSION,
                    "10:02",
                ]
                .into_iter()
                .map(Text::same)
                .collect(),
            ));
        }
        t
    }

    fn chat_table(&self, s: &ApState) -> TableView {
        let mut t = TableView::durable("chat", Text::new("Chat with Alice", "与 Alice 的聊天"), DB);
        t.columns = vec![
            Text::new("time", "时间"),
            Text::new("from", "发送者"),
            Text::new("message", "消息"),
        ];
        t.empty = Text::new("(no messages)", "（没有消息）");
        if s.proposed {
            t.rows.push(RowView::new(
                "m-1".into(),
                vec![
                    Text::same("10:00"),
                    Text::same("agent-7"),
                    Text::new(
                        "Refund 80.00 USD on ord-2042? Valid until 10:15.",
                        "为 ord-2042 退款 80.00 USD？10:15 前有效。",
                    ),
                ],
            ));
        }
        for c in 0..s.clicks {
            t.rows.push(RowView::new(
                format!("yes-{c}"),
                vec![
                    Text::same("10:02"),
                    Text::same("alice"),
                    Text::new("yes", "可以"),
                ],
            ));
        }
        t
    }

    fn agent_table(&self, s: &ApState) -> TableView {
        let mut t = TableView::memory("agent", Text::new("Agent memory", "Agent 内存"), AGENT);
        let mut cols = vec![
            Text::new("next call", "下一个调用"),
            Text::new("amount", "金额"),
        ];
        if self.versioned() {
            cols.push(Text::new("args digest", "参数摘要"));
        }
        cols.push(Text::new("waiting for", "在等"));
        t.columns = cols;
        t.empty = Text::new("(thinking)", "（思考中）");
        if !s.proposed {
            return t;
        }
        let waiting = if s.pending > 0 {
            tx!("— (resumed ×{})", "—（已恢复 ×{}）", s.pending)
        } else if s.clicks == 0 {
            Text::same("Alice")
        } else {
            Text::new("— (done)", "—（已完成）")
        };
        let mut cells = vec![
            Text::same(format!("refund {ORDER}")),
            Text::same(money(s.agent_amount)),
        ];
        if self.versioned() {
            cells.push(Text::same(digest(s.agent_amount, VERSION)));
        }
        cells.push(waiting);
        t.rows.push(RowView::new("call".into(), cells));
        t
    }

    fn order_table(&self, s: &ApState) -> TableView {
        let mut t = TableView::durable("orders", Text::same("orders"), DB);
        t.columns = ["order_id", "status", "version", "paid", "refunded"]
            .into_iter()
            .map(Text::same)
            .collect();
        let status = if s.order_refunded > 0 {
            "PARTIALLY_REFUNDED"
        } else {
            "PAID"
        };
        t.rows.push(RowView::new(
            ORDER.into(),
            vec![
                Text::same(ORDER),
                Text::same(status),
                Text::same(s.order_version.to_string()),
                Text::same(money(PAID)),
                Text::same(money(s.order_refunded)),
            ],
        ));
        t
    }

    fn calls_table(&self, s: &ApState) -> TableView {
        let mut t = TableView::durable("calls", Text::new("Execute calls", "执行调用"), DB);
        t.columns = vec![
            Text::new("call", "调用"),
            Text::new("rows updated", "更新行数"),
            Text::new("result", "结果"),
        ];
        t.empty = Text::new("(none yet)", "（还没有）");
        for (i, c) in s.calls.iter().enumerate() {
            let (rows, result) = match c {
                Outcome::Refunded(r) => (
                    "1, 1 → COMMIT",
                    tx!(
                        "executed: refund {}",
                        "已执行：退款 {}",
                        refund_id(*r as usize)
                    ),
                ),
                Outcome::Refused(Refusal::VersionChanged) => (
                    "1, 0 → ROLLBACK",
                    narrate::refusal_text(Refusal::VersionChanged),
                ),
                Outcome::Refused(r) => ("0 → ROLLBACK", narrate::refusal_text(*r)),
            };
            t.rows.push(RowView::new(
                format!("call-{i}"),
                vec![Text::same(format!("#{}", i + 1)), Text::same(rows), result],
            ));
        }
        t
    }

    fn ledger_table(&self, s: &ApState) -> TableView {
        let mut t = TableView::durable("ledger", Text::new("Provider ledger", "支付方账本"), PSP);
        t.columns = vec![
            Text::new("refund", "退款"),
            Text::new("by", "发起方"),
            Text::new("key", "键"),
            Text::new("amount", "金额"),
            Text::new("order version", "订单版本"),
            Text::new("at", "时间"),
        ];
        t.empty = Text::new("(no refund)", "（没有退款）");
        for (i, e) in s.ledger.iter().enumerate() {
            let (by, key) = if !e.by_agent {
                (Text::new("support", "客服"), Text::same("sup-311"))
            } else if self.versioned() {
                (Text::same("agent-7"), Text::same(PROPOSAL))
            } else {
                (Text::same("agent-7"), Text::new("(none)", "（无）"))
            };
            t.rows.push(RowView::new(
                refund_id(i),
                vec![
                    Text::same(refund_id(i)),
                    by,
                    key,
                    Text::same(money(e.amount)),
                    Text::same(e.version_seen.to_string()),
                    Text::same(if e.late { "10:20" } else { "10:03" }),
                ],
            ));
        }
        t
    }
}

mod narrate;

/// The approval scenario: a "yes" in the chat is not an approval of what runs next.
pub struct Approval;

impl Approval {
    pub fn model(variant: ApVariant, budget: u8) -> ApprovalModel {
        ApprovalModel { variant, budget }
    }
}

impl Scenario for Approval {
    type Model = ApprovalModel;
    type Variant = ApVariant;

    fn model_of(variant: usize, budget: Option<u8>, _knobs: &[u32]) -> ApprovalModel {
        Self::model(ApVariant::at(variant), budget.unwrap_or(2))
    }

    fn meta(&self) -> ScenarioMeta {
        let variants = [
            VariantMeta::mistake("approve-chat-text", ["“yes” in the chat", "聊天里的“可以”"],
                                 ["Alice's “yes” authorises whatever the agent runs next: an edited amount, a changed order, an expired approval, a second “yes”.",
                                  "Alice 的一句“可以”放行 Agent 接下来执行的任何调用：改过的金额、变了的订单、过期的批准、第二个“可以”。"])
            .failing("0020", ["after Alice says yes, ⚡ let the agent edit the amount to 800.00, then execute.",
                              "Alice 说“可以”之后，⚡ 让 Agent 把金额改成 800.00，然后执行。"]),
            VariantMeta::fix("approve-versioned-proposal", ["Versioned proposal", "带版本的提案"],
                             ["Approval stores the proposal's digest; execute re-checks status, digest, expiry and the order version in one transaction.",
                              "批准保存提案摘要；执行在一个事务里重新校验状态、摘要、有效期和订单版本。"])
            .hinted(["⚡ edit the amount, change the order, let it expire or click twice: execute refuses what was not approved.",
                     "⚡ 改金额、改订单、让它过期或点两次：执行会拒绝未被批准的调用。"]),
        ];
        ScenarioMeta {
            slug: "approval",
            theme: Text::new("Agents and human approval", "Agent 与人工审批"),
            title: Text::new(
                "Human approval: approve a proposal, not a chat message",
                "人工审批：批准提案，而不是一句聊天",
            ),
            summary: Text::new(
                "A “yes” in the chat lets through whatever the agent runs next. Approve an immutable proposal and re-check it atomically when executing.",
                "聊天里的一句“可以”会放行 Agent 接下来执行的任何东西。要批准不可变的提案，并在执行时原子地重新校验。",
            ),
            variants: variants
                .into_iter()
                .map(|m| VariantMeta {
                    fault_budget: 2,
                    fixed_by: (!m.fixed).then_some("approve-versioned-proposal"),
                    ..m
                })
                .collect(),
            knobs: Vec::new(),
            moves_heading: Some(Text::new("Alice and the agent", "Alice 与 Agent")),
        }
    }
}

/// Speaker notes for presenting this scenario. Not part of `meta()`: the page fetches them on
/// demand from `notes.json`, which `content::notes_json` writes (see `content`).
pub(crate) fn notes() -> Notes {
    Notes::new(
        ["Approve a concrete, immutable or versioned proposal: merchant, order, action, amount, currency, the key state version, expiry and requester, not a piece of chat that can keep changing. Store the approver, the time, the permission and the proposal's digest; when executing, re-check identity, the latest business constraints and that the call is the proposal. State can change between approval and execution, so check and reserve atomically, or use a version-conditioned update. An approval is not a standing authorisation: a changed amount or target needs a new approval. While waiting, free the worker and the connection and persist the wait.",
         "审批对象应该是不可变或有版本的具体提案：商家、订单、动作、金额、币种、关键状态版本、有效期和请求者，而不是一段可能继续变化的聊天文本。批准后保存批准人、时间、权限和提案摘要；执行时重新校验身份、最新业务约束与提案一致性。审批与执行之间状态可能变化，因此要原子地校验并预留，或用版本条件更新。人工批准不是永久授权，金额或目标变化应重新审批。暂停期间释放工作线程和数据库连接，把等待状态持久化。"],
        ["“Can the agent change the parameters after approval?” Not silently: execution takes its parameters from the approved proposal, not from a fresh generation. “The approval link is clicked twice?” Approving and executing are each idempotent: the state machine and a unique constraint stop a second advance.",
         "“批了以后 Agent 可以修改参数吗？”不能悄悄修改；执行参数应来自被批准的提案，而不是再次自由生成。“审批链接被点了两次？”批准和执行各自幂等；由状态机和唯一约束阻止重复推进。"],
        ["“The user replied yes, so the next refund call is allowed.” Holding a database lock while waiting for a human to answer.",
         "“用户回复 yes 就给下一次任意 refund 调用放行。”或者持有数据库锁等人回复。"],
    )
}
