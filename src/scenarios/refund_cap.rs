//! # Refund cap: Node's `await` interleaving on a shared limit
//!
//! **Setting.** An order may be refunded up to a cap of 100. Two refund requests of 80 arrive at
//! once (three in `semaphore-2`). Each runs the JavaScript in `refund_cap/js/`: the very files
//! the app shows, and that `tests/it/refund_cap.rs` runs under Node against PostgreSQL.
//!
//! **The bug.** Node runs one callback at a time, but every `await` ends the current callback.
//! Request A reads "remaining 100" and awaits; request B's handler runs in the gap, reads 100
//! too; both pass the check and both send `reserved = reserved + 80`: 160 reserved against a
//! cap of 100. An in-process mutex serialises the requests of *one* process; with two instances
//! each has its own mutex, and the race is back. A semaphore of 2 limits how many requests run
//! at once; it does not protect the cap.
//!
//! **The fixes.** Let the database decide: a conditional `UPDATE … WHERE cap - refunded -
//! reserved >= :amount` checks and writes in one statement (the loser gets `UPDATE 0` and is
//! told "insufficient remaining"); or a transaction that locks the row with `SELECT … FOR
//! UPDATE`, so the second request waits at its SELECT and then reads 20.
//!
//! **The model.** Each instance has a queue of ready callbacks (a request's handler, or the
//! continuation after a query's answer), run in order, one per step; a step runs the callback
//! and every microtask it queues (a mutex handed to the next waiter continues in the same turn),
//! as Node drains the microtask queue before the next callback. The database executes any sent
//! query at any time (the scheduler's choice), except one waiting for a row lock. Writes add
//! in SQL (`reserved = reserved + 80`), so the race shows as 160 rather than as a lost update.

use crate::sim::kit::Variants;
use crate::sim::{
    given, CodeView, Cursor, Figure, FigureBody, InvKind, Invariant, Knob, LaneView, Meter, Metric,
    Model, Notes, Present, RowView, Scenario, ScenarioMeta, StateView, StepInfo, TableView, Text,
    Unit, VariantMeta,
};
use crate::tx;

/// The refundable cap of the order (refunded so far: 0).
pub const CAP: i32 = 100;
/// What each request asks to refund.
pub const AMOUNT: i32 = 80;
/// The largest cap or amount the knobs accept.
pub const KNOB_MAX: i32 = 1000;
const NAMES: [&str; 3] = ["A", "B", "C"];
const LOOP_KEYS: [&str; 2] = ["loop-1", "loop-2"];

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RcVariant {
    ReadThenWrite,
    LostUpdate,
    MutexOneInstance,
    MutexTwoInstances,
    ConditionalUpdate,
    SelectForUpdate,
    Semaphore2,
}

impl RcVariant {
    pub const ALL: [RcVariant; 7] = [
        RcVariant::ReadThenWrite,
        RcVariant::LostUpdate,
        RcVariant::MutexOneInstance,
        RcVariant::MutexTwoInstances,
        RcVariant::ConditionalUpdate,
        RcVariant::SelectForUpdate,
        RcVariant::Semaphore2,
    ];

    /// The program every request runs: file name and text.
    pub fn program(self) -> (&'static str, &'static str) {
        match self {
            RcVariant::ReadThenWrite => (
                "read-then-write.js",
                include_str!("refund_cap/js/read-then-write.js"),
            ),
            RcVariant::LostUpdate => (
                "lost-update.js",
                include_str!("refund_cap/js/lost-update.js"),
            ),
            RcVariant::MutexOneInstance | RcVariant::MutexTwoInstances => {
                ("mutex.js", include_str!("refund_cap/js/mutex.js"))
            }
            RcVariant::ConditionalUpdate => (
                "conditional-update.js",
                include_str!("refund_cap/js/conditional-update.js"),
            ),
            RcVariant::SelectForUpdate => (
                "select-for-update.js",
                include_str!("refund_cap/js/select-for-update.js"),
            ),
            RcVariant::Semaphore2 => ("semaphore.js", include_str!("refund_cap/js/semaphore.js")),
        }
    }

    /// How many Node instances (processes) serve the requests.
    pub fn instances(self) -> u8 {
        match self {
            RcVariant::MutexTwoInstances
            | RcVariant::ConditionalUpdate
            | RcVariant::SelectForUpdate => 2,
            _ => 1,
        }
    }

    pub fn requests(self) -> u8 {
        if self == RcVariant::Semaphore2 {
            3
        } else {
            2
        }
    }

    /// The instance that serves request `r`: alternating when there are two.
    pub fn instance_of(self, r: u8) -> u8 {
        r % self.instances()
    }

    /// Permits of the in-process lock, if the program takes one.
    fn permits(self) -> Option<u8> {
        match self {
            RcVariant::MutexOneInstance | RcVariant::MutexTwoInstances => Some(1),
            RcVariant::Semaphore2 => Some(2),
            _ => None,
        }
    }
}

impl Variants for RcVariant {
    const ALL: &'static [RcVariant] = &RcVariant::ALL;
}

/// A statement a request sends to the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stmt {
    Begin,
    Select,
    SelectForUpdate,
    Update,
    /// `UPDATE … SET reserved = :value`: the value the request computed from its own read.
    UpdateSet,
    /// The conditional `UPDATE … WHERE cap - refunded - reserved >= :amount`.
    UpdateIf,
    Commit,
    Rollback,
}

impl Stmt {
    /// The statement's name as the fidelity driver prints it.
    pub fn tag(self) -> &'static str {
        match self {
            Stmt::Begin => "BEGIN",
            Stmt::Select => "SELECT",
            Stmt::SelectForUpdate => "SELECT-FOR-UPDATE",
            Stmt::Update => "UPDATE",
            Stmt::UpdateSet => "UPDATE-SET",
            Stmt::UpdateIf => "UPDATE-IF",
            Stmt::Commit => "COMMIT",
            Stmt::Rollback => "ROLLBACK",
        }
    }

    /// The shortest name, for the timeline's arrows.
    fn arrow(self) -> &'static str {
        match self {
            Stmt::SelectForUpdate => "FOR UPDATE",
            Stmt::UpdateSet => "UPDATE",
            Stmt::UpdateIf => "UPDATE IF",
            _ => self.tag(),
        }
    }

    /// A short name for labels.
    fn word(self) -> &'static str {
        match self {
            Stmt::SelectForUpdate => "SELECT … FOR UPDATE",
            Stmt::UpdateSet => "UPDATE … SET reserved = value",
            Stmt::UpdateIf => "conditional UPDATE",
            _ => self.tag(),
        }
    }

    fn word_zh(self) -> &'static str {
        match self {
            Stmt::UpdateIf => "条件 UPDATE",
            Stmt::UpdateSet => "UPDATE … SET reserved = 值",
            _ => self.word(),
        }
    }

    /// The SQL sent, with the request's amount filled in (and, for `UpdateSet`, the value it
    /// computed: what it read plus its amount).
    fn sql(self, amount: i32, value: i32) -> String {
        match self {
            Stmt::Begin => "BEGIN;".into(),
            Stmt::Select => "SELECT cap, refunded, reserved FROM refunds WHERE id = 1;".into(),
            Stmt::SelectForUpdate => {
                "SELECT cap, refunded, reserved FROM refunds WHERE id = 1 FOR UPDATE;".into()
            }
            Stmt::Update => format!("UPDATE refunds SET reserved = reserved + {amount} WHERE id = 1;"),
            Stmt::UpdateSet => format!("UPDATE refunds SET reserved = {value} WHERE id = 1;"),
            Stmt::UpdateIf => format!(
                "UPDATE refunds SET reserved = reserved + {amount}\n  WHERE id = 1 AND cap - refunded - reserved >= {amount};"
            ),
            Stmt::Commit => "COMMIT;".into(),
            Stmt::Rollback => "ROLLBACK;".into(),
        }
    }
}

/// The database's answer to a statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Answer {
    /// A SELECT: `cap - refunded - reserved` of the row it read.
    Remaining(i32),
    /// An UPDATE: how many rows it changed.
    Rows(u8),
    /// BEGIN, COMMIT, ROLLBACK.
    Ok,
}

/// Where a request is in its program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pc {
    /// Its handler is queued, not yet run.
    Queued,
    /// Waiting for the in-process mutex or semaphore.
    AwaitLock,
    /// Awaiting the answer to a statement.
    Await(Stmt),
    /// Returned `'reserved'` (true) or threw "insufficient remaining" (false).
    Done(bool),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Req {
    /// What this request asks to reserve.
    pub amount: i32,
    pub pc: Pc,
    /// The database's answer to the awaited statement, once it executed.
    pub answer: Option<Answer>,
    /// The remaining amount this request read, if it read one.
    pub seen: Option<i32>,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RcState {
    /// The refundable cap (a knob; durable, never changes in a run).
    pub cap: i32,
    pub reqs: Vec<Req>,
    /// Requests with a callback ready to run, in the order they became ready (each instance
    /// runs its own ones in this order).
    pub ready: Vec<u8>,
    /// Durable: the refund row.
    pub reserved: i32,
    /// The transaction holding the row lock (`SELECT … FOR UPDATE`).
    pub lock: Option<u8>,
    /// Per instance: free permits of its mutex or semaphore, and the requests waiting for one.
    pub permits: Vec<u8>,
    pub waiters: Vec<Vec<u8>>,
    /// Durable: every statement the database executed, with its answer.
    pub log: Vec<(u8, Stmt, Answer)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RcAct {
    /// The database executes request `r`'s pending statement.
    Exec(u8),
    /// Instance `i` runs the next callback in its queue.
    Run(u8),
}

#[derive(Clone, Copy, Debug)]
pub struct RefundCapModel {
    pub variant: RcVariant,
    pub cap: i32,
    /// What requests A, B and C ask for (C runs only in `semaphore-2`).
    pub amounts: [i32; 3],
}

/// The lock holder and the reservation its transaction has written but not committed.
pub fn uncommitted(s: &RcState) -> Option<(u8, i32)> {
    let r = s.lock?;
    let (_, last, _) = s.log.iter().rev().find(|e| e.0 == r)?;
    (*last == Stmt::Update).then(|| (r, s.reqs[r as usize].amount))
}

pub fn name(r: u8) -> &'static str {
    NAMES[r as usize % NAMES.len()]
}

impl RefundCapModel {
    /// The database's lane: after one lane per request.
    pub fn db_lane(&self) -> usize {
        self.variant.requests() as usize
    }

    /// The request whose callback instance `i` runs next.
    pub fn head(&self, s: &RcState, i: u8) -> Option<u8> {
        s.ready
            .iter()
            .copied()
            .find(|&r| self.variant.instance_of(r) == i)
    }

    /// The statement request `r` has sent and the database has not yet executed.
    pub fn pending(s: &RcState, r: u8) -> Option<Stmt> {
        match s.reqs[r as usize] {
            Req {
                pc: Pc::Await(stmt),
                answer: None,
                ..
            } => Some(stmt),
            _ => None,
        }
    }

    /// A pending statement that must wait: the row is locked by another transaction.
    pub fn blocked(s: &RcState, r: u8) -> bool {
        let locking = matches!(
            Self::pending(s, r),
            Some(Stmt::SelectForUpdate | Stmt::Update | Stmt::UpdateIf)
        );
        locking && s.lock.is_some_and(|holder| holder != r)
    }

    fn issue(s: &mut RcState, r: u8, stmt: Stmt) {
        let q = &mut s.reqs[r as usize];
        q.pc = Pc::Await(stmt);
        q.answer = None;
    }

    /// The program's first statement, once any in-process lock is held.
    fn begin(&self, s: &mut RcState, r: u8) {
        let first = match self.variant {
            RcVariant::ConditionalUpdate => Stmt::UpdateIf,
            RcVariant::SelectForUpdate => Stmt::Begin,
            _ => Stmt::Select,
        };
        Self::issue(s, r, first);
    }

    /// The request returns or throws; a `finally` releases the in-process lock, handing it to
    /// the first waiter, whose continuation runs in the same turn (a microtask).
    fn finish(&self, s: &mut RcState, r: u8, reserved: bool) {
        let q = &mut s.reqs[r as usize];
        q.pc = Pc::Done(reserved);
        q.answer = None;
        if self.variant.permits().is_none() {
            return;
        }
        let i = self.variant.instance_of(r) as usize;
        if s.waiters[i].is_empty() {
            s.permits[i] += 1;
        } else {
            let w = s.waiters[i].remove(0);
            self.begin(s, w);
        }
    }

    /// Runs request `r`'s ready callback: its handler, or its continuation after an answer.
    fn run(&self, s: &mut RcState, r: u8) {
        let q = s.reqs[r as usize];
        let i = self.variant.instance_of(r) as usize;
        match (q.pc, q.answer) {
            (Pc::Queued, _) => {
                if self.variant.permits().is_none() {
                    self.begin(s, r);
                } else if s.permits[i] > 0 {
                    s.permits[i] -= 1;
                    self.begin(s, r);
                } else {
                    s.reqs[r as usize].pc = Pc::AwaitLock;
                    s.waiters[i].push(r);
                }
            }
            (Pc::Await(Stmt::Begin), _) => Self::issue(s, r, Stmt::SelectForUpdate),
            (
                Pc::Await(stmt @ (Stmt::Select | Stmt::SelectForUpdate)),
                Some(Answer::Remaining(left)),
            ) => {
                s.reqs[r as usize].seen = Some(left);
                let tx = stmt == Stmt::SelectForUpdate;
                let write = if self.variant == RcVariant::LostUpdate {
                    Stmt::UpdateSet
                } else {
                    Stmt::Update
                };
                match (left >= q.amount, tx) {
                    (true, _) => Self::issue(s, r, write),
                    (false, true) => Self::issue(s, r, Stmt::Rollback),
                    (false, false) => self.finish(s, r, false),
                }
            }
            (Pc::Await(Stmt::Update), _) if self.variant == RcVariant::SelectForUpdate => {
                Self::issue(s, r, Stmt::Commit)
            }
            (Pc::Await(Stmt::Update | Stmt::UpdateSet | Stmt::Commit), _) => {
                self.finish(s, r, true)
            }
            (Pc::Await(Stmt::UpdateIf), Some(Answer::Rows(n))) => self.finish(s, r, n == 1),
            (Pc::Await(_), _) => self.finish(s, r, false),
            (Pc::AwaitLock | Pc::Done(_), _) => {}
        }
    }

    fn execute(s: &mut RcState, r: u8, stmt: Stmt) -> Answer {
        let left = s.cap - s.reserved;
        let amount = s.reqs[r as usize].amount;
        match stmt {
            Stmt::Begin => Answer::Ok,
            Stmt::Select => Answer::Remaining(left),
            Stmt::SelectForUpdate => {
                s.lock = Some(r);
                Answer::Remaining(left)
            }
            Stmt::Update => {
                s.reserved += amount;
                Answer::Rows(1)
            }
            Stmt::UpdateSet => {
                s.reserved = set_value(s, r);
                Answer::Rows(1)
            }
            Stmt::UpdateIf if left >= amount => {
                s.reserved += amount;
                Answer::Rows(1)
            }
            Stmt::UpdateIf => Answer::Rows(0),
            Stmt::Commit | Stmt::Rollback => {
                if s.lock == Some(r) {
                    s.lock = None;
                }
                Answer::Ok
            }
        }
    }
}

impl Model for RefundCapModel {
    type State = RcState;
    type Act = RcAct;

    fn init(&self) -> RcState {
        let v = self.variant;
        let n = v.requests();
        let instances = v.instances() as usize;
        RcState {
            cap: self.cap,
            reqs: (0..n as usize)
                .map(|r| Req {
                    amount: self.amounts[r],
                    pc: Pc::Queued,
                    answer: None,
                    seen: None,
                })
                .collect(),
            ready: (0..n).collect(),
            reserved: 0,
            lock: None,
            permits: vec![v.permits().unwrap_or(0); instances],
            waiters: vec![Vec::new(); instances],
            log: Vec::new(),
        }
    }

    /// The database first (in request order), then the instances in the order their next
    /// callbacks became ready: the default run answers each query as soon as it is sent and runs
    /// callbacks first come, first served — the seed's schedule, 160 reserved.
    fn actions(&self, s: &RcState, out: &mut Vec<RcAct>) {
        for r in 0..s.reqs.len() as u8 {
            if Self::pending(s, r).is_some() && !Self::blocked(s, r) {
                out.push(RcAct::Exec(r));
            }
        }
        let mut seen = Vec::new();
        for &r in &s.ready {
            let i = self.variant.instance_of(r);
            if !seen.contains(&i) {
                seen.push(i);
                out.push(RcAct::Run(i));
            }
        }
    }

    fn is_fault(&self, _: &RcAct) -> bool {
        false
    }

    fn fault_budget(&self) -> u8 {
        0
    }

    fn next(&self, s: &RcState, a: &RcAct) -> RcState {
        let mut n = s.clone();
        match *a {
            RcAct::Exec(r) => {
                if let Some(stmt) = given(Self::pending(s, r), "a statement in flight") {
                    let answer = Self::execute(&mut n, r, stmt);
                    n.reqs[r as usize].answer = Some(answer);
                    n.log.push((r, stmt, answer));
                    n.ready.push(r);
                }
            }
            RcAct::Run(i) => {
                if let Some(r) = given(self.head(s, i), "a ready request") {
                    n.ready.retain(|&x| x != r);
                    self.run(&mut n, r);
                }
            }
        }
        n
    }

    fn invariants(&self) -> Vec<Invariant<RcState>> {
        vec![
            Invariant {
                name: Text::new("refunds within the cap", "退款不超过上限"),
                kind: InvKind::Always,
                holds: tx!(
                    "reserved + refunded ≤ cap ({}).",
                    "reserved + refunded ≤ cap（{}）。",
                    self.cap
                ),
                check: over_cap,
                rows: |_| vec![("refunds", "1".into())],
            },
            Invariant {
                name: Text::new("every granted refund is reserved", "每笔批准的退款都已预留"),
                kind: InvKind::Always,
                holds: Text::new(
                    "reserved equals the sum of the refunds granted.",
                    "reserved 等于已批准退款之和。",
                ),
                check: lost_write,
                rows: |_| vec![("refunds", "1".into())],
            },
        ]
    }
}

impl Present for RefundCapModel {
    fn label(&self, s: &RcState, a: &RcAct) -> Text {
        match *a {
            RcAct::Exec(r) => {
                let stmt = Self::pending(s, r).unwrap_or(Stmt::Select);
                Text::new(
                    format!("Database: execute {}'s {}", name(r), stmt.word()),
                    format!("数据库：执行 {} 的 {}", name(r), stmt.word_zh()),
                )
            }
            RcAct::Run(i) => {
                let inst = i + 1;
                let Some(r) = self.head(s, i) else {
                    return tx!("Instance {inst}: idle", "实例 {inst}：空闲");
                };
                let x = name(r);
                match s.reqs[r as usize].pc {
                    Pc::Await(stmt) => Text::new(
                        format!("Instance {inst}: resume {x} after {}", stmt.word()),
                        format!("实例 {inst}：{} 返回后继续执行 {x}", stmt.word_zh()),
                    ),
                    _ => tx!(
                        "Instance {inst}: run {x}'s handler",
                        "实例 {inst}：运行 {x} 的处理函数"
                    ),
                }
            }
        }
    }

    fn view(&self, s: &RcState) -> StateView {
        let v = self.variant;
        // One lane per request: the interleaving (A reads, B reads, A writes, B writes) is a
        // zigzag between lanes. With two processes, each lane says which one serves it.
        let mut lanes: Vec<LaneView> = (0..s.reqs.len() as u8)
            .map(|r| {
                let x = name(r);
                let (en, zh) = if v.instances() == 1 {
                    (format!("Request {x}"), format!("请求 {x}"))
                } else {
                    let i = v.instance_of(r) + 1;
                    (format!("{x} · instance {i}"), format!("{x} · 实例 {i}"))
                };
                LaneView {
                    name: Text::new(en, zh),
                    durable: false,
                    down: false,
                }
            })
            .collect();
        lanes.push(LaneView::store("Database", "数据库"));
        let mut tables = vec![self.requests_table(s)];
        tables.extend((0..v.instances()).map(|i| self.loop_table(s, i)));
        tables.push(self.refunds_table(s));
        tables.push(self.query_log(s));
        let approved = s.reqs.iter().filter(|q| q.pc == Pc::Done(true)).count() as u32;
        StateView {
            lanes,
            tables,
            metrics: vec![
                Metric::count(Text::new("reserved", "已预留"), s.reserved.max(0) as u32),
                Metric::count(Text::new("refunds approved", "已批准的退款"), approved),
            ],
            code: Some(self.code(s)),
            figure: Some(figure(s)),
            ..StateView::default()
        }
    }

    fn describe(&self, b: &RcState, a: &RcAct, s: &RcState) -> StepInfo {
        narrate::describe(self, b, a, s)
    }

    fn intro(&self) -> Text {
        narrate::intro(self)
    }
}

/// The value a request writing back `SET reserved = value` computed: the reserved it read (the
/// cap minus the remaining it saw) plus its amount.
pub fn set_value(s: &RcState, r: u8) -> i32 {
    let q = &s.reqs[r as usize];
    s.cap - q.seen.unwrap_or(s.cap) + q.amount
}

/// The amounts granted so far: each request whose write reserved its amount, in order.
fn granted(s: &RcState) -> Vec<(u8, i32)> {
    (s.log.iter())
        .filter(|&&(_, stmt, answer)| match stmt {
            Stmt::Update | Stmt::UpdateSet => true,
            Stmt::UpdateIf => answer == Answer::Rows(1),
            _ => false,
        })
        .map(|&(r, _, _)| (r, s.reqs[r as usize].amount))
        .collect()
}

/// Reserved against the cap, split by the request that reserved it.
fn figure(s: &RcState) -> Figure {
    let parts: Vec<(Text, u32)> = granted(s)
        .into_iter()
        .map(|(r, amount)| (Text::same(name(r)), amount.max(0) as u32))
        .collect();
    let granted: u32 = parts.iter().map(|p| p.1).sum();
    let (reserved, cap) = (s.reserved.max(0) as u32, s.cap.max(0) as u32);
    let by: Vec<String> = parts.iter().map(|(n, v)| format!("{} {v}", n.en)).collect();
    let by = if by.is_empty() {
        String::new()
    } else {
        format!(": {}", by.join(", "))
    };
    // Written back as a value, a granted refund can vanish from the row: say what it holds.
    let (row, row_zh) = if reserved == granted {
        (String::new(), String::new())
    } else {
        (
            format!("; the row says reserved {reserved}"),
            format!("；但这一行记着 reserved {reserved}"),
        )
    };
    Figure {
        title: Text::new("Refunds granted against the cap", "已批准的退款与上限"),
        name: Text::new(
            format!("reserved {granted} of a cap of {cap}{by}{row}"),
            format!(
                "已预留 {granted}，上限 {cap}{}{row_zh}",
                by.replace(", ", "，").replace(": ", "：")
            ),
        ),
        body: FigureBody::Meter(Meter {
            value: granted,
            limit: cap,
            limit_name: Text::new("cap", "上限"),
            unit: Unit::Count,
            parts,
        }),
        shows: vec![0, 1],
    }
}

/// Every refund granted is in the row: the writes add up.
fn lost_write(s: &RcState) -> Option<Text> {
    let granted: i32 = granted(s).iter().map(|g| g.1).sum();
    (granted != s.reserved).then(|| {
        let r = s.reserved;
        tx!(
            "{granted} was granted, but the row says reserved {r}: a request wrote back the value it computed from an older read, overwriting the other's reservation (a lost update).",
            "已批准 {granted}，这一行却记着 reserved {r}：一个请求把按旧读数算出的值写了回去，覆盖了另一个请求的预留（更新丢失）。"
        )
    })
}

fn over_cap(s: &RcState) -> Option<Text> {
    (s.reserved > s.cap).then(|| {
        let (r, cap) = (s.reserved, s.cap);
        tx!(
            "reserved {r} + refunded 0 = {r} exceeds the cap of {cap}.",
            "reserved {r} + refunded 0 = {r}，超过了上限 {cap}。"
        )
    })
}

impl RefundCapModel {
    /// What request `r` is doing, in a few words.
    pub fn doing(&self, s: &RcState, r: u8) -> Text {
        let lock = if self.variant == RcVariant::Semaphore2 {
            Text::new("waiting for a semaphore permit", "等待信号量许可")
        } else {
            Text::new("waiting for the mutex", "等待互斥锁")
        };
        match s.reqs[r as usize] {
            Req { pc: Pc::Queued, .. } => Text::new("handler queued", "处理函数排队中"),
            Req {
                pc: Pc::AwaitLock, ..
            } => lock,
            Req {
                pc: Pc::Await(stmt),
                answer: None,
                ..
            } if Self::blocked(s, r) => Text::new(
                format!("awaiting {} (row locked)", stmt.word()),
                format!("等待 {}（行被锁）", stmt.word_zh()),
            ),
            Req {
                pc: Pc::Await(stmt),
                answer: None,
                ..
            } => Text::new(
                format!("awaiting {}", stmt.word()),
                format!("等待 {}", stmt.word_zh()),
            ),
            Req {
                pc: Pc::Await(stmt),
                ..
            } => Text::new(
                format!("{} answered, ready to resume", stmt.word()),
                format!("{} 已返回，等待继续执行", stmt.word_zh()),
            ),
            Req {
                pc: Pc::Done(true), ..
            } => Text::new("returned 'reserved'", "返回 'reserved'"),
            Req {
                pc: Pc::Done(false),
                ..
            } => Text::new(
                "threw 'insufficient remaining'",
                "抛出 'insufficient remaining'",
            ),
        }
    }

    fn requests_table(&self, s: &RcState) -> TableView {
        let mut t = TableView::memory("requests", Text::new("Refund requests", "退款请求"), 0);
        t.columns = vec![
            Text::new("request", "请求"),
            Text::new("instance", "实例"),
            Text::new("amount", "金额"),
            Text::new("remaining it read", "读到的剩余额度"),
            Text::new("now", "当前"),
        ];
        for r in 0..s.reqs.len() as u8 {
            let seen = s.reqs[r as usize]
                .seen
                .map_or(Text::same("—"), |x| Text::same(x.to_string()));
            t.rows.push(RowView::new(
                name(r).into(),
                vec![
                    Text::same(name(r)),
                    Text::same((self.variant.instance_of(r) + 1).to_string()),
                    Text::same(s.reqs[r as usize].amount.to_string()),
                    seen,
                    self.doing(s, r),
                ],
            ));
        }
        t
    }

    fn loop_table(&self, s: &RcState, i: u8) -> TableView {
        let inst = i + 1;
        let title = if self.variant.instances() == 1 {
            Text::new("Event loop", "事件循环")
        } else {
            tx!("Instance {inst} event loop", "实例 {inst} 事件循环")
        };
        let mut t = TableView::memory(LOOP_KEYS[i as usize % 2], title, i as usize);
        t.columns = vec![Text::new("where", "位置"), Text::new("callback", "回调")];
        t.empty = Text::new("(idle)", "（空闲）");
        let mine = |r: &u8| self.variant.instance_of(*r) == i;
        for (k, &r) in s.ready.iter().filter(|r| mine(r)).enumerate() {
            let what = match s.reqs[r as usize].pc {
                Pc::Await(stmt) => Text::new(
                    format!("{}: resume after {}", name(r), stmt.word()),
                    format!("{}：{} 返回后继续", name(r), stmt.word_zh()),
                ),
                _ => tx!("{}: request handler", "{}：请求处理函数", name(r)),
            };
            t.rows.push(RowView::new(
                format!("ready-{r}"),
                vec![tx!("ready #{}", "就绪 #{}", k + 1), what],
            ));
        }
        for r in (0..s.reqs.len() as u8).filter(mine) {
            if let Some(stmt) = Self::pending(s, r) {
                let (en, zh) = if Self::blocked(s, r) {
                    ("awaiting I/O (row locked)", "等待 I/O（行被锁）")
                } else {
                    ("awaiting I/O", "等待 I/O")
                };
                t.rows.push(RowView::new(
                    format!("io-{r}"),
                    vec![
                        Text::new(en, zh),
                        Text::new(
                            format!("{}: {}", name(r), stmt.word()),
                            format!("{}：{}", name(r), stmt.word_zh()),
                        ),
                    ],
                ));
            }
        }
        if let Some(permits) = self.variant.permits() {
            t.rows.extend(self.lock_rows(s, i, permits));
        }
        t
    }

    /// Instance `i`'s mutex or semaphore: who holds its permits, and who waits.
    fn lock_rows(&self, s: &RcState, i: u8, permits: u8) -> Vec<RowView> {
        let mine = |r: &u8| self.variant.instance_of(*r) == i;
        let holders: Vec<&str> = (0..s.reqs.len() as u8)
            .filter(|r| mine(r))
            .filter(|&r| holds_lock(&s.reqs[r as usize]))
            .map(name)
            .collect();
        let (en, zh) = if permits == 1 {
            ("mutex", "互斥锁")
        } else {
            ("semaphore", "信号量")
        };
        let taken = permits - s.permits[i as usize];
        let held = if holders.is_empty() {
            Text::new("free", "空闲")
        } else {
            let who = holders.join(", ");
            tx!(
                "{taken} of {permits} taken: {who}",
                "已占用 {taken}/{permits}：{who}"
            )
        };
        let mut rows = vec![RowView::new("lock".into(), vec![Text::new(en, zh), held])];
        for &w in &s.waiters[i as usize] {
            rows.push(RowView::new(
                format!("wait-{w}"),
                vec![tx!("waiting for the {en}", "等待{zh}"), Text::same(name(w))],
            ));
        }
        rows
    }

    fn refunds_table(&self, s: &RcState) -> TableView {
        let db = self.db_lane();
        let mut t = TableView::durable("refunds", Text::same("refunds"), db);
        t.columns = vec![
            Text::same("id"),
            Text::same("cap"),
            Text::same("refunded"),
            Text::same("reserved"),
            Text::new("remaining", "剩余额度"),
        ];
        let left = s.cap - s.reserved;
        let mut cells = vec![
            Text::same("1"),
            Text::same(s.cap.to_string()),
            Text::same("0"),
            Text::same(s.reserved.to_string()),
            if left < 0 {
                tx!("{left} (over the cap)", "{left}（超出上限）")
            } else {
                Text::same(left.to_string())
            },
        ];
        // Inside an open transaction the row holds the holder's UPDATE; every other session
        // still reads the committed values until it commits.
        if let Some((r, amount)) = uncommitted(s) {
            let x = name(r);
            let inside = |committed: i32, now: i32| {
                tx!(
                    "{committed} ({now} in {x}'s transaction)",
                    "{committed}（{x} 的事务中为 {now}）"
                )
            };
            cells[3] = inside(s.reserved - amount, s.reserved);
            cells[4] = inside(left + amount, left);
        }
        if self.variant == RcVariant::SelectForUpdate {
            t.columns.push(Text::new("row lock", "行锁"));
            cells.push(match s.lock {
                Some(r) => tx!("held by {}'s transaction", "{} 的事务持有", name(r)),
                None => Text::new("none", "无"),
            });
        }
        t.rows.push(RowView::new("1".into(), cells));
        t
    }

    fn query_log(&self, s: &RcState) -> TableView {
        let mut t = TableView::durable(
            "queries",
            Text::new("Statements executed", "已执行的语句"),
            self.db_lane(),
        );
        t.columns = vec![
            Text::same("#"),
            Text::new("request", "请求"),
            Text::new("statement", "语句"),
            Text::new("answer", "结果"),
        ];
        for (k, &(r, stmt, answer)) in s.log.iter().enumerate() {
            t.rows.push(RowView::new(
                k.to_string(),
                vec![
                    Text::same((k + 1).to_string()),
                    Text::same(name(r)),
                    Text::same(stmt.word()),
                    answer_text(answer),
                ],
            ));
        }
        t
    }

    fn code(&self, s: &RcState) -> CodeView {
        let (title, text) = self.variant.program();
        let cursors = (0..s.reqs.len() as u8)
            .map(|r| Cursor {
                line: line_of(text, s.reqs[r as usize].pc),
                who: name(r).into(),
                doing: self.doing(s, r),
            })
            .collect();
        CodeView {
            title,
            text,
            cursors,
        }
    }
}

fn holds_lock(q: &Req) -> bool {
    matches!(q.pc, Pc::Await(_))
}

pub fn answer_text(a: Answer) -> Text {
    match a {
        Answer::Remaining(x) => tx!("remaining {x}", "剩余 {x}"),
        Answer::Rows(n) => Text::same(format!("UPDATE {n}")),
        Answer::Ok => Text::same("OK"),
    }
}

/// The 0-based line of `text` where a request at `pc` is: the `await` it is suspended at, the
/// function's first line while queued, the `return` or `throw` once done.
pub fn line_of(text: &str, pc: Pc) -> usize {
    let find = |needle: &str| text.lines().position(|l| l.contains(needle));
    let at = match pc {
        Pc::Queued => find("export async function"),
        Pc::AwaitLock => find(".acquire()"),
        Pc::Await(stmt) => {
            let needle = match stmt {
                Stmt::Begin => "'BEGIN'",
                Stmt::Select | Stmt::SelectForUpdate => "'SELECT",
                Stmt::Update | Stmt::UpdateSet | Stmt::UpdateIf => "UPDATE refunds",
                Stmt::Commit => "'COMMIT'",
                Stmt::Rollback => "'ROLLBACK'",
            };
            // The `await` is on the statement's line or on the line before it.
            find(needle).map(|l| match text.lines().nth(l) {
                Some(line) if line.contains("await") => l,
                _ => l.saturating_sub(1),
            })
        }
        Pc::Done(true) => find("return 'reserved'"),
        Pc::Done(false) => find("throw err").or_else(|| find("throw new Error")),
    };
    at.unwrap_or(0)
}

mod narrate;

fn knob(key: &'static str, name: [&str; 2], default: i32) -> Knob {
    Knob {
        key,
        name: Text::new(name[0], name[1]),
        default: default as u32,
        min: 0,
        max: KNOB_MAX as u32,
        step: 10,
        options: Vec::new(),
    }
}

/// The refund-cap scenario: six ways to guard a shared cap, one race.
pub struct RefundCap;

impl RefundCap {
    /// The seed's numbers: a cap of 100, requests of 80.
    pub fn model(variant: RcVariant) -> RefundCapModel {
        Self::model_with(variant, &[])
    }

    /// The knobs in `meta().knobs` order (cap, then A's, B's and C's amounts); missing or
    /// out-of-range values fall back to the defaults.
    pub fn model_with(variant: RcVariant, knobs: &[u32]) -> RefundCapModel {
        let knob = |i: usize, default: i32| {
            knobs
                .get(i)
                .and_then(|&k| i32::try_from(k).ok())
                .filter(|k| (0..=KNOB_MAX).contains(k))
                .unwrap_or(default)
        };
        RefundCapModel {
            variant,
            cap: knob(0, CAP),
            amounts: [knob(1, AMOUNT), knob(2, AMOUNT), knob(3, AMOUNT)],
        }
    }
}

impl Scenario for RefundCap {
    type Model = RefundCapModel;
    type Variant = RcVariant;

    fn model_of(variant: usize, _budget: Option<u8>, knobs: &[u32]) -> RefundCapModel {
        Self::model_with(RcVariant::at(variant), knobs)
    }

    fn meta(&self) -> ScenarioMeta {
        ScenarioMeta {
            slug: "refund-cap",
            theme: Text::new("Concurrency", "并发"),
            title: Text::new(
                "Refund cap: await interleaving in Node",
                "退款上限：Node 中 await 的交错",
            ),
            summary: Text::new(
                "Node runs one callback at a time, yet two refunds of 80 both pass a check against 100: every await lets another request in.",
                "Node 一次只运行一个回调，但两笔 80 的退款都能通过 100 的额度检查：每个 await 都让别的请求插进来。",
            ),
            variants: variants(),
            knobs: vec![
                knob("cap", ["Refundable cap", "可退上限"], CAP),
                knob("amount-a", ["A's refund", "A 的退款额"], AMOUNT),
                knob("amount-b", ["B's refund", "B 的退款额"], AMOUNT),
                knob("amount-c", ["C's refund (semaphore of 2)", "C 的退款额（信号量 2）"], AMOUNT),
            ],
            moves_heading: None,
        }
    }
}

/// The variants: each mistake with its canonical failing path, each fix with what it
/// withstands; every mistake is fixed by the conditional UPDATE.
fn variants() -> Vec<VariantMeta> {
    [
        VariantMeta::mistake("read-then-write", ["Read, await, write", "先读、await、再写"],
                             ["Both requests read 100 before either writes: 160 reserved.",
                              "两个请求都在对方写入前读到 100：预留了 160。"])
        .failing("00000000", ["just play: the default schedule lets A and B both read 100 before either writes.",
                              "直接播放：默认调度就让 A 和 B 都在任一方写入前读到 100。"]),
        VariantMeta::mistake("lost-update", ["Read, await, write back", "先读、await、再写回"],
                             ["Each request writes back what it read plus 80: 160 granted, and the row says 80.",
                              "每个请求把读到的值加 80 写回：批准了 160，这一行却只记着 80。"])
        .failing("00000000", ["just play: B writes back 0 + 80 over A's 80.",
                             "直接播放：B 把 0 + 80 写回，覆盖了 A 的 80。"]),
        VariantMeta::fix("mutex-one-instance", ["Mutex, one instance", "互斥锁（单实例）"],
                         ["An in-process mutex serialises the requests of one process: safe.",
                          "进程内互斥锁让同一进程内的请求串行：安全。"])
        .hinted(["pick any order of the callbacks: B waits for the mutex until A has written.",
                 "任意安排回调的顺序：B 会一直等互斥锁，直到 A 写完。"]),
        VariantMeta::mistake("mutex-two-instances", ["Mutex, two instances", "互斥锁（两个实例）"],
                             ["The same code on two instances: each has its own mutex, and the race is back.",
                              "同样的代码跑在两个实例上：各有各的锁，竞态又回来了。"])
        .failing("00000000", ["just play: each instance's mutex is free, so A and B both read 100.",
                              "直接播放：每个实例的互斥锁都是空闲的，于是 A 和 B 都读到 100。"]),
        VariantMeta::fix("conditional-update", ["Conditional UPDATE", "条件 UPDATE"],
                         ["The database checks and reserves in one statement; the second request gets UPDATE 0 and is told “insufficient remaining”.",
                          "数据库在一条语句里检查并预留；后到的请求得到 UPDATE 0，被告知“insufficient remaining”（剩余额度不足）。"])
        .hinted(["run the two UPDATEs in either order: the second changes 0 rows.",
                 "两条 UPDATE 谁先执行都行：后执行的那条改动 0 行。"]),
        VariantMeta::fix("select-for-update", ["SELECT … FOR UPDATE", "SELECT … FOR UPDATE"],
                         ["A transaction locks the row: the second request waits at its SELECT, then reads 20.",
                          "事务锁住这一行：第二个请求在 SELECT 处等待，随后读到 20。"])
        .hinted(["let B's SELECT … FOR UPDATE go while A holds the lock: it waits, then reads 20.",
                 "在 A 持有行锁时让 B 的 SELECT … FOR UPDATE 执行：它会等待，然后读到 20。"]),
        VariantMeta::mistake("semaphore-2", ["Semaphore of 2", "信号量 2"],
                             ["Limits how many requests run at once, not what they reserve: still 160.",
                              "限制同时运行的请求数，而不是它们预留的金额：仍然是 160。"])
        .failing("000000000", ["just play: two permits let A and B read 100 together; C waits, too late to help.",
                               "直接播放：两个许可让 A 和 B 一起读到 100；C 在等待，却于事无补。"]),
    ]
    .into_iter()
    .zip(RcVariant::ALL)
    .map(|(m, v)| VariantMeta {
        fault_budget: 0,
        fixed_by: match v {
            RcVariant::ReadThenWrite
            | RcVariant::LostUpdate
            | RcVariant::MutexTwoInstances
            | RcVariant::Semaphore2 => {
                Some("conditional-update")
            }
            _ => None,
        },
        ..m
    })
    .collect()
}

/// Speaker notes for presenting this scenario. Not part of `meta()`: the page fetches them on
/// demand from `notes.json`, which `content::notes_json` writes (see `content`).
pub(crate) fn notes() -> Notes {
    Notes::new(
        ["Plain JavaScript callbacks run on one event-loop thread, but while one request awaits I/O another runs: that is concurrency. Request A reads the remaining amount and awaits; B reads the same amount; both pass the check. An in-process mutex only covers one instance; the fix is an atomic conditional UPDATE in the database.",
         "普通 JS 回调在一个事件循环线程上执行，但一个请求等待 I/O 时另一个就在运行：这就是并发。请求 A 读了剩余额度后 await；B 读到同样的额度；两个都通过了检查。进程内互斥锁只管一个实例；修复是在数据库里做原子条件更新。"],
        ["“Promise.all?” Aggregates; it neither cancels the others on failure nor makes anything atomic. “SELECT … FOR UPDATE?” Also works: the second transaction waits at its read and then sees 20.",
         "“Promise.all 呢？”只是聚合；失败时不取消其他请求，也不提供原子性。“SELECT … FOR UPDATE？”也可以：第二个事务在读取处等待，随后读到 20。"],
        ["“Node is single-threaded, so it is thread-safe and has no business races.”",
         "“Node 单线程所以线程安全，也就没有业务并发问题。”"],
    )
}
