//! # Duplicate charge: a redelivered payment command
//!
//! **Setting.** Stock for order ord-1701 is reserved and the orchestrator's relay publishes the
//! command "charge ord-1701" (payment intent pay-1701, 100.00) to the broker as message msg-1. A
//! payment consumer takes it, charges the payment provider, writes its local result and only
//! then acknowledges the message. The provider keeps a ledger and follows Stripe API v1
//! idempotency: a request with a key it has seen replays the saved result.
//!
//! **The bug** (the seed's ord-1701 incident). The consumer crashes after writing its result
//! and before acknowledging; the broker, keeping its at-least-once promise, delivers msg-1
//! again. `new-charge-per-delivery` mints a new payment number per consumption and sends it as
//! the key: the provider sees a new payment, and ord-1701 is charged twice.
//! `message-id-dedup` keeps an inbox of processed message ids (committed with the result) and
//! sends the message id as the key: it survives the redelivery, the lost answer and the crash
//! before saving, but the relay re-publishing the same command under a new message id (msg-2)
//! is a new message to it, and a second charge.
//!
//! **The fix.** `stable-intent`: the business operation has a stable identity, the payment
//! intent pay-1701, unique per order. The consumer creates it or reads it; SUCCEEDED means
//! acknowledge and do nothing; PROCESSING means ask the provider again with the same key
//! pay-1701, which replays the first charge. Whatever message carries the command, one charge.
//!
//! **Recovery.** A reconciliation job compares the provider's charges for ord-1701 with the
//! one payment the order needs. A duplicate is not deleted: it gets a refund operation with its
//! own stable id (`rf-ch_2`), sent with that id as its key (so a retry cannot refund twice), and
//! the ledger keeps both the charge and the refund.

use crate::sim::kit::Variants;
use crate::sim::{
    given, ArrowKind, CodeView, Cursor, Figure, FigureBody, InvKind, Invariant, LaneView,
    LedgerRow, MarkKind, Metric, Model, Notes, Present, RowView, Scenario, ScenarioMeta, StateView,
    StepInfo, TableView, Text, Unit, VariantMeta,
};
use crate::tx;

/// The order's amount, in whole units (shown as 100.00).
pub const AMOUNT: u32 = 100;
/// The stable payment intent of the `stable-intent` variant.
pub const INTENT: &str = "pay-1701";

const RELAY: usize = 0;
const BROKER: usize = 1;
const CONSUMER: usize = 2;
const DB: usize = 3;
const PSP: usize = 4;
const RECON: usize = 5;

const PROGRAM_NEW: &str = include_str!("duplicate_charge/consumer_new_charge.py");
const PROGRAM_MSG: &str = include_str!("duplicate_charge/consumer_message_id.py");
const PROGRAM_INTENT: &str = include_str!("duplicate_charge/consumer_stable_intent.py");

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DcVariant {
    NewChargePerDelivery,
    MessageIdDedup,
    StableIntent,
}

impl DcVariant {
    pub const ALL: [DcVariant; 3] = [
        DcVariant::NewChargePerDelivery,
        DcVariant::MessageIdDedup,
        DcVariant::StableIntent,
    ];

    fn program(self) -> &'static str {
        match self {
            DcVariant::NewChargePerDelivery => PROGRAM_NEW,
            DcVariant::MessageIdDedup => PROGRAM_MSG,
            DcVariant::StableIntent => PROGRAM_INTENT,
        }
    }
}

impl Variants for DcVariant {
    const ALL: &'static [DcVariant] = &DcVariant::ALL;
}

/// An idempotency key, and the identity of a local payment row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Key {
    /// A payment number from the `payment_no` sequence (1-based).
    Txn(u8),
    /// A message id (0-based message index).
    Msg(u8),
    /// The payment intent pay-1701.
    Intent,
    /// The refund operation for charge `ch_n` (1-based charge number).
    Refund(u8),
}

impl Key {
    pub fn show(self) -> String {
        match self {
            Key::Txn(n) => format!("txn-{n}"),
            Key::Msg(i) => msg_id(i),
            Key::Intent => INTENT.into(),
            Key::Refund(c) => format!("rf-ch_{c}"),
        }
    }
}

pub fn msg_id(i: u8) -> String {
    format!("msg-{}", i + 1)
}

fn money(units: u32) -> String {
    format!("{units}.00")
}

/// A message in the broker's log: how often it was delivered, and whether it was acknowledged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Msg {
    pub delivered: u8,
    pub acked: bool,
}

/// Where the consumer is with the message it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    /// Delivered; the handler has not looked at the database yet.
    Received,
    /// The payment number or intent is known; about to charge.
    Keyed,
    /// The charge request went out; waiting for the answer.
    Sent,
    /// The result is saved (or there was nothing to do): acknowledge next.
    Done,
}

/// The consumer's memory: the message it holds and what it knows about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Job {
    pub msg: u8,
    pub stage: Stage,
    /// The local payment row's id (a payment number, or the intent).
    pub no: Key,
    /// The key sent to the provider.
    pub key: Key,
    /// The handler found the work done already (inbox hit, intent SUCCEEDED).
    pub skipped: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PayStatus {
    Processing,
    Succeeded,
}

/// A row of the consumer's local `payments` (or `payment_intents`) table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Payment {
    pub no: Key,
    pub key: Key,
    pub status: PayStatus,
    /// The provider's charge number, once known.
    pub charge: Option<u8>,
}

/// An entry of the provider's ledger, in the order executed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Entry {
    /// A charge of 100.00 under this key.
    Charge(Key),
    /// A refund of charge `ch_n` (1-based), under the key `rf-ch_n`.
    Refund(u8),
}

/// An answer on its way back from the provider.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Answer {
    /// To the consumer: the charge `ch_n`, executed now or replayed from the saved result.
    Charged { charge: u8, replayed: bool },
    /// To the reconciliation job: refund `re_n` of charge `ch_c`.
    Refunded {
        charge: u8,
        refund: u8,
        replayed: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RefundStatus {
    Pending,
    /// Sent to the provider; no answer recorded yet.
    Sent,
    Succeeded,
}

/// A row of `refund_operations`: the refund of one duplicate charge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RefundOp {
    pub charge: u8,
    pub status: RefundStatus,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DcState {
    /// The relay has published the command (msg-1).
    pub published: bool,
    pub msgs: Vec<Msg>,
    pub up: bool,
    pub job: Option<Job>,
    /// The `payment_no` sequence's last value.
    pub serial: u8,
    pub payments: Vec<Payment>,
    /// `processed_messages` (message-id-dedup only).
    pub inbox: Vec<u8>,
    pub ledger: Vec<Entry>,
    pub answers: Vec<Answer>,
    pub refunds: Vec<RefundOp>,
    /// How many of the provider's charges the reconciliation job has examined.
    pub checked: u8,
}

impl DcState {
    /// The provider's charges, in order (charge n is `ch_n`).
    pub fn charges(&self) -> Vec<Key> {
        self.ledger
            .iter()
            .filter_map(|e| match e {
                Entry::Charge(k) => Some(*k),
                Entry::Refund(_) => None,
            })
            .collect()
    }

    pub fn refunded(&self) -> Vec<u8> {
        self.ledger
            .iter()
            .filter_map(|e| match e {
                Entry::Refund(c) => Some(*c),
                Entry::Charge(_) => None,
            })
            .collect()
    }

    /// What the customer has paid, net of refunds, in whole units.
    pub fn net(&self) -> i64 {
        (self.charges().len() as i64 - self.refunded().len() as i64) * AMOUNT as i64
    }

    fn consumer_answer(&self) -> Option<usize> {
        self.answers
            .iter()
            .position(|a| matches!(a, Answer::Charged { .. }))
    }

    fn refund_answer(&self) -> Option<usize> {
        self.answers
            .iter()
            .position(|a| matches!(a, Answer::Refunded { .. }))
    }

    /// Nothing is left for the consumer: every message acknowledged, nothing held, no answer
    /// on its way. The reconciliation job runs then.
    fn settled(&self) -> bool {
        self.published
            && self.up
            && self.job.is_none()
            && self.msgs.iter().all(|m| m.acked)
            && self.consumer_answer().is_none()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DcAct {
    Publish,
    Deliver(u8),
    /// The handler's first database step (new payment number, inbox check, create-or-read
    /// the intent).
    Open,
    Charge,
    Save,
    Ack,
    /// No answer came: the consumer gives up on the message without acknowledging it.
    Timeout,
    Restart,
    Reconcile,
    SendRefund(u8),
    RecordRefund,
    RetryRefund(u8),
    // Faults.
    Republish,
    Crash,
    LoseAnswer,
}

#[derive(Clone)]
pub struct DuplicateChargeModel {
    pub variant: DcVariant,
    pub budget: u8,
}

impl DuplicateChargeModel {
    fn intent_row(s: &DcState) -> Option<usize> {
        s.payments.iter().position(|p| p.no == Key::Intent)
    }

    /// The provider's charge (1-based number) already saved under `key`, if any.
    fn saved_charge(s: &DcState, key: Key) -> Option<u8> {
        s.charges()
            .iter()
            .position(|k| *k == key)
            .map(|i| i as u8 + 1)
    }

    fn saved_refund(s: &DcState, charge: u8) -> Option<u8> {
        s.refunded()
            .iter()
            .position(|c| *c == charge)
            .map(|i| i as u8 + 1)
    }

    /// The refund in flight (sent, no answer) whose answer was lost.
    fn refund_waiting(s: &DcState) -> Option<u8> {
        if s.refund_answer().is_some() {
            return None;
        }
        s.refunds
            .iter()
            .position(|r| r.status == RefundStatus::Sent)
            .map(|i| i as u8)
    }

    /// The provider executes a refund request for `refunds[r]`, or replays its saved result.
    fn refund_at_provider(s: &mut DcState, r: u8) {
        let charge = s.refunds[r as usize].charge;
        let (refund, replayed) = match Self::saved_refund(s, charge) {
            Some(n) => (n, true),
            None => {
                s.ledger.push(Entry::Refund(charge));
                (s.refunded().len() as u8, false)
            }
        };
        s.refunds[r as usize].status = RefundStatus::Sent;
        s.answers.push(Answer::Refunded {
            charge,
            refund,
            replayed,
        });
    }
}

/// The transitions too long for a line of `next`, one per action.
impl DuplicateChargeModel {
    fn on_deliver(&self, s: &mut DcState, i: u8) {
        if let Some(m) = s.msgs.get_mut(i as usize) {
            m.delivered += 1;
        }
        s.job = Some(Job {
            msg: i,
            stage: Stage::Received,
            no: Key::Intent,
            key: Key::Intent,
            skipped: false,
        });
    }

    fn on_open(&self, s: &mut DcState) {
        if let Some(mut j) = s.job {
            match self.variant {
                DcVariant::NewChargePerDelivery => {
                    s.serial += 1;
                    j.no = Key::Txn(s.serial);
                    j.key = j.no;
                    j.stage = Stage::Keyed;
                }
                DcVariant::MessageIdDedup => {
                    if s.inbox.contains(&j.msg) {
                        j.skipped = true;
                        j.stage = Stage::Done;
                    } else {
                        s.serial += 1;
                        j.no = Key::Txn(s.serial);
                        j.key = Key::Msg(j.msg);
                        j.stage = Stage::Keyed;
                    }
                }
                DcVariant::StableIntent => {
                    j.no = Key::Intent;
                    j.key = Key::Intent;
                    match Self::intent_row(s).map(|r| s.payments[r].status) {
                        Some(PayStatus::Succeeded) => {
                            j.skipped = true;
                            j.stage = Stage::Done;
                        }
                        Some(PayStatus::Processing) => j.stage = Stage::Keyed,
                        None => {
                            s.payments.push(Payment {
                                no: Key::Intent,
                                key: Key::Intent,
                                status: PayStatus::Processing,
                                charge: None,
                            });
                            j.stage = Stage::Keyed;
                        }
                    }
                }
            }
            s.job = Some(j);
        }
    }

    fn on_charge(&self, s: &mut DcState) {
        if let Some(mut j) = s.job {
            let (charge, replayed) = match Self::saved_charge(s, j.key) {
                Some(n) => (n, true),
                None => {
                    s.ledger.push(Entry::Charge(j.key));
                    (s.charges().len() as u8, false)
                }
            };
            s.answers.push(Answer::Charged { charge, replayed });
            j.stage = Stage::Sent;
            s.job = Some(j);
        }
    }

    fn on_save(&self, s: &mut DcState) {
        if let (Some(mut j), Some(i)) = (s.job, s.consumer_answer()) {
            if let Answer::Charged { charge, .. } = s.answers.remove(i) {
                match Self::intent_row(s) {
                    Some(r) if self.variant == DcVariant::StableIntent => {
                        let p = &mut s.payments[r];
                        if p.status == PayStatus::Processing {
                            p.status = PayStatus::Succeeded;
                            p.charge = Some(charge);
                        }
                    }
                    _ => {
                        s.payments.push(Payment {
                            no: j.no,
                            key: j.key,
                            status: PayStatus::Succeeded,
                            charge: Some(charge),
                        });
                        if self.variant == DcVariant::MessageIdDedup {
                            s.inbox.push(j.msg);
                        }
                    }
                }
            }
            j.stage = Stage::Done;
            s.job = Some(j);
        }
    }

    fn on_reconcile(&self, s: &mut DcState) {
        let charges = s.charges().len() as u8;
        // The order needs one charge: the first stays, every later one is refunded.
        for c in (s.checked + 1).max(2)..=charges {
            if !s.refunds.iter().any(|r| r.charge == c) {
                s.refunds.push(RefundOp {
                    charge: c,
                    status: RefundStatus::Pending,
                });
            }
        }
        s.checked = charges;
    }
}

impl Model for DuplicateChargeModel {
    type State = DcState;
    type Act = DcAct;

    fn init(&self) -> DcState {
        DcState {
            published: false,
            msgs: Vec::new(),
            up: true,
            job: None,
            serial: 0,
            payments: Vec::new(),
            inbox: Vec::new(),
            ledger: Vec::new(),
            answers: Vec::new(),
            refunds: Vec::new(),
            checked: 0,
        }
    }

    fn actions(&self, s: &DcState, out: &mut Vec<DcAct>) {
        if !s.published {
            out.push(DcAct::Publish);
        }
        if s.up {
            match s.job {
                None => {
                    if let Some(i) = s.msgs.iter().position(|m| !m.acked) {
                        out.push(DcAct::Deliver(i as u8));
                    }
                }
                Some(j) => match j.stage {
                    Stage::Received => out.push(DcAct::Open),
                    Stage::Keyed => out.push(DcAct::Charge),
                    Stage::Sent => {
                        if s.consumer_answer().is_some() {
                            out.push(DcAct::Save);
                        } else {
                            out.push(DcAct::Timeout);
                        }
                    }
                    Stage::Done => out.push(DcAct::Ack),
                },
            }
        } else {
            out.push(DcAct::Restart);
        }
        // The reconciliation job, once the consumer has nothing left.
        if s.settled() {
            if s.refund_answer().is_some() {
                out.push(DcAct::RecordRefund);
            } else if let Some(r) = Self::refund_waiting(s) {
                out.push(DcAct::RetryRefund(r));
            } else if let Some(r) = s
                .refunds
                .iter()
                .position(|r| r.status == RefundStatus::Pending)
            {
                out.push(DcAct::SendRefund(r as u8));
            } else if (s.checked as usize) < s.charges().len() {
                out.push(DcAct::Reconcile);
            }
        }
        // The relay re-publishes around its own restart, while msg-1 is still in play.
        if s.msgs.len() == 1 && s.msgs.iter().all(|m| !m.acked) {
            out.push(DcAct::Republish);
        }
        if s.up
            && s.job
                .is_some_and(|j| matches!(j.stage, Stage::Sent | Stage::Done))
        {
            out.push(DcAct::Crash);
        }
        if !s.answers.is_empty() {
            out.push(DcAct::LoseAnswer);
        }
    }

    fn is_fault(&self, a: &DcAct) -> bool {
        matches!(a, DcAct::Republish | DcAct::Crash | DcAct::LoseAnswer)
    }

    fn fault_budget(&self) -> u8 {
        self.budget
    }

    fn next(&self, s: &DcState, a: &DcAct) -> DcState {
        let mut s = s.clone();
        match *a {
            DcAct::Publish => {
                s.published = true;
                s.msgs.push(Msg {
                    delivered: 0,
                    acked: false,
                });
            }
            DcAct::Republish => {
                s.msgs.push(Msg {
                    delivered: 0,
                    acked: false,
                });
            }
            DcAct::Deliver(i) => self.on_deliver(&mut s, i),
            DcAct::Open => self.on_open(&mut s),
            DcAct::Charge => self.on_charge(&mut s),
            DcAct::Save => self.on_save(&mut s),
            DcAct::Ack => {
                if let Some(j) = given(s.job.take(), "a job to ack") {
                    if let Some(m) = given(s.msgs.get_mut(j.msg as usize), "its message") {
                        m.acked = true;
                    }
                }
            }
            DcAct::Timeout => s.job = None,
            DcAct::Crash => {
                s.up = false;
                s.job = None;
                s.answers.retain(|a| !matches!(a, Answer::Charged { .. }));
            }
            DcAct::Restart => s.up = true,
            DcAct::LoseAnswer => {
                s.answers.remove(0);
            }
            DcAct::Reconcile => self.on_reconcile(&mut s),
            DcAct::SendRefund(r) | DcAct::RetryRefund(r) => Self::refund_at_provider(&mut s, r),
            DcAct::RecordRefund => {
                if let Some(i) = given(s.refund_answer(), "a refund's answer") {
                    if let Answer::Refunded { charge, .. } = s.answers.remove(i) {
                        let refund = s.refunds.iter_mut().find(|r| r.charge == charge);
                        if let Some(r) = given(refund, "the refund answered") {
                            r.status = RefundStatus::Succeeded;
                        }
                    }
                }
            }
        }
        s
    }

    fn invariants(&self) -> Vec<Invariant<DcState>> {
        vec![
            Invariant {
                name: Text::new("one successful charge per order", "每个订单只有一笔成功扣款"),
                kind: InvKind::Always,
                holds: Text::new(
                    "The provider's ledger holds at most one charge for ord-1701.",
                    "支付方的流水里 ord-1701 最多只有一笔扣款。",
                ),
                check: charged_twice,
                rows: |s| {
                    let charges = (s.ledger.iter()).filter(|e| matches!(e, Entry::Charge(_)));
                    charges.enumerate().map(|(i, _)| ("ledger", format!("ch_{}", i + 1))).collect()
                },
            },
            Invariant {
                name: Text::new("the customer pays once in the end", "客户最终只付一次钱"),
                kind: InvKind::Eventually,
                holds: Text::new(
                    "Charges minus refunds for ord-1701 come to exactly 100.00, with every charge and refund still in the ledger.",
                    "ord-1701 的扣款减去退款正好是 100.00，每笔扣款和退款都还留在流水里。",
                ),
                check: net_wrong,
                rows: |s| {
                    let mut c = 0;
                    (s.ledger.iter())
                        .map(|e| match e {
                            Entry::Charge(_) => {
                                c += 1;
                                ("ledger", format!("ch_{c}"))
                            }
                            Entry::Refund(_) => ("ledger", String::new()),
                        })
                        .filter(|r| !r.1.is_empty())
                        .collect()
                },
            },
        ]
    }
}

impl Present for DuplicateChargeModel {
    fn label(&self, s: &DcState, a: &DcAct) -> Text {
        let held = s.job.map(|j| msg_id(j.msg)).unwrap_or_default();
        match *a {
            DcAct::Publish => Text::new(
                "Relay: publish the charge command msg-1",
                "中继：发布扣款命令 msg-1",
            ),
            DcAct::Republish => Text::new(
                "Relay re-publishes the command as msg-2",
                "中继以 msg-2 重新发布同一命令",
            ),
            DcAct::Deliver(i) => tx!("Broker: deliver {}", "消息代理：投递 {}", msg_id(i)),
            DcAct::Open => match self.variant {
                DcVariant::NewChargePerDelivery => Text::new(
                    "Consumer: take a new payment number",
                    "消费者：生成新的支付流水号",
                ),
                DcVariant::MessageIdDedup => tx!(
                    "Consumer: look up {held} in the inbox",
                    "消费者：在收件箱中查找 {held}"
                ),
                DcVariant::StableIntent => Text::new(
                    "Consumer: create or read intent pay-1701",
                    "消费者：创建或读取支付意图 pay-1701",
                ),
            },
            DcAct::Charge => {
                let k = s.job.map(|j| j.key.show()).unwrap_or_default();
                tx!("Consumer: charge with key {k}", "消费者：用键 {k} 扣款")
            }
            DcAct::Save => Text::new("Consumer: save the result", "消费者：保存支付结果"),
            DcAct::Ack => tx!("Consumer: acknowledge {held}", "消费者：确认 {held}"),
            DcAct::Timeout => tx!(
                "Consumer: time out, leave {held} unacknowledged",
                "消费者：超时，不确认 {held}"
            ),
            DcAct::Restart => Text::new("Restart the consumer", "重启消费者"),
            DcAct::Crash => {
                if s.job.is_some_and(|j| j.stage == Stage::Sent) {
                    Text::new(
                        "Crash the consumer (charged, not saved)",
                        "让消费者崩溃（已扣款，未保存）",
                    )
                } else {
                    Text::new(
                        "Crash the consumer (saved, not acknowledged)",
                        "让消费者崩溃（已保存，未确认）",
                    )
                }
            }
            DcAct::LoseAnswer => Text::new("Lose the provider's answer", "丢失支付方的应答"),
            DcAct::Reconcile
            | DcAct::SendRefund(_)
            | DcAct::RetryRefund(_)
            | DcAct::RecordRefund => reconciliation_label(s, a),
        }
    }

    fn view(&self, s: &DcState) -> StateView {
        let lanes = vec![
            LaneView::process("Outbox relay", "发件箱中继"),
            LaneView::store("Broker", "消息代理"),
            LaneView::process("Payment consumer", "支付消费者").down_when(!s.up),
            LaneView::store("Payments DB", "支付数据库"),
            LaneView::store("Payment provider", "支付方"),
            LaneView::process("Reconciler", "对账任务"),
        ];
        let mut tables = vec![
            self.broker_table(s),
            self.consumer_table(s),
            self.payments_table(s),
        ];
        if self.variant == DcVariant::MessageIdDedup {
            tables.push(self.inbox_table(s));
        }
        tables.push(self.ledger_table(s));
        tables.push(self.wire_table(s));
        tables.push(self.refunds_table(s));
        let deliveries: u32 = s.msgs.iter().map(|m| m.delivered as u32).sum();
        StateView {
            lanes,
            tables,
            metrics: vec![
                Metric::count(Text::new("deliveries", "投递次数"), deliveries),
                Metric::count(
                    Text::new("charges at the provider", "支付方扣款笔数"),
                    s.charges().len() as u32,
                ),
                Metric::count(
                    Text::new("refunds at the provider", "支付方退款笔数"),
                    s.refunded().len() as u32,
                ),
                Metric::count(
                    Text::new("net paid by the customer", "客户净支付"),
                    s.net().max(0) as u32,
                ),
            ],
            code: Some(self.code(s)),
            figure: Some(figure(s)),
            ..StateView::default()
        }
    }

    fn describe(&self, b: &DcState, a: &DcAct, s: &DcState) -> StepInfo {
        narrate::describe(self, b, *a, s)
    }

    fn intro(&self) -> Text {
        narrate::intro(self.variant)
    }
}

/// Charges intended against executed at the provider, and what the customer paid in the end.
fn figure(s: &DcState) -> Figure {
    let charges = s.charges().len() as u32;
    let net = s.net().max(0) as u32 * 100;
    Figure {
        title: Text::new("Charges for order ord-1701", "订单 ord-1701 的扣款"),
        name: Text::new(
            format!(
                "{} executed for one intended; the customer paid {} net for an order of 100.00",
                crate::sim::counted(charges, "charge", "charges"),
                Unit::Cents.format(net)
            ),
            format!(
                "应扣款 1 笔，实际扣款 {charges} 笔；订单金额 100.00，客户净支付 {}",
                Unit::Cents.format(net)
            ),
        ),
        body: FigureBody::Ledger(vec![
            LedgerRow {
                name: Text::new("successful charges", "成功的扣款"),
                intended: 1,
                executed: charges,
                unit: Unit::Count,
            },
            LedgerRow {
                name: Text::new("paid by the customer, net", "客户净支付"),
                intended: AMOUNT * 100,
                executed: net,
                unit: Unit::Cents,
            },
        ]),
        shows: vec![0, 1],
    }
}

fn charged_twice(s: &DcState) -> Option<Text> {
    let charges = s.charges();
    (charges.len() > 1).then(|| {
        let en: Vec<String> = charges
            .iter()
            .enumerate()
            .map(|(i, k)| format!("ch_{} ({})", i + 1, k.show()))
            .collect();
        let zh: Vec<String> = charges
            .iter()
            .enumerate()
            .map(|(i, k)| format!("ch_{}（{}）", i + 1, k.show()))
            .collect();
        let n = charges.len();
        let (en, zh) = (en.join(", "), zh.join("、"));
        tx!(
            "The provider charged ord-1701 {n} times: {en}. Each key was new to it.",
            "支付方为 ord-1701 扣了 {n} 次款：{zh}。每个键对它来说都是新的。"
        )
    })
}

fn net_wrong(s: &DcState) -> Option<Text> {
    let net = s.net();
    (net != AMOUNT as i64).then(|| {
        let paid = if net < 0 {
            format!("-{}", money(net.unsigned_abs() as u32))
        } else {
            money(net as u32)
        };
        let (c, r) = (s.charges().len(), s.refunded().len());
        tx!(
            "The customer has paid {paid} net for an order of 100.00 ({c} charges, {r} refunds).",
            "订单金额 100.00，客户净支付却是 {paid}（{c} 笔扣款，{r} 笔退款）。"
        )
    })
}

impl DuplicateChargeModel {
    fn broker_table(&self, s: &DcState) -> TableView {
        let mut t = TableView::durable(
            "messages",
            Text::new("Broker: payment commands", "消息代理：支付命令"),
            BROKER,
        );
        t.columns = vec![
            Text::new("message id", "消息标识"),
            Text::new("order", "订单"),
            Text::new("payment intent", "支付意图"),
            Text::new("deliveries", "投递次数"),
            Text::new("acknowledged", "已确认"),
        ];
        t.empty = Text::new("(nothing published yet)", "（尚未发布）");
        for (i, m) in s.msgs.iter().enumerate() {
            let held = s.job.is_some_and(|j| j.msg as usize == i);
            let acked = if m.acked {
                Text::new("yes", "是")
            } else if held {
                Text::new("no (held by the consumer)", "否（消费者处理中）")
            } else if m.delivered > 0 {
                Text::new("no (will be redelivered)", "否（将再次投递）")
            } else {
                Text::new("no", "否")
            };
            t.rows.push(RowView::new(
                msg_id(i as u8),
                vec![
                    Text::same(msg_id(i as u8)),
                    Text::same("ord-1701"),
                    Text::same(INTENT),
                    Text::same(m.delivered.to_string()),
                    acked,
                ],
            ));
        }
        t
    }

    fn consumer_table(&self, s: &DcState) -> TableView {
        let mut t = TableView::memory(
            "consumer",
            Text::new("Consumer memory", "消费者内存"),
            CONSUMER,
        );
        t.lost = !s.up;
        t.columns = vec![
            Text::new("message", "消息"),
            Text::new("key", "键"),
            Text::new("doing", "在做"),
        ];
        t.empty = Text::new("(idle)", "（空闲）");
        if let Some(j) = s.job {
            let key = if j.stage == Stage::Received || j.skipped {
                Text::same("—")
            } else {
                Text::same(j.key.show())
            };
            let doing = match (j.stage, j.skipped) {
                (Stage::Received, _) => Text::new("received", "已收到"),
                (Stage::Keyed, _) => Text::new("about to charge", "准备扣款"),
                (Stage::Sent, _) => Text::new(
                    "charge sent, waiting for the answer",
                    "已发出扣款，等待应答",
                ),
                (Stage::Done, true) => {
                    Text::new("already handled: acknowledge", "已处理过：直接确认")
                }
                (Stage::Done, false) => {
                    Text::new("result saved, not acknowledged", "结果已保存，未确认")
                }
            };
            t.rows.push(RowView::new(
                "job".into(),
                vec![Text::same(msg_id(j.msg)), key, doing],
            ));
        }
        t
    }

    fn payments_table(&self, s: &DcState) -> TableView {
        let stable = self.variant == DcVariant::StableIntent;
        let title = if stable {
            "payment_intents"
        } else {
            "payments"
        };
        let mut t = TableView::durable("payments", Text::same(title), DB);
        t.columns = [
            if stable { "intent_id" } else { "payment_no" },
            "order_id",
            "idempotency_key",
            "status",
            "charge_id",
        ]
        .into_iter()
        .map(Text::same)
        .collect();
        t.empty = Text::new("(no payment yet)", "（还没有支付记录）");
        for p in &s.payments {
            let status = match p.status {
                PayStatus::Processing => "PROCESSING",
                PayStatus::Succeeded => "SUCCEEDED",
            };
            t.rows.push(RowView::new(
                p.no.show(),
                vec![
                    Text::same(p.no.show()),
                    Text::same("ord-1701"),
                    Text::same(p.key.show()),
                    Text::same(status),
                    Text::same(p.charge.map_or("—".into(), |c| format!("ch_{c}"))),
                ],
            ));
        }
        t
    }

    fn inbox_table(&self, s: &DcState) -> TableView {
        let mut t = TableView::durable("inbox", Text::same("processed_messages"), DB);
        t.columns = vec![Text::same("message_id")];
        t.empty = Text::new("(no message processed)", "（没有已处理的消息）");
        for &m in &s.inbox {
            t.rows
                .push(RowView::new(msg_id(m), vec![Text::same(msg_id(m))]));
        }
        t
    }

    fn ledger_table(&self, s: &DcState) -> TableView {
        let mut t = TableView::durable(
            "ledger",
            Text::new(
                "Provider ledger (Stripe API v1 idempotency)",
                "支付方流水（Stripe API v1 幂等语义）",
            ),
            PSP,
        );
        t.columns = vec![
            Text::new("entry", "流水"),
            Text::new("kind", "类型"),
            Text::new("idempotency key", "幂等键"),
            Text::new("amount", "金额"),
        ];
        t.empty = Text::new("(no charge)", "（没有扣款）");
        let (mut c, mut r) = (0, 0);
        for e in &s.ledger {
            let row = match *e {
                Entry::Charge(k) => {
                    c += 1;
                    vec![
                        Text::same(format!("ch_{c}")),
                        Text::new("charge ord-1701", "扣款 ord-1701"),
                        Text::same(k.show()),
                        Text::same(money(AMOUNT)),
                    ]
                }
                Entry::Refund(of) => {
                    r += 1;
                    vec![
                        Text::same(format!("re_{r}")),
                        tx!("refund of ch_{of}", "退还 ch_{of}"),
                        Text::same(Key::Refund(of).show()),
                        Text::same(format!("-{}", money(AMOUNT))),
                    ]
                }
            };
            let key = row[0].en.clone();
            t.rows.push(RowView::new(key, row));
        }
        t
    }

    fn wire_table(&self, s: &DcState) -> TableView {
        let mut t = TableView::memory("wire", Text::new("On the wire", "网络中"), PSP);
        t.columns = vec![Text::new("answer", "应答"), Text::new("to", "发往")];
        t.empty = Text::new("(nothing in flight)", "（没有在途应答）");
        for (i, a) in s.answers.iter().enumerate() {
            let (what, to) = match *a {
                Answer::Charged { charge, replayed } => (
                    if replayed {
                        tx!(
                            "200 charged ch_{charge} (replayed)",
                            "200 已扣款 ch_{charge}（重放）"
                        )
                    } else {
                        tx!("200 charged ch_{charge}", "200 已扣款 ch_{charge}")
                    },
                    Text::new("consumer", "消费者"),
                ),
                Answer::Refunded {
                    refund, replayed, ..
                } => (
                    if replayed {
                        tx!(
                            "200 refunded re_{refund} (replayed)",
                            "200 已退款 re_{refund}（重放）"
                        )
                    } else {
                        tx!("200 refunded re_{refund}", "200 已退款 re_{refund}")
                    },
                    Text::new("reconciler", "对账任务"),
                ),
            };
            t.rows.push(RowView::new(format!("a-{i}"), vec![what, to]));
        }
        t
    }

    fn refunds_table(&self, s: &DcState) -> TableView {
        let mut t = TableView::durable("refunds", Text::same("refund_operations"), RECON);
        t.columns = ["operation_id", "charge_id", "amount", "status"]
            .into_iter()
            .map(Text::same)
            .collect();
        t.empty = Text::new("(no refund needed yet)", "（暂无需要的退款）");
        for r in &s.refunds {
            let status = match r.status {
                RefundStatus::Pending => "PENDING",
                RefundStatus::Sent => "PROCESSING",
                RefundStatus::Succeeded => "SUCCEEDED",
            };
            t.rows.push(RowView::new(
                Key::Refund(r.charge).show(),
                vec![
                    Text::same(Key::Refund(r.charge).show()),
                    Text::same(format!("ch_{}", r.charge)),
                    Text::same(money(AMOUNT)),
                    Text::same(status),
                ],
            ));
        }
        t
    }

    fn code(&self, s: &DcState) -> CodeView {
        let text = self.variant.program();
        let find = |needle: &str| text.lines().position(|l| l.contains(needle)).unwrap_or(0);
        let (line, doing) = match s.job {
            None if !s.up => (find("def on_message"), Text::new("crashed", "已崩溃")),
            None => (find("def on_message"), Text::new("idle", "空闲")),
            Some(j) => match (j.stage, j.skipped) {
                (Stage::Received, _) => (
                    find("def on_message"),
                    tx!("got {}", "收到 {}", msg_id(j.msg)),
                ),
                (Stage::Keyed, _) => (
                    find("provider.charge("),
                    Text::new("about to charge", "准备扣款"),
                ),
                (Stage::Sent, _) => (
                    find("provider.charge("),
                    Text::new("waiting for the answer", "等待应答"),
                ),
                (Stage::Done, true) => (
                    find("return msg.ack()"),
                    Text::new("already handled", "已处理过"),
                ),
                (Stage::Done, false) => (
                    text.lines().count().saturating_sub(1),
                    Text::new("saved, about to acknowledge", "已保存，准备确认"),
                ),
            },
        };
        CodeView {
            title: "consumer.py",
            text,
            cursors: vec![Cursor {
                line,
                who: "C".into(),
                doing,
            }],
        }
    }
}

mod narrate;

/// The duplicate-charge scenario: at-least-once delivery needs a stable business identity.
pub struct DuplicateCharge;

impl DuplicateCharge {
    pub fn model(variant: DcVariant, budget: u8) -> DuplicateChargeModel {
        DuplicateChargeModel { variant, budget }
    }
}

impl Scenario for DuplicateCharge {
    type Model = DuplicateChargeModel;
    type Variant = DcVariant;

    fn model_of(variant: usize, budget: Option<u8>, _knobs: &[u32]) -> DuplicateChargeModel {
        Self::model(DcVariant::at(variant), budget.unwrap_or(2))
    }

    fn meta(&self) -> ScenarioMeta {
        let variants = [
            VariantMeta::mistake("new-charge-per-delivery", ["New payment number per delivery", "每次消费新流水号"],
                                 ["Each consumption mints a new payment number and sends it as the key: a redelivered msg-1 charges ord-1701 again.",
                                  "每次消费都生成新的支付流水号并作为键发出：再次投递的 msg-1 又扣了 ord-1701 一次。"])
            .failing("000020000", ["let the consumer charge, then ⚡ crash it before it saves: msg-1 comes again with a new key.",
                                   "让消费者扣款，然后在保存前 ⚡ 让它崩溃：msg-1 再次到来，带着新的键。"]),
            VariantMeta::mistake("message-id-dedup", ["Message-id inbox", "按消息标识去重"],
                                 ["An inbox of processed message ids survives the redelivery, but the relay re-publishing the command as msg-2 charges again.",
                                  "记录已处理消息标识的收件箱挡住了再次投递，但中继以 msg-2 重新发布同一命令时又扣了一次。"])
            .failing("0000010000", ["after the charge is saved, ⚡ have the relay re-publish the command as msg-2.",
                                    "扣款保存之后，⚡ 让中继把同一命令以 msg-2 重新发布。"]),
            VariantMeta::fix("stable-intent", ["Stable payment intent", "稳定支付意图"],
                             ["The intent pay-1701 is created or read once and its id is the key on every attempt: one charge, whatever carries the command.",
                              "支付意图 pay-1701 只创建或读取一次，每次尝试都以它为键：无论命令怎么到达，只扣一次。"])
            .hinted(["⚡ crash the consumer, lose the answer, re-publish: every attempt carries pay-1701, and the provider charges once.",
                     "⚡ 让消费者崩溃、让应答丢失、重新发布：每次尝试都带着 pay-1701，支付方只扣一次。"]),
        ];
        ScenarioMeta {
            slug: "duplicate-charge",
            theme: Text::new("Dual writes and messaging", "双写与消息"),
            title: Text::new(
                "Duplicate charge: a redelivered payment command",
                "重复扣款：再次投递的支付命令",
            ),
            summary: Text::new(
                "The consumer charges, saves, and dies before acknowledging; the broker delivers again. Only a stable payment intent keeps it to one charge.",
                "消费者扣款、保存结果后在确认消息之前退出；消息再次投递。只有稳定的支付意图才能保证只扣一次。",
            ),
            variants: variants
                .into_iter()
                .map(|m| VariantMeta {
                    fault_budget: 2,
                    fixed_by: (!m.fixed).then_some("stable-intent"),
                    ..m
                })
                .collect(),
            knobs: Vec::new(),
            moves_heading: Some(Text::new("Next in the payment pipeline", "支付链路的下一步")),
        }
    }
}

/// Speaker notes for presenting this scenario. Not part of `meta()`: the page fetches them on
/// demand from `notes.json`, which `content::notes_json` writes (see `content`).
pub(crate) fn notes() -> Notes {
    Notes::new(
        ["The broker kept its promise: at-least-once means the command may arrive again. What was missing is a stable identity for the business operation. Create or read the payment intent pay-1701 once, unique per order; send its id as the provider's idempotency key on every attempt; on a repeat, SUCCEEDED returns the saved result, PROCESSING asks the provider. A message id only catches the same message; the intent also catches the same command under a new message id. A duplicate that already happened is refunded with its own stable operation id, never deleted.",
         "消息代理没有违约：至少投递一次，命令就可能再来。缺的是业务操作的稳定身份。为这次收款创建或读取支付意图 pay-1701，并按订单约束唯一；每次尝试都把它作为支付方的幂等键；重复到达时，成功就返回已有结果，处理中就查询支付方。消息标识只能拦截同一条消息，稳定支付意图还能覆盖中继换了消息标识的同一命令。已经发生的重复扣款走受控退款，退款也有自己的稳定操作标识，绝不删除流水。"],
        ["“Why not ack before charging?” Then a crash loses the payment. “Isn't the inbox enough?” Only for local effects in the same transaction; the provider call is outside it, and a re-published command has a new message id. “Exactly-once Kafka?” Kafka transactions cover Kafka topics, not the provider's ledger (kafka.apache.org/documentation/#semantics).",
         "“先确认再扣款不行吗？”那样一崩溃就丢了这笔支付。“有收件箱还不够吗？”只够保护同一事务里的本地效果；支付方的调用在事务之外，重新发布的命令还换了消息标识。“Kafka exactly-once 呢？”它的事务覆盖的是 Kafka 主题之间，不是支付方的流水（kafka.apache.org/documentation/#semantics）。"],
        ["“We use an exactly-once MQ, so there can be no duplicate charge.” “Delete the second charge record and the books are right again.”",
         "“用了 exactly-once MQ，所以绝不会重复扣款。”“把第 2 笔流水删掉，账就对了。”"],
    )
}

/// Labels of the reconciliation job's actions.
fn reconciliation_label(s: &DcState, a: &DcAct) -> Text {
    match *a {
        DcAct::Reconcile => Text::new(
            "Reconciliation: compare the provider's charges with the order",
            "对账：核对支付方的扣款与订单",
        ),
        DcAct::SendRefund(r) | DcAct::RetryRefund(r) => {
            let c = s.refunds.get(r as usize).map_or(0, |x| x.charge);
            let k = Key::Refund(c).show();
            if matches!(a, DcAct::RetryRefund(_)) {
                tx!(
                    "Reconciliation: time out, retry {k} with the same key",
                    "对账：超时，用同一个键重试 {k}"
                )
            } else {
                tx!(
                    "Reconciliation: refund ch_{c} with key {k}",
                    "对账：用键 {k} 退还 ch_{c}"
                )
            }
        }
        DcAct::RecordRefund => Text::new("Reconciliation: record the refund", "对账：记录退款结果"),
        _ => {
            debug_assert!(false, "not a reconciliation action: {a:?}");
            Text::default()
        }
    }
}
