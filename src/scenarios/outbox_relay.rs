//! # Outbox relay: at-least-once delivery, duplicates, and the inbox
//!
//! **Setting.** Order 17 is created and then cancelled. Each change commits, in one local
//! transaction with it, an outbox row: `e-1` (`OrderCreated`, version 1) and `e-2`
//! (`OrderCancelled`, version 2). A relay claims a pending row, publishes it to the broker (keyed
//! by order id) and marks it sent. The inventory consumer reserves a unit of stock on v1 and
//! releases it on v2; a notification consumer sends an email per message.
//!
//! **The bugs.** Publishing and marking sent are two writes to two systems: a relay that dies
//! between them (or never hears the broker's acknowledgement) publishes again, so delivery is
//! at-least-once. `no-dedup` reserves stock twice. `inbox-separate-tx` records the event as
//! processed in its own transaction: a crash before the business change loses the effect.
//! `delete-after-publish` deletes the row without waiting for the acknowledgement: a publish
//! the broker never stored is gone for good. `two-relays` take the same row with a plain
//! `SELECT`.
//!
//! **The fixes.** `inbox`: `INSERT INTO processed_messages … ON CONFLICT DO NOTHING` and the
//! business change in *one* consumer transaction, so a duplicate changes nothing. `skip-locked`:
//! relays claim rows with `FOR UPDATE SKIP LOCKED`, which divides rows between them — but not one
//! order's events, so v2 can overtake v1; the consumer's version guard makes the late v1 a no-op.
//!
//! **Worked counterexample** (`no-dedup`): create and cancel commit, the relay claims and
//! publishes `e-1`, crashes before marking it sent, restarts and publishes `e-1` again; the
//! inventory consumer applies both deliveries and reserves order 17's stock twice.

use crate::sim::kit::Proc;
use crate::sim::kit::Variants;
use crate::sim::{
    given, ArrowKind, Figure, FigureBody, InvKind, Invariant, LaneView, LedgerRow, MarkKind,
    Metric, MetricValue, Model, Notes, Present, RowView, Scenario, ScenarioMeta, StateView,
    StepInfo, TableView, Text, Unit, VariantMeta,
};
use crate::tx;

/// The order whose events flow through the system.
pub const ORDER: u32 = 17;
/// Events of the order: index 0 is `e-1` (version 1), index 1 is `e-2` (version 2).
const EVENTS: usize = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OrVariant {
    NoDedup,
    Inbox,
    InboxSeparateTx,
    DeleteAfterPublish,
    TwoRelays,
    SkipLocked,
}

impl OrVariant {
    pub const ALL: [OrVariant; 6] = [
        OrVariant::NoDedup,
        OrVariant::Inbox,
        OrVariant::InboxSeparateTx,
        OrVariant::DeleteAfterPublish,
        OrVariant::TwoRelays,
        OrVariant::SkipLocked,
    ];

    fn relays(self) -> usize {
        if matches!(self, OrVariant::TwoRelays | OrVariant::SkipLocked) {
            2
        } else {
            1
        }
    }

    fn inbox(self) -> bool {
        self != OrVariant::NoDedup
    }

    fn guard(self) -> bool {
        self == OrVariant::SkipLocked
    }
}

impl Variants for OrVariant {
    const ALL: &'static [OrVariant] = &OrVariant::ALL;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Ob {
    Absent,
    Pending,
    Sent,
    Deleted,
}

/// A relay's volatile memory: the row in hand (an event index), and whether it is published.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Hand {
    ev: u8,
    published: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum CPc {
    #[default]
    Idle,
    /// A delivery in hand, nothing committed yet.
    Got,
    /// `inbox-separate-tx`: the inbox row committed, the business change not yet.
    Marked,
    /// The consumer's transaction committed; the offset not yet.
    Done,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct CMem {
    pc: CPc,
    /// The broker offset of the delivery in hand.
    off: u8,
}

/// What the inventory consumer's committed transaction did with a delivery.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Outcome {
    Applied,
    /// The inbox already held the event id: nothing changed.
    Absorbed,
    /// The version guard found a newer version applied: nothing changed.
    Stale,
    /// `inbox-separate-tx`: recorded as processed, business change still to come.
    MarkedOnly,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OrState {
    /// Order transactions committed so far (0..=2): create, then cancel.
    svc: u8,
    outbox: [Ob; EVENTS],
    relays: [Proc<Option<Hand>>; 2],
    /// The broker's log for partition "order 17": one event index per offset.
    log: Vec<u8>,
    /// The inventory group's committed offset, and the notification group's.
    acked: u8,
    notified: u8,
    cons: Proc<CMem>,
    /// Inventory database: processed_messages, and what each committed delivery did.
    inbox: [bool; EVENTS],
    history: Vec<(u8, Outcome)>,
    /// Events delivered to inventory at least once (to count duplicates).
    seen: [bool; EVENTS],
    dups: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrAct {
    SvcCreate,
    SvcCancel,
    Claim(u8),
    Publish(u8),
    MarkSent(u8),
    RelayRestart(u8),
    Deliver,
    InboxTx,
    ApplyTx,
    Ack,
    ConsRestart,
    Notify,
    // Faults.
    PublishLost(u8),
    AckLost(u8),
    RelayCrash(u8),
    ConsCrash,
    Redeliver,
}

#[derive(Clone, Copy, Debug)]
pub struct OutboxRelayModel {
    pub variant: OrVariant,
    pub fault_budget: u8,
}

fn ev_id(e: u8) -> String {
    format!("e-{}", e + 1)
}

fn ev_type(e: u8) -> &'static str {
    if e == 0 {
        "OrderCreated"
    } else {
        "OrderCancelled"
    }
}

fn relay_name(r: u8) -> char {
    (b'A' + r) as char
}

/// What follows "relay" in a name: " A" or " B" when there are two relays, else nothing.
fn suffix(m: &OutboxRelayModel, r: u8) -> String {
    if m.relays() > 1 {
        format!(" {}", relay_name(r))
    } else {
        String::new()
    }
}

/// Stock reserved for order 17 after these committed deliveries, and how many reservations
/// were made: v1 reserves a unit, v2 releases what is reserved.
fn stock(history: &[(u8, Outcome)]) -> (u8, u8) {
    let (mut reserved, mut made) = (0u8, 0u8);
    for &(e, o) in history {
        if o == Outcome::Applied {
            if e == 0 {
                reserved += 1;
                made += 1;
            } else {
                reserved = reserved.saturating_sub(1);
            }
        }
    }
    (reserved, made)
}

/// The highest version the inventory has applied (the version guard's column).
fn version(s: &OrState) -> u8 {
    s.history
        .iter()
        .filter(|h| h.1 == Outcome::Applied)
        .map(|h| h.0 + 1)
        .max()
        .unwrap_or(0)
}

impl OutboxRelayModel {
    fn relays(&self) -> u8 {
        self.variant.relays() as u8
    }

    fn lane_broker(&self) -> usize {
        2 + self.variant.relays()
    }

    /// The row a relay's SELECT returns, if any: the first pending one by version; with SKIP
    /// LOCKED, rows another relay holds are skipped.
    fn claimable(&self, s: &OrState, r: u8) -> Option<u8> {
        let other = s.relays[usize::from(1 - r)].mem.map(|h| h.ev);
        (0..EVENTS as u8).find(|&e| {
            s.outbox[e as usize] == Ob::Pending
                && !(self.variant == OrVariant::SkipLocked && other == Some(e) && self.relays() > 1)
        })
    }

    fn hand(s: &OrState, r: u8) -> Option<Hand> {
        let p = &s.relays[r as usize];
        p.mem.filter(|_| p.up)
    }

    fn delivery(s: &OrState) -> u8 {
        s.log[s.cons.mem.off as usize]
    }
}

/// The transitions too long for a line of `next`.
impl OutboxRelayModel {
    /// Relay `r` publishes the event in hand (and deletes its row, in that variant).
    fn publish(&self, s: &OrState, n: &mut OrState, r: u8) {
        let delete = self.variant == OrVariant::DeleteAfterPublish;
        if let Some(h) = Self::hand(s, r) {
            n.log.push(h.ev);
            n.relays[r as usize].mem = if delete {
                n.outbox[h.ev as usize] = Ob::Deleted;
                None
            } else {
                Some(Hand {
                    published: true,
                    ..h
                })
            };
        }
    }

    /// The broker delivers the next unacknowledged event to the inventory consumer.
    fn deliver(&self, s: &OrState, n: &mut OrState) {
        let e = s.log[s.acked as usize];
        if s.seen[e as usize] {
            n.dups += 1;
        }
        n.seen[e as usize] = true;
        n.cons.mem = CMem {
            pc: CPc::Got,
            off: s.acked,
        };
    }

    /// The consumer records the event in its inbox in a transaction of its own.
    fn inbox_tx(&self, s: &OrState, n: &mut OrState) {
        let e = Self::delivery(s);
        let outcome = if s.inbox[e as usize] {
            n.cons.mem.pc = CPc::Done;
            Outcome::Absorbed
        } else {
            n.inbox[e as usize] = true;
            n.cons.mem.pc = CPc::Marked;
            Outcome::MarkedOnly
        };
        n.history.push((e, outcome));
    }

    /// The consumer applies the event (behind its inbox or version guard) and commits.
    fn apply_tx(&self, s: &OrState, n: &mut OrState) {
        let e = Self::delivery(s);
        let outcome = if s.cons.mem.pc == CPc::Marked {
            n.history.pop();
            Outcome::Applied
        } else if self.variant.inbox() && s.inbox[e as usize] {
            Outcome::Absorbed
        } else if self.variant.guard() && version(s) > e {
            n.inbox[e as usize] = true;
            Outcome::Stale
        } else {
            n.inbox[e as usize] = self.variant.inbox();
            Outcome::Applied
        };
        n.history.push((e, outcome));
        n.cons.mem.pc = CPc::Done;
    }
}

/// Labels of the relays' actions (the relay's suffix when there are two).
impl OutboxRelayModel {
    fn relay_label(&self, s: &OrState, a: &OrAct) -> Text {
        let hand = |r: u8| Self::hand(s, r).map(|h| ev_id(h.ev)).unwrap_or_default();
        match *a {
            OrAct::Claim(r) => {
                let (x, e) = (
                    suffix(self, r),
                    self.claimable(s, r).map(ev_id).unwrap_or_default(),
                );
                tx!("Relay{x}: claim {e}", "中继{x}：领取 {e}")
            }
            OrAct::Publish(r) => {
                let (x, e) = (suffix(self, r), hand(r));
                tx!("Relay{x}: publish {e}", "中继{x}：发布 {e}")
            }
            OrAct::MarkSent(r) => {
                let (x, e) = (suffix(self, r), hand(r));
                tx!("Relay{x}: mark {e} sent", "中继{x}：把 {e} 标记为已发送")
            }
            OrAct::RelayRestart(r) => {
                let x = suffix(self, r);
                tx!("Restart relay{x}", "重启中继{x}")
            }
            OrAct::PublishLost(r) => {
                let (x, e) = (suffix(self, r), hand(r));
                tx!(
                    "Publish of {e} lost (relay{x})",
                    "{e} 的发布丢失（中继{x}）"
                )
            }
            OrAct::AckLost(r) => {
                let x = suffix(self, r);
                tx!(
                    "Broker ack lost (relay{x})",
                    "消息代理的确认丢失（中继{x}）"
                )
            }
            OrAct::RelayCrash(r) => {
                let x = suffix(self, r);
                tx!("Crash relay{x} after publish", "中继{x} 发布后崩溃")
            }
            _ => {
                debug_assert!(false, "not a relay's action: {a:?}");
                Text::default()
            }
        }
    }
}

impl Model for OutboxRelayModel {
    type State = OrState;
    type Act = OrAct;

    fn init(&self) -> OrState {
        OrState {
            svc: 0,
            outbox: [Ob::Absent; EVENTS],
            relays: [Proc::new(), Proc::new()],
            log: Vec::new(),
            acked: 0,
            notified: 0,
            cons: Proc::new(),
            inbox: [false; EVENTS],
            history: Vec::new(),
            seen: [false; EVENTS],
            dups: 0,
        }
    }

    fn actions(&self, s: &OrState, out: &mut Vec<OrAct>) {
        match s.svc {
            0 => out.push(OrAct::SvcCreate),
            1 => out.push(OrAct::SvcCancel),
            _ => {}
        }
        let relays = 0..self.relays();
        for r in relays.clone() {
            if s.relays[r as usize].up
                && s.relays[r as usize].mem.is_none()
                && self.claimable(s, r).is_some()
            {
                out.push(OrAct::Claim(r));
            }
        }
        // The last relay publishes first, so two relays show their race by default.
        for r in relays.clone().rev() {
            if Self::hand(s, r).is_some_and(|h| !h.published) {
                out.push(OrAct::Publish(r));
            }
        }
        for r in relays.clone() {
            if Self::hand(s, r).is_some_and(|h| h.published) {
                out.push(OrAct::MarkSent(r));
            }
            if !s.relays[r as usize].up {
                out.push(OrAct::RelayRestart(r));
            }
        }
        let c = &s.cons;
        match (c.up, c.mem.pc) {
            (false, _) => out.push(OrAct::ConsRestart),
            (true, CPc::Idle) if (s.acked as usize) < s.log.len() => out.push(OrAct::Deliver),
            (true, CPc::Got) if self.variant == OrVariant::InboxSeparateTx => {
                out.push(OrAct::InboxTx)
            }
            (true, CPc::Got | CPc::Marked) => out.push(OrAct::ApplyTx),
            (true, CPc::Done) => out.push(OrAct::Ack),
            _ => {}
        }
        if (s.notified as usize) < s.log.len() {
            out.push(OrAct::Notify);
        }
        for r in relays {
            match Self::hand(s, r) {
                Some(Hand {
                    published: false, ..
                }) => out.push(OrAct::PublishLost(r)),
                Some(Hand {
                    published: true, ..
                }) => {
                    out.push(OrAct::RelayCrash(r));
                    out.push(OrAct::AckLost(r));
                }
                None => {}
            }
        }
        if c.up && c.mem.pc != CPc::Idle {
            out.push(OrAct::ConsCrash);
        }
        if c.up && c.mem.pc == CPc::Idle && s.acked > 0 {
            out.push(OrAct::Redeliver);
        }
    }

    fn is_fault(&self, a: &OrAct) -> bool {
        matches!(
            a,
            OrAct::PublishLost(_)
                | OrAct::AckLost(_)
                | OrAct::RelayCrash(_)
                | OrAct::ConsCrash
                | OrAct::Redeliver
        )
    }

    fn fault_budget(&self) -> u8 {
        self.fault_budget
    }

    fn next(&self, s: &OrState, a: &OrAct) -> OrState {
        let mut n = s.clone();
        let delete = self.variant == OrVariant::DeleteAfterPublish;
        match *a {
            OrAct::SvcCreate | OrAct::SvcCancel => {
                n.outbox[s.svc as usize] = Ob::Pending;
                n.svc += 1;
            }
            OrAct::Claim(r) => {
                n.relays[r as usize].mem = self.claimable(s, r).map(|ev| Hand {
                    ev,
                    published: false,
                });
            }
            OrAct::Publish(r) => self.publish(s, &mut n, r),
            OrAct::MarkSent(r) => {
                if let Some(h) = given(Self::hand(s, r), "the event the relay published") {
                    if n.outbox[h.ev as usize] == Ob::Pending {
                        n.outbox[h.ev as usize] = Ob::Sent;
                    }
                }
                n.relays[r as usize].mem = None;
            }
            OrAct::RelayRestart(r) => n.relays[r as usize].restart(),
            OrAct::Deliver => self.deliver(s, &mut n),
            OrAct::InboxTx => self.inbox_tx(s, &mut n),
            OrAct::ApplyTx => self.apply_tx(s, &mut n),
            OrAct::Ack => {
                n.acked = s.cons.mem.off + 1;
                n.cons.mem = CMem::default();
            }
            OrAct::ConsRestart => n.cons.restart(),
            OrAct::Notify => n.notified += 1,
            OrAct::PublishLost(r) => {
                let hand = given(Self::hand(s, r), "the event the relay published");
                if let (true, Some(h)) = (delete, hand) {
                    n.outbox[h.ev as usize] = Ob::Deleted;
                }
                n.relays[r as usize].mem = None;
            }
            OrAct::AckLost(r) => n.relays[r as usize].mem = None,
            OrAct::RelayCrash(r) => n.relays[r as usize].crash(),
            OrAct::ConsCrash => n.cons.crash(),
            OrAct::Redeliver => n.acked -= 1,
        }
        n
    }

    fn invariants(&self) -> Vec<Invariant<OrState>> {
        let mut v = vec![
            Invariant {
                name: Text::new(
                    "inventory reserved once per order",
                    "每个订单只预留一次库存",
                ),
                kind: InvKind::Always,
                holds: Text::new(
                    "Order 17's stock has been reserved at most once.",
                    "订单 17 的库存至多被预留一次。",
                ),
                check: reserved_twice,
                rows: |_| vec![("stock", "17".into())],
            },
            Invariant {
                name: Text::new("no lost event", "不丢事件"),
                kind: InvKind::Eventually,
                holds: Text::new(
                    "Every committed event has taken effect in the inventory.",
                    "每个已提交的事件都已在库存服务中生效。",
                ),
                check: lost_event,
                rows: |s| {
                    let outbox = (0..s.svc).map(|e| ("outbox", ev_id(e)));
                    outbox
                        .chain(
                            s.inbox
                                .iter()
                                .enumerate()
                                .filter(|(_, &x)| x)
                                .map(|(e, _)| ("inbox", ev_id(e as u8))),
                        )
                        .collect()
                },
            },
            Invariant {
                name: Text::new(
                    "events of one order applied in version order",
                    "同一订单的事件按版本顺序生效",
                ),
                kind: InvKind::Always,
                holds: Text::new(
                    "No version of order 17 took effect after a newer one.",
                    "订单 17 没有任何旧版本在新版本之后生效。",
                ),
                check: out_of_order,
                rows: |_| vec![("stock", "17".into())],
            },
        ];
        if self.relays() > 1 {
            v.push(Invariant {
                name: Text::new(
                    "each row published by one relay at a time",
                    "每行同一时刻只由一个中继发布",
                ),
                kind: InvKind::Always,
                holds: Text::new(
                    "No outbox row is in the hands of both relays.",
                    "没有任何发件箱记录同时在两个中继手里。",
                ),
                check: shared_row,
                rows: |_| vec![("relay-a", "hand".into()), ("relay-b", "hand".into())],
            });
        }
        v
    }
}

impl Present for OutboxRelayModel {
    fn label(&self, s: &OrState, a: &OrAct) -> Text {
        match *a {
            OrAct::Claim(_)
            | OrAct::Publish(_)
            | OrAct::MarkSent(_)
            | OrAct::RelayRestart(_)
            | OrAct::PublishLost(_)
            | OrAct::AckLost(_)
            | OrAct::RelayCrash(_) => self.relay_label(s, a),
            OrAct::SvcCreate => {
                Text::new("Order service: create order 17", "订单服务：创建订单 17")
            }
            OrAct::SvcCancel => {
                Text::new("Order service: cancel order 17", "订单服务：取消订单 17")
            }
            OrAct::Deliver => {
                let e = ev_id(s.log[s.acked as usize]);
                tx!("Deliver {e} to inventory", "把 {e} 投递给库存服务")
            }
            OrAct::InboxTx => Text::new("Inventory: record in inbox", "库存服务：写入收件箱"),
            OrAct::ApplyTx => Text::new("Inventory: commit", "库存服务：提交事务"),
            OrAct::Ack => Text::new("Inventory: acknowledge", "库存服务：确认消息"),
            OrAct::ConsRestart => Text::new("Restart inventory", "重启库存服务"),
            OrAct::Notify => {
                let e = ev_id(s.log[s.notified as usize]);
                tx!("Deliver {e} to notification", "把 {e} 投递给通知服务")
            }
            OrAct::ConsCrash => Text::new("Crash inventory", "让库存服务崩溃"),
            OrAct::Redeliver => {
                let e = ev_id(s.log[s.acked as usize - 1]);
                tx!("Broker redelivers {e}", "消息代理重投 {e}")
            }
        }
    }

    fn view(&self, s: &OrState) -> StateView {
        view::view(self, s)
    }

    fn describe(&self, b: &OrState, a: &OrAct, s: &OrState) -> StepInfo {
        narrate::describe(self, b, a, s)
    }

    fn intro(&self) -> Text {
        let common = Text::new(
            "Order 17 is created, then cancelled; each change commits an outbox row with it. ",
            "订单 17 先创建、后取消；每次变更都在同一事务中写入一条发件箱记录。",
        );
        common.then(&match self.variant {
            OrVariant::NoDedup => Text::new(
                "The inventory consumer applies every delivery it gets. Crash the relay after it publishes e-1.",
                "库存消费者对收到的每次投递都执行业务变更。试试在中继发布 e-1 之后让它崩溃。",
            ),
            OrVariant::Inbox => Text::new(
                "The inventory consumer records each event id in processed_messages in the same transaction as the stock change.",
                "库存消费者在修改库存的同一事务中把事件 ID 写入 processed_messages。",
            ),
            OrVariant::InboxSeparateTx => Text::new(
                "The consumer records the event id in its own transaction first, then changes the stock in a second one. Crash it in between.",
                "消费者先用单独的事务记录事件 ID，再用第二个事务修改库存。试试在两者之间让它崩溃。",
            ),
            OrVariant::DeleteAfterPublish => Text::new(
                "The relay deletes each row as soon as its publish call returns, without waiting for the broker's acknowledgement.",
                "中继在发布调用返回后立即删除记录，不等待消息代理的确认。",
            ),
            OrVariant::TwoRelays => Text::new(
                "Two relays poll the outbox with a plain SELECT: nothing stops both from taking the same row.",
                "两个中继用普通 SELECT 轮询发件箱：没有任何机制阻止它们拿到同一行。",
            ),
            OrVariant::SkipLocked => Text::new(
                "Two relays claim rows with SELECT … FOR UPDATE SKIP LOCKED; the consumer keeps an inbox and a version guard.",
                "两个中继用 SELECT … FOR UPDATE SKIP LOCKED 领取记录；消费者有收件箱和版本校验。",
            ),
        })
    }
}

/// What the events should have done against what they did: order 17's stock reserved once,
/// every committed event taking effect in the inventory once.
fn figure(s: &OrState, two_relays: bool) -> Figure {
    let (_, made) = stock(&s.history);
    let meant = u32::from(s.svc >= 1);
    let took = (0..s.svc)
        .filter(|&e| {
            (s.history.iter()).any(|h| h.0 == e && matches!(h.1, Outcome::Applied | Outcome::Stale))
        })
        .count() as u32;
    let committed = u32::from(s.svc);
    Figure {
        title: Text::new("What the events did to the inventory", "事件对库存做了什么"),
        name: Text::new(
            format!(
                "stock for order 17 reserved {} (once intended); {took} of {} took effect in the inventory",
                crate::sim::counted(u32::from(made), "time", "times"),
                crate::sim::counted(committed, "committed event", "committed events")
            ),
            format!("订单 17 的库存预留了 {made} 次（应为 1 次）；已提交的 {committed} 个事件中有 {took} 个在库存服务中生效"),
        ),
        body: FigureBody::Ledger(vec![
            LedgerRow {
                name: Text::new("stock reservations for order 17", "订单 17 的库存预留"),
                intended: meant,
                executed: u32::from(made),
                unit: Unit::Count,
            },
            LedgerRow {
                name: Text::new("events that took effect in the inventory", "在库存服务中生效的事件"),
                intended: committed,
                executed: took,
                unit: Unit::Count,
            },
        ]),
        // Every invariant is about what the events do; with two relays, also who sends them.
        shows: if two_relays {
            vec![0, 1, 2, 3]
        } else {
            vec![0, 1, 2]
        },
    }
}

fn reserved_twice(s: &OrState) -> Option<Text> {
    let (reserved, made) = stock(&s.history);
    (made > 1).then(|| {
        tx!(
            "Stock for order 17 was reserved {made} times (now {reserved} units reserved): e-1 took effect more than once.",
            "订单 17 的库存被预留了 {made} 次（现在预留 {reserved} 件）：e-1 不止一次生效。"
        )
    })
}

fn lost_event(s: &OrState) -> Option<Text> {
    let e = (0..s.svc).find(|&e| {
        !s.history
            .iter()
            .any(|h| h.0 == e && matches!(h.1, Outcome::Applied | Outcome::Stale))
    })?;
    let id = ev_id(e);
    Some(if s.inbox[e as usize] {
        tx!(
            "{id} is in processed_messages, but its stock change never committed: every redelivery is skipped as a duplicate.",
            "{id} 已在 processed_messages 中，但它的库存变更从未提交：之后的每次重投都被当作重复跳过。"
        )
    } else if s.outbox[e as usize] == Ob::Deleted && !s.log.contains(&e) {
        tx!(
            "{id} was deleted from the outbox, but the broker never stored it: nothing is left to publish again.",
            "{id} 已从发件箱删除，但消息代理从未存下它：再也没有东西可以重新发布。"
        )
    } else {
        tx!(
            "{id} is committed but has not taken effect in the inventory yet.",
            "{id} 已提交，但尚未在库存服务中生效。"
        )
    })
}

fn out_of_order(s: &OrState) -> Option<Text> {
    let applied: Vec<u8> = s
        .history
        .iter()
        .filter(|h| h.1 == Outcome::Applied)
        .map(|h| h.0 + 1)
        .collect();
    let k = (1..applied.len()).find(|&k| applied[..k].iter().any(|&v| v > applied[k]))?;
    let (late, newer) = (applied[k], applied[..k].iter().copied().max().unwrap_or(0));
    Some(tx!(
        "Version {late} of order 17 took effect after version {newer}: the stock now reflects an older state of the order.",
        "订单 17 的版本 {late} 在版本 {newer} 之后生效：库存反映的是订单的旧状态。"
    ))
}

fn shared_row(s: &OrState) -> Option<Text> {
    let (a, b) = (OutboxRelayModel::hand(s, 0)?, OutboxRelayModel::hand(s, 1)?);
    (a.ev == b.ev).then(|| {
        let id = ev_id(a.ev);
        tx!(
            "Relays A and B both hold outbox row {id}: both will publish it.",
            "中继 A 和 B 都拿着发件箱记录 {id}：两者都会发布它。"
        )
    })
}

mod view;

mod narrate;

/// The outbox-relay scenario: six variants of the relay and its consumers.
pub struct OutboxRelay;

impl OutboxRelay {
    /// The fault budget in the player: three faults with one relay; two with two relays,
    /// whose interleavings alone multiply the states (see the pinned counts in the tests).
    pub fn budget(variant: OrVariant) -> u8 {
        if variant.relays() > 1 {
            2
        } else {
            3
        }
    }

    pub fn model(variant: OrVariant, fault_budget: u8) -> OutboxRelayModel {
        OutboxRelayModel {
            variant,
            fault_budget,
        }
    }
}

impl Scenario for OutboxRelay {
    type Model = OutboxRelayModel;
    type Variant = OrVariant;

    fn model_of(variant: usize, budget: Option<u8>, _knobs: &[u32]) -> OutboxRelayModel {
        let v = OrVariant::at(variant);
        Self::model(v, budget.unwrap_or(Self::budget(v)))
    }

    fn meta(&self) -> ScenarioMeta {
        ScenarioMeta {
            slug: "outbox-relay",
            theme: Text::new("Dual writes and messaging", "双写与消息"),
            title: Text::new("Outbox relay, duplicates and the inbox", "发件箱中继、重复投递与收件箱"),
            summary: Text::new(
                "A relay that crashes between publishing and marking sent publishes again: delivery is at-least-once, so consumers must deduplicate.",
                "中继在发布与标记已发送之间崩溃就会再次发布：投递是至少一次，消费者必须去重。",
            ),
            variants: [
                VariantMeta::mistake("no-dedup", ["No dedup", "不去重"],
                                     ["The consumer applies every delivery: a duplicate reserves stock twice.",
                                      "消费者处理每一次投递：重复消息会让库存预留两次。"])
                .failing("011222522", ["let the inventory commit e-1, then ⚡ have the broker redeliver it before the ack.",
                                       "让库存服务提交 e-1，然后在确认之前 ⚡ 让消息代理重投它。"]),
                VariantMeta::fix("inbox", ["Inbox, same transaction", "收件箱（同一事务）"],
                                 ["processed_messages and the stock change commit together: a duplicate changes nothing.",
                                  "processed_messages 与库存变更一起提交：重复消息不改变任何东西。"])
                .hinted(["⚡ crash the relay after it publishes, or redeliver: the duplicate is absorbed by the inbox.",
                         "在中继发布后 ⚡ 让它崩溃，或者重投：重复消息被收件箱拦截。"]),
                VariantMeta::mistake("inbox-separate-tx", ["Inbox, separate transaction", "收件箱（分开的事务）"],
                                     ["The event id commits first, the stock change later: a crash in between loses the effect.",
                                      "先提交事件 ID，后修改库存：两者之间崩溃会丢失效果。"])
                .failing("000000000000001110000", ["⚡ crash the inventory between recording e-2 and changing the stock.",
                                                   "在记录 e-2 与修改库存之间 ⚡ 让库存服务崩溃。"]),
                VariantMeta::mistake("delete-after-publish", ["Delete after publish", "发布后删除"],
                                     ["The relay deletes the row without waiting for the ack: a lost publish is gone for good.",
                                      "中继不等确认就删除记录：丢失的发布再也找不回来。"])
                .failing("000101", ["⚡ lose the relay's publish of e-1: the row is already gone.",
                                    "⚡ 让中继对 e-1 的发布丢失：那一行已经删掉了。"]),
                VariantMeta::mistake("two-relays", ["Two relays, plain SELECT", "两个中继（普通 SELECT）"],
                                     ["Both relays take the same row and publish it twice.",
                                      "两个中继拿到同一行并各发布一次。"])
                .failing("011", ["let relay A claim e-1, then relay B claim it too.",
                                 "让中继 A 领取 e-1，再让中继 B 也领取它。"]),
                VariantMeta::fix("skip-locked", ["Two relays, SKIP LOCKED", "两个中继（SKIP LOCKED）"],
                                 ["Relays claim disjoint rows; an inbox and a version guard handle duplicates and reordering.",
                                  "中继领取互不相交的记录；收件箱和版本校验处理重复与乱序。"])
                .hinted(["let relay B publish e-2 before relay A publishes e-1: the version guard keeps the newer state.",
                         "让中继 B 在中继 A 发布 e-1 之前发布 e-2：版本校验会保留较新的状态。"]),
            ]
            .into_iter()
            .zip(OrVariant::ALL)
            .map(|(m, v)| VariantMeta {
                fault_budget: Self::budget(v),
                fixed_by: match v {
                    OrVariant::Inbox | OrVariant::SkipLocked => None,
                    OrVariant::TwoRelays => Some("skip-locked"),
                    _ => Some("inbox"),
                },
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
        ["The relay publishes, then marks the row sent; a crash in between publishes the event again. Consumers deduplicate with an inbox: the event id inserted into processed_messages in the same transaction as the business change, so either both happen or neither. A per-order version check ignores an older event that arrives after a newer one was applied; a gap in the versions means looking up the order's current state, or waiting — never dropping every late message.",
         "中继先发布、再标记已发送；中间崩溃就会再发一次。消费者用收件箱去重：事件 ID 和业务变更在同一个事务里写入 processed_messages，要么都发生，要么都不发生。按订单做版本校验：新版本生效后才到的旧版本事件直接忽略；发现版本缺口时补查订单的当前状态或等待，不能简单丢弃所有晚到消息。"],
        ["“Kafka has exactly-once.” Between Kafka topics; a database side effect still needs the inbox. “Two relays?” SELECT … FOR UPDATE SKIP LOCKED divides the rows, and then order across relays is not guaranteed: hence the version guard.",
         "“Kafka 有 exactly-once。”那是 Kafka 主题之间；数据库副作用仍需要收件箱。“两个中继呢？”SELECT … FOR UPDATE SKIP LOCKED 分摊行，但跨中继的顺序不再有保证：所以要做版本校验。"],
        ["“Deduplicate in memory.” “Record the message as processed in a separate transaction.”",
         "“在内存里去重。”“在另一个事务里记录已处理。”"],
    )
}
