//! # Dual write: commit an order, publish its event — with no shared transaction
//!
//! **Setting.** An order service handles two client requests, orders 17 and 18. For each it must
//! commit the order in its database *and* publish `OrderCreated` to a message broker so that the
//! inventory service hears of it. The database and the broker share no two-phase commit.
//!
//! **The bug.** Whatever order the two writes come in, a crash between them leaves one without
//! the other. `commit-then-publish`: crash after `COMMIT`, before the publish, and order 17
//! exists while nobody will ever hear of it (*no lost event* is violated). `publish-then-commit`:
//! publish, then the transaction rolls back (or the process dies and the database aborts it),
//! and the broker carries an event for an order that does not exist (*no phantom event*).
//!
//! **The fix.** A transactional outbox: the order row and an outbox row are written in *one*
//! local transaction, so both exist or neither does. A relay polls pending outbox rows,
//! publishes each with its event id, then marks it sent. A relay crash after publishing and
//! before marking sent publishes the event again after restart: delivery is at-least-once, which
//! is correct, and visible here as a duplicate (consumer-side dedup is the `outbox-relay` story).
//!
//! **Worked counterexample** (`commit-then-publish`, path `01` then the crash): BEGIN and INSERT
//! order 17 (step 1), COMMIT (step 2), crash the order service (step 3), restart it, handle
//! order 18; the run goes quiet with order 17 committed and `e-17` never published.

use crate::sim::kit::Proc;
use crate::sim::kit::Variants;
use crate::sim::{
    ArrowKind, Figure, FigureBody, InvKind, Invariant, LaneView, LedgerRow, MarkKind, Model, Notes,
    Present, RowView, Scenario, ScenarioMeta, StateView, StepInfo, TableView, Text, Unit,
    VariantMeta,
};
use crate::tx;

/// The orders the client submits, in this order.
pub const ORDERS: [u32; 2] = [17, 18];
const N: usize = ORDERS.len();

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DwVariant {
    CommitThenPublish,
    PublishThenCommit,
    Outbox,
}

impl DwVariant {
    pub const ALL: [DwVariant; 3] = [
        DwVariant::CommitThenPublish,
        DwVariant::PublishThenCommit,
        DwVariant::Outbox,
    ];
}

impl Variants for DwVariant {
    const ALL: &'static [DwVariant] = &DwVariant::ALL;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Row {
    Absent,
    /// Written inside a transaction that has not committed: invisible to everyone else.
    Uncommitted,
    Committed,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum OutboxRow {
    Absent,
    Uncommitted,
    Pending,
    Sent,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Reply {
    Waiting,
    Created,
    Failed,
}

/// Where the order service is in handling its current request (volatile).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum SvcPc {
    #[default]
    Idle,
    InTx,
    /// publish-then-commit: published while the transaction is still open.
    Published,
    /// commit-then-publish: committed, the publish still to do.
    Committed,
    /// Done with the database and broker; the reply (success or not) still to send.
    Replying(bool),
}

/// The order service's memory: where it is, and which order (index into ORDERS) it handles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct SvcMem {
    pc: SvcPc,
    req: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DwState {
    svc: Proc<SvcMem>,
    /// The next client request to arrive.
    next_req: u8,
    // Durable: the database.
    orders: [Row; N],
    outbox: [OutboxRow; N],
    // Durable: the broker's log, one entry per publish (an order index), and how far the
    // inventory consumer has read it.
    log: Vec<u8>,
    delivered: u8,
    // The relay; in memory, the event in hand (published, not yet marked sent).
    relay: Proc<Option<u8>>,
    replies: [Reply; N],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DwAct {
    BrokerDeliver,
    SvcBegin,
    SvcCommit,
    SvcPublish,
    SvcReply,
    SvcRestart,
    RelayMarkSent(u8),
    RelayPublish(u8),
    RelayRestart,
    // Faults.
    SvcCrash,
    SvcRollback,
    SvcBrokerDown,
    RelayCrash,
    RelayBrokerDown,
}

/// One variant of the dual-write scenario with a fault budget.
#[derive(Clone, Copy, Debug)]
pub struct DualWriteModel {
    pub variant: DwVariant,
    pub fault_budget: u8,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Lane {
    Svc,
    Db,
    Relay,
    Broker,
    Consumer,
}

fn order_id(i: u8) -> u32 {
    ORDERS[i as usize]
}

fn event(i: u8) -> String {
    format!("e-{}", order_id(i))
}

impl DualWriteModel {
    fn lane(&self, lane: Lane) -> usize {
        let relay = usize::from(self.variant == DwVariant::Outbox);
        match lane {
            Lane::Svc => 0,
            Lane::Db => 1,
            Lane::Relay => 2,
            Lane::Broker => 2 + relay,
            Lane::Consumer => 3 + relay,
        }
    }

    fn next_pending(s: &DwState) -> Option<u8> {
        (0..N as u8).find(|&i| s.outbox[i as usize] == OutboxRow::Pending)
    }

    fn svc_step(&self, s: &DwState) -> Option<DwAct> {
        use DwVariant::*;
        if !s.svc.up {
            return None;
        }
        match (s.svc.mem.pc, self.variant) {
            (SvcPc::Idle, _) if (s.next_req as usize) < N => Some(DwAct::SvcBegin),
            (SvcPc::InTx, CommitThenPublish | Outbox) => Some(DwAct::SvcCommit),
            (SvcPc::InTx, PublishThenCommit) => Some(DwAct::SvcPublish),
            (SvcPc::Committed, _) => Some(DwAct::SvcPublish),
            (SvcPc::Published, _) => Some(DwAct::SvcCommit),
            (SvcPc::Replying(_), _) => Some(DwAct::SvcReply),
            _ => None,
        }
    }
}

/// The transitions too long for a line of `next`.
impl DualWriteModel {
    /// The service takes the next request and opens its transaction.
    fn begin(&self, s: &DwState, n: &mut DwState) {
        n.svc.mem.req = s.next_req;
        n.next_req += 1;
        n.orders[s.next_req as usize] = Row::Uncommitted;
        if self.variant == DwVariant::Outbox {
            n.outbox[s.next_req as usize] = OutboxRow::Uncommitted;
        }
        n.svc.mem.pc = SvcPc::InTx;
    }

    /// The service commits the order (and its outbox row).
    fn commit(&self, n: &mut DwState, i: usize) {
        n.orders[i] = Row::Committed;
        if n.outbox[i] == OutboxRow::Uncommitted {
            n.outbox[i] = OutboxRow::Pending;
        }
        n.svc.mem.pc = match self.variant {
            DwVariant::CommitThenPublish => SvcPc::Committed,
            _ => SvcPc::Replying(true),
        };
    }

    /// The broker refuses the publish: the handler answers as its variant does.
    fn broker_down(&self, n: &mut DwState, i: usize) {
        n.svc.mem.pc = match self.variant {
            // The handler catches the error, logs it and still answers 201: the order
            // is committed and there is nothing left that would publish it.
            DwVariant::CommitThenPublish => SvcPc::Replying(true),
            // The exception aborts the request and the transaction with it.
            _ => {
                abort_tx(n, i);
                SvcPc::Replying(false)
            }
        };
    }
}

impl Model for DualWriteModel {
    type State = DwState;
    type Act = DwAct;

    fn init(&self) -> DwState {
        DwState {
            svc: Proc::new(),
            next_req: 0,
            orders: [Row::Absent; N],
            outbox: [OutboxRow::Absent; N],
            log: Vec::new(),
            delivered: 0,
            relay: Proc::new(),
            replies: [Reply::Waiting; N],
        }
    }

    fn actions(&self, s: &DwState, out: &mut Vec<DwAct>) {
        let outbox = self.variant == DwVariant::Outbox;
        if (s.delivered as usize) < s.log.len() {
            out.push(DwAct::BrokerDeliver);
        }
        out.extend(self.svc_step(s));
        if !s.svc.up {
            out.push(DwAct::SvcRestart);
        }
        let relay_idle = outbox && s.relay.up && s.relay.mem.is_none();
        let pending = Self::next_pending(s).filter(|_| relay_idle);
        if outbox {
            if let (true, Some(i)) = (s.relay.up, s.relay.mem) {
                out.push(DwAct::RelayMarkSent(i));
            }
            out.extend(pending.map(DwAct::RelayPublish));
            if !s.relay.up {
                out.push(DwAct::RelayRestart);
            }
        }
        let mid_request = s.svc.up && s.svc.mem.pc != SvcPc::Idle;
        if mid_request {
            out.push(DwAct::SvcCrash);
        }
        if s.svc.up && matches!(s.svc.mem.pc, SvcPc::InTx | SvcPc::Published) {
            out.push(DwAct::SvcRollback);
        }
        if self.svc_step(s) == Some(DwAct::SvcPublish) {
            out.push(DwAct::SvcBrokerDown);
        }
        if outbox && s.relay.up && s.relay.mem.is_some() {
            out.push(DwAct::RelayCrash);
        }
        if pending.is_some() {
            out.push(DwAct::RelayBrokerDown);
        }
    }

    fn is_fault(&self, a: &DwAct) -> bool {
        matches!(
            a,
            DwAct::SvcCrash
                | DwAct::SvcRollback
                | DwAct::SvcBrokerDown
                | DwAct::RelayCrash
                | DwAct::RelayBrokerDown
        )
    }

    fn fault_budget(&self) -> u8 {
        self.fault_budget
    }

    fn next(&self, s: &DwState, a: &DwAct) -> DwState {
        let mut n = s.clone();
        let i = s.svc.mem.req as usize;
        match *a {
            DwAct::BrokerDeliver => n.delivered += 1,
            DwAct::SvcBegin => self.begin(s, &mut n),
            DwAct::SvcCommit => self.commit(&mut n, i),
            DwAct::SvcPublish => {
                n.log.push(s.svc.mem.req);
                n.svc.mem.pc = match self.variant {
                    DwVariant::PublishThenCommit => SvcPc::Published,
                    _ => SvcPc::Replying(true),
                };
            }
            DwAct::SvcReply => {
                let ok = s.svc.mem.pc == SvcPc::Replying(true);
                n.replies[i] = if ok { Reply::Created } else { Reply::Failed };
                // The request is done: nothing of it stays in memory.
                n.svc.mem = SvcMem::default();
            }
            DwAct::SvcRestart => n.svc.restart(),
            DwAct::RelayPublish(e) => {
                n.log.push(e);
                n.relay.mem = Some(e);
            }
            DwAct::RelayMarkSent(e) => {
                n.outbox[e as usize] = OutboxRow::Sent;
                n.relay.mem = None;
            }
            DwAct::RelayRestart => n.relay.restart(),
            DwAct::SvcCrash => {
                // The connection drops, so the database aborts the open transaction; the
                // request in hand is forgotten and the client sees an error.
                abort_tx(&mut n, i);
                n.svc.crash();
                n.replies[i] = Reply::Failed;
            }
            DwAct::SvcRollback => {
                abort_tx(&mut n, i);
                n.svc.mem.pc = SvcPc::Replying(false);
            }
            DwAct::SvcBrokerDown => self.broker_down(&mut n, i),
            DwAct::RelayCrash => n.relay.crash(),
            DwAct::RelayBrokerDown => {}
        }
        n
    }

    fn invariants(&self) -> Vec<Invariant<DwState>> {
        vec![
            Invariant {
                name: Text::new("no lost event", "不丢事件"),
                kind: InvKind::Eventually,
                holds: Text::new(
                    "Every committed order's OrderCreated event is in the broker.",
                    "每个已提交订单的 OrderCreated 事件都已进入消息代理。",
                ),
                check: lost_event,
                rows: |s| {
                    (0..N)
                        .filter(|&i| s.orders[i] == Row::Committed && !s.log.contains(&(i as u8)))
                        .map(|i| ("orders", i.to_string()))
                        .collect()
                },
            },
            Invariant {
                name: Text::new("no phantom event", "没有幽灵事件"),
                kind: InvKind::Always,
                holds: Text::new(
                    "Every published event refers to an order that is committed or still being committed.",
                    "每个已发布的事件都对应一个已提交或仍在提交中的订单。",
                ),
                check: phantom_event,
                rows: |s| {
                    let phantom = |i: &u8| s.orders[*i as usize] == Row::Absent;
                    (s.log.iter().enumerate())
                        .filter(|(_, i)| phantom(i))
                        .map(|(k, _)| ("broker", k.to_string()))
                        .collect()
                },
            },
        ]
    }
}

impl Present for DualWriteModel {
    fn label(&self, s: &DwState, a: &DwAct) -> Text {
        let next = order_id(s.next_req.min(N as u8 - 1));
        let cur = order_id(s.svc.mem.req);
        match *a {
            DwAct::BrokerDeliver => {
                let e = event(s.log[s.delivered as usize]);
                tx!("Deliver {e} to inventory", "把 {e} 投递给库存服务")
            }
            DwAct::SvcBegin => tx!(
                "Order service: insert order {next}",
                "订单服务：插入订单 {next}"
            ),
            DwAct::SvcCommit => tx!(
                "Order service: commit order {cur}",
                "订单服务：提交订单 {cur}"
            ),
            DwAct::SvcPublish => tx!("Order service: publish e-{cur}", "订单服务：发布 e-{cur}"),
            DwAct::SvcReply => Text::new("Order service: reply to client", "订单服务：回复客户端"),
            DwAct::SvcRestart => Text::new("Restart order service", "重启订单服务"),
            DwAct::RelayMarkSent(e) => {
                let e = event(e);
                tx!("Relay: mark {e} sent", "中继：把 {e} 标记为已发送")
            }
            DwAct::RelayPublish(e) => {
                let e = event(e);
                tx!("Relay: publish {e}", "中继：发布 {e}")
            }
            DwAct::RelayRestart => Text::new("Restart relay", "重启中继"),
            DwAct::SvcCrash => Text::new("Crash order service", "让订单服务崩溃"),
            DwAct::SvcRollback => Text::new("Roll back transaction", "回滚事务"),
            DwAct::SvcBrokerDown => Text::new("Broker unavailable", "消息代理不可用"),
            DwAct::RelayCrash => Text::new("Crash relay", "让中继崩溃"),
            DwAct::RelayBrokerDown => {
                Text::new("Broker unavailable to relay", "消息代理对中继不可用")
            }
        }
    }

    fn view(&self, s: &DwState) -> StateView {
        let outbox = self.variant == DwVariant::Outbox;
        let mut lanes = vec![
            LaneView::process("Order service", "订单服务").down_when(!s.svc.up),
            LaneView::store("Database", "数据库"),
        ];
        if outbox {
            lanes.push(LaneView::process("Relay", "中继").down_when(!s.relay.up));
        }
        lanes.push(LaneView::store("Broker", "消息代理"));
        lanes.push(LaneView::process("Inventory", "库存服务"));

        let mut tables = vec![self.requests_table(s), self.orders_table(s)];
        if outbox {
            tables.push(self.outbox_table(s));
        }
        tables.push(self.svc_memory(s));
        if outbox {
            tables.push(self.relay_memory(s));
        }
        tables.push(self.broker_table(s));
        tables.push(self.consumer_table(s));
        StateView {
            lanes,
            tables,
            figure: Some(figure(s)),
            ..StateView::default()
        }
    }

    fn describe(&self, b: &DwState, a: &DwAct, s: &DwState) -> StepInfo {
        narrate::describe(self, b, a, s)
    }

    fn intro(&self) -> Text {
        match self.variant {
            DwVariant::CommitThenPublish => Text::new(
                "The order service commits each order, then publishes OrderCreated to the broker. Two writes, two systems, no shared transaction.",
                "订单服务先提交订单，再向消息代理发布 OrderCreated。两个系统、两次写入，没有共同的事务。",
            ),
            DwVariant::PublishThenCommit => Text::new(
                "The order service publishes OrderCreated first, then commits the order. Try rolling the transaction back after the publish.",
                "订单服务先发布 OrderCreated，再提交订单。试试在发布之后回滚事务。",
            ),
            DwVariant::Outbox => Text::new(
                "The order row and an outbox row are written in one local transaction; a relay publishes pending outbox rows and then marks them sent.",
                "订单行和发件箱行在同一个本地事务中写入；中继发布待发送的发件箱记录，然后标记为已发送。",
            ),
        }
    }
}

fn abort_tx(n: &mut DwState, i: usize) {
    if n.orders[i] == Row::Uncommitted {
        n.orders[i] = Row::Absent;
    }
    if n.outbox[i] == OutboxRow::Uncommitted {
        n.outbox[i] = OutboxRow::Absent;
    }
}

/// Events against orders: every committed order's event should be in the broker, and no event
/// of an order that does not exist.
fn figure(s: &DwState) -> Figure {
    let committed = (0..N).filter(|&i| s.orders[i] == Row::Committed).count() as u32;
    let published = (0..N)
        .filter(|&i| s.orders[i] == Row::Committed && s.log.contains(&(i as u8)))
        .count() as u32;
    let phantoms = (0..N)
        .filter(|&i| s.orders[i] == Row::Absent && s.log.contains(&(i as u8)))
        .count() as u32;
    Figure {
        title: Text::new("Committed orders and their events", "已提交的订单与它们的事件"),
        name: Text::new(
            format!(
                "{}, {published} with {} event in the broker; {} of orders that do not exist.",
                crate::sim::counted(committed, "committed order", "committed orders"),
                if committed == 1 { "its" } else { "their" },
                crate::sim::counted(phantoms, "event", "events"),
            ),
            format!("已提交 {committed} 个订单，其中 {published} 个的事件在消息代理中；{phantoms} 个事件对应的订单并不存在。"),
        ),
        body: FigureBody::Ledger(vec![
            LedgerRow {
                name: Text::new("events of committed orders", "已提交订单的事件"),
                intended: committed,
                executed: published,
                unit: Unit::Count,
            },
            LedgerRow {
                name: Text::new("events of orders that do not exist", "不存在的订单的事件"),
                intended: 0,
                executed: phantoms,
                unit: Unit::Count,
            },
        ]),
        shows: vec![0, 1],
    }
}

fn lost_event(s: &DwState) -> Option<Text> {
    let i =
        (0..N as u8).find(|&i| s.orders[i as usize] == Row::Committed && !s.log.contains(&i))?;
    let (o, e) = (order_id(i), event(i));
    Some(tx!(
        "Order {o} is committed but its event {e} is not in the broker.",
        "订单 {o} 已提交，但事件 {e} 不在消息代理中。"
    ))
}

fn phantom_event(s: &DwState) -> Option<Text> {
    let i = s
        .log
        .iter()
        .copied()
        .find(|&i| s.orders[i as usize] == Row::Absent)?;
    let (o, e) = (order_id(i), event(i));
    Some(tx!(
        "Event {e} is in the broker, but order {o} does not exist: its transaction never committed.",
        "事件 {e} 已在消息代理中，但订单 {o} 并不存在：它的事务从未提交。"
    ))
}

impl DualWriteModel {
    fn requests_table(&self, s: &DwState) -> TableView {
        let mut t = TableView::durable(
            "requests",
            Text::new("Client requests", "客户端请求"),
            self.lane(Lane::Svc),
        );
        t.columns = vec![Text::new("order", "订单"), Text::new("reply", "回复")];
        let arrived = (s.next_req as usize).min(N);
        for (i, reply) in s.replies.iter().enumerate().take(arrived) {
            let reply = match reply {
                Reply::Waiting => Text::new("waiting", "等待中"),
                Reply::Created => Text::new("201 Created", "201 已创建"),
                Reply::Failed => Text::new("error", "失败"),
            };
            t.rows.push(RowView::new(
                format!("{i}"),
                vec![Text::same(ORDERS[i].to_string()), reply],
            ));
        }
        t
    }

    fn orders_table(&self, s: &DwState) -> TableView {
        let mut t = TableView::durable("orders", Text::same("orders"), self.lane(Lane::Db));
        t.columns = vec![Text::same("id"), Text::same("status")];
        for (i, r) in s.orders.iter().enumerate() {
            let status = match r {
                Row::Absent => continue,
                Row::Uncommitted => Text::new("created (uncommitted)", "created（未提交）"),
                Row::Committed => Text::same("created"),
            };
            let mut rv = RowView::new(
                format!("{i}"),
                vec![Text::same(ORDERS[i].to_string()), status],
            );
            rv.faint = *r == Row::Uncommitted;
            t.rows.push(rv);
        }
        t
    }

    fn outbox_table(&self, s: &DwState) -> TableView {
        let mut t = TableView::durable("outbox", Text::same("outbox"), self.lane(Lane::Db));
        t.columns = vec![
            Text::same("event_id"),
            Text::same("aggregate_id"),
            Text::same("status"),
        ];
        for (i, r) in s.outbox.iter().enumerate() {
            let status = match r {
                OutboxRow::Absent => continue,
                OutboxRow::Uncommitted => Text::new("pending (uncommitted)", "pending（未提交）"),
                OutboxRow::Pending => Text::same("pending"),
                OutboxRow::Sent => Text::same("sent"),
            };
            let mut rv = RowView::new(
                format!("{i}"),
                vec![
                    Text::same(event(i as u8)),
                    Text::same(ORDERS[i].to_string()),
                    status,
                ],
            );
            rv.faint = *r == OutboxRow::Uncommitted;
            t.rows.push(rv);
        }
        t
    }

    fn svc_memory(&self, s: &DwState) -> TableView {
        let mut t = TableView::memory(
            "svc-memory",
            Text::new("Order service memory", "订单服务内存"),
            self.lane(Lane::Svc),
        );
        t.columns = vec![Text::new("request", "请求"), Text::new("next", "下一步")];
        t.lost = !s.svc.up;
        t.empty = Text::new("(idle)", "（空闲）");
        let o = order_id(s.svc.mem.req);
        let next = match s.svc.mem.pc {
            SvcPc::Idle => None,
            SvcPc::InTx if self.variant == DwVariant::PublishThenCommit => {
                Some(tx!("publish e-{o}", "发布 e-{o}"))
            }
            SvcPc::InTx => Some(Text::same("COMMIT")),
            SvcPc::Published => Some(Text::same("COMMIT")),
            SvcPc::Committed => Some(tx!("publish e-{o}", "发布 e-{o}")),
            SvcPc::Replying(true) => Some(Text::new("reply 201", "回复 201")),
            SvcPc::Replying(false) => Some(Text::new("reply error", "回复错误")),
        };
        if let Some(next) = next {
            t.rows.push(RowView::new(
                "req".into(),
                vec![tx!("order {o}", "订单 {o}"), next],
            ));
        }
        t
    }

    fn relay_memory(&self, s: &DwState) -> TableView {
        let mut t = TableView::memory(
            "relay-memory",
            Text::new("Relay memory", "中继内存"),
            self.lane(Lane::Relay),
        );
        t.columns = vec![Text::new("in hand", "处理中"), Text::new("next", "下一步")];
        t.lost = !s.relay.up;
        t.empty = Text::new("(polling)", "（轮询中）");
        if let Some(e) = s.relay.mem {
            t.rows.push(RowView::new(
                "hold".into(),
                vec![Text::same(event(e)), Text::new("mark sent", "标记为已发送")],
            ));
        }
        t
    }

    fn broker_table(&self, s: &DwState) -> TableView {
        let mut t = TableView::durable(
            "broker",
            Text::new("Broker log", "消息代理日志"),
            self.lane(Lane::Broker),
        );
        t.columns = vec![
            Text::same("offset"),
            Text::same("event_id"),
            Text::new("delivered", "已投递"),
        ];
        for (k, &i) in s.log.iter().enumerate() {
            let delivered = if k < s.delivered as usize {
                Text::new("yes", "是")
            } else {
                Text::new("no", "否")
            };
            t.rows.push(RowView::new(
                format!("{k}"),
                vec![Text::same(k.to_string()), Text::same(event(i)), delivered],
            ));
        }
        t
    }

    fn consumer_table(&self, s: &DwState) -> TableView {
        let mut t = TableView::durable(
            "inventory",
            Text::new("Inventory received", "库存服务已收到"),
            self.lane(Lane::Consumer),
        );
        t.columns = vec![
            Text::same("#"),
            Text::same("event_id"),
            Text::new("note", "说明"),
        ];
        for k in 0..s.delivered as usize {
            let i = s.log[k];
            let note = if s.log[..k].contains(&i) {
                Text::new("duplicate delivery", "重复投递")
            } else {
                Text::new("first delivery", "首次投递")
            };
            t.rows.push(RowView::new(
                format!("{k}"),
                vec![Text::same((k + 1).to_string()), Text::same(event(i)), note],
            ));
        }
        t
    }
}

mod narrate;

/// The dual-write scenario: three variants of the same order flow.
pub struct DualWrite;

impl DualWrite {
    /// The fault budget in the player: enough to stack a crash on a crash.
    pub const FAULT_BUDGET: u8 = 3;

    pub fn model(variant: DwVariant, fault_budget: u8) -> DualWriteModel {
        DualWriteModel {
            variant,
            fault_budget,
        }
    }
}

impl Scenario for DualWrite {
    type Model = DualWriteModel;
    type Variant = DwVariant;

    fn model_of(variant: usize, budget: Option<u8>, _knobs: &[u32]) -> DualWriteModel {
        Self::model(DwVariant::at(variant), budget.unwrap_or(Self::FAULT_BUDGET))
    }

    fn meta(&self) -> ScenarioMeta {
        // Every variant gets the player's budget; each mistake is fixed by the outbox.
        let v = |meta: VariantMeta| VariantMeta {
            fault_budget: Self::FAULT_BUDGET,
            fixed_by: (!meta.fixed).then_some("outbox"),
            ..meta
        };
        ScenarioMeta {
            slug: "dual-write",
            theme: Text::new("Dual writes and messaging", "双写与消息"),
            title: Text::new("Dual write vs transactional outbox", "双写与事务发件箱"),
            summary: Text::new(
                "Commit an order and publish its event without a shared transaction: a crash in between loses the event or invents one.",
                "没有共同事务时提交订单并发布事件：两步之间一次崩溃，要么丢事件，要么凭空多出一个事件。",
            ),
            variants: vec![
                v(VariantMeta::mistake("commit-then-publish", ["Commit then publish", "先提交后发布"],
                                       ["COMMIT, then publish: a crash in between loses the event.",
                                        "先提交再发布：两步之间崩溃会丢事件。"]))
                .failing("0010010", ["step to 2, then ⚡ crash the order service.",
                                     "前进到第 2 步，然后 ⚡ 让订单服务崩溃。"]),
                v(VariantMeta::mistake("publish-then-commit", ["Publish then commit", "先发布后提交"],
                                       ["Publish, then COMMIT: a rollback after the publish leaves a phantom event.",
                                        "先发布再提交：发布后回滚会留下幽灵事件。"]))
                .failing("002", ["step to 2, then ⚡ crash the order service before it commits.",
                                 "前进到第 2 步，然后 ⚡ 在提交之前让订单服务崩溃。"]),
                v(VariantMeta::fix("outbox", ["Transactional outbox", "事务发件箱"],
                                   ["Order and outbox row in one transaction; a relay publishes, then marks sent.",
                                    "订单与发件箱记录同一事务写入；中继发布后再标记已发送。"]))
                .hinted(["crash the order service or the relay anywhere: no event is lost, one may go out twice.",
                         "在任意位置让订单服务或中继崩溃：事件不会丢，可能会发两次。"]),
            ],
            knobs: Vec::new(),
            moves_heading: None,
        }
    }
}

/// Speaker notes for presenting this scenario. Not part of `meta()`: the page fetches them on
/// demand from `notes.json`, which `content::notes_json` writes (see `content`).
pub(crate) fn notes() -> Notes {
    Notes::new(
        ["Two writes to two systems with no shared transaction: whichever comes first, a crash between them leaves one without the other — a lost event, or a phantom one. Write the business row and an outbox row in one local transaction; a relay publishes afterwards and marks the row sent. Delivery becomes at-least-once, so consumers must be idempotent.",
         "两个系统、两次写入、没有共同事务：无论谁先，中间一崩溃就只剩一边——事件丢失，或出现幽灵事件。把业务行和发件箱行写进同一个本地事务；由中继随后发布并标记已发送。投递变成至少一次，所以消费者必须幂等。"],
        ["“Why not two-phase commit?” Brokers rarely take part, and it ties the service's availability to both. “Can the relay lose an event?” Not if it marks a row sent only after the broker acknowledges; it may send twice, which the inbox absorbs.",
         "“为什么不用两阶段提交？”消息代理很少支持，而且会把服务可用性绑在两边。“中继会丢事件吗？”只要它在代理确认之后才标记已发送就不会；它可能发两次，由收件箱拦截。"],
        ["“Publish inside the transaction and it is atomic.” “Just retry the publish until it works” — the process may die first.",
         "“在事务里发布就是原子的。”“发布失败就一直重试”——进程可能先死掉。"],
    )
}
