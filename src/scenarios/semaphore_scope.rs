//! # Semaphore scope: 10 per instance is not 10 in total
//!
//! **Setting.** N instances (3 by default) claim payment jobs from one shared queue in Postgres
//! (N × 10 jobs, enough to fill everyone). Each instance runs its worker loop behind a local
//! semaphore of 10. The payment channel accepts at most 10 calls in flight.
//!
//! **The bug.** A semaphore bounds concurrency within its scope, and the scope of an in-process
//! semaphore is one process: every instance admits 10, so the channel sees N × 10 = 30 calls
//! (`per-instance-semaphore`). The seed's multiple-choice question 5 and NC06: "global
//! concurrency can approach the number of instances × 10; it needs a shared budget".
//!
//! **A shared budget, and its crash.** `shared-counter` keeps the budget in one row: a call
//! first runs `UPDATE channel_budget SET in_flight = in_flight + 1 WHERE in_flight < 10` and
//! subtracts one when it ends. It never exceeds 10, but the subtraction lives in the process: an
//! instance that crashes while holding slots never gives them back, and neither does its
//! restarted successor, which does not know it had them. The slots leak forever; with all 10
//! leaked the queue never drains.
//!
//! **The fix.** `leases`: a row per slot naming the process (`instance-1/p1`) with an expiry the
//! holder renews every 10 s. A crashed process stops renewing, and 30 s later its rows are free
//! to claim. The channel call times out after 10 s, shorter than the lease, so a crashed
//! process's calls have ended before its slots are taken over (the model enables the expiry only
//! then).
//!
//! **The model.** Per instance: up or down, its process number, its calls in flight, and the
//! calls its crashed processes sent that the channel has not finished (orphans). A step is one
//! instance claiming up to half its semaphore (5 jobs) (five conditional UPDATEs in the shared variants) or 5 of its
//! calls answering, so the default 3 × 10 explores in thousands of states; the numbers shown are
//! the exact counts. Faults: an instance crashes while it holds calls.

use crate::sim::kit::{sorted_set, Variants};
use crate::sim::{
    CodeView, Cursor, Figure, FigureBody, InvKind, Invariant, Knob, KnobOption, LaneView, Meter,
    Metric, Model, Present, RowView, Scenario, ScenarioMeta, StateView, StepInfo, TableView, Text,
    Tone, TreeItem, Unit,
};
use crate::tx;

/// The payment channel's limit on calls in flight.
pub const LIMIT: u8 = 10;
/// The seed's numbers: three instances, a local semaphore of 10 each.
pub const INSTANCES: u8 = 3;
pub const LOCAL: u8 = 10;
/// The local semaphore sizes the knob offers (its value is the index; 10 is the default).
pub const LOCALS: [u8; 4] = [2, 5, 10, 20];
/// Faults per run with a shared budget (a crash is what tests it).
pub const BUDGET: u8 = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SsVariant {
    PerInstanceSemaphore,
    SharedCounter,
    Leases,
}

impl SsVariant {
    pub const ALL: [SsVariant; 3] = [
        SsVariant::PerInstanceSemaphore,
        SsVariant::SharedCounter,
        SsVariant::Leases,
    ];

    /// Faults per run: one for the per-instance semaphore, which breaks with none (more only
    /// multiplies its states), two for the shared budgets.
    pub fn budget(self) -> u8 {
        match self {
            SsVariant::PerInstanceSemaphore => 1,
            _ => BUDGET,
        }
    }

    pub fn program(self) -> (&'static str, &'static str) {
        match self {
            SsVariant::PerInstanceSemaphore => (
                "per-instance.js",
                include_str!("semaphore_scope/js/per-instance.js"),
            ),
            SsVariant::SharedCounter => (
                "shared-counter.js",
                include_str!("semaphore_scope/js/shared-counter.js"),
            ),
            SsVariant::Leases => ("leases.js", include_str!("semaphore_scope/js/leases.js")),
        }
    }
}

impl Variants for SsVariant {
    const ALL: &'static [SsVariant] = &SsVariant::ALL;
}

/// One instance: its current process and the calls in flight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Inst {
    pub up: bool,
    /// The process number, from 1; a restart starts a new process.
    pub pid: u8,
    /// Calls this process sent that the channel has not answered (= local permits taken).
    pub calls: u8,
    /// Calls sent by this instance's crashed processes, still at the channel.
    pub orphans: u8,
}

/// A lease row of `channel_slots`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Slot {
    Free,
    /// Held by process `pid` of instance `inst` (0-based); renewed while that process lives.
    Held {
        inst: u8,
        pid: u8,
    },
    /// The holder crashed and the lease ran out: the next claim takes the row over.
    Expired {
        inst: u8,
        pid: u8,
    },
}

/// The state. Its identity (`Eq`, `Ord`, `Hash`) leaves out *which* lease rows hold what: only
/// how many rows each instance's dead processes still hold decides the future (a live call holds
/// exactly one row, and a free row is as good as an expired one), so runs that differ only in
/// row numbers merge in the explorer, while the player still shows every row where it is.
#[derive(Clone, Debug)]
pub struct SsState {
    /// Jobs not yet claimed.
    pub queue: u8,
    /// Jobs whose call answered to a live process.
    pub done: u8,
    pub inst: Vec<Inst>,
    /// `channel_budget.in_flight` (the shared counter; 0 elsewhere).
    pub counter: u8,
    /// `channel_slots` (leases; empty elsewhere).
    pub slots: Vec<Slot>,
}

impl SsState {
    /// What decides the future (see the type's comment).
    fn key(&self) -> (u8, u8, &[Inst], u8, [u8; 8]) {
        let mut stale = [0u8; 8];
        for &x in &self.slots {
            if let Some(n) = self.stale(x).and_then(|i| stale.get_mut(i as usize)) {
                *n += 1;
            }
        }
        (self.queue, self.done, &self.inst, self.counter, stale)
    }

    /// Calls in flight at the channel: live and orphaned.
    pub fn in_flight(&self) -> u8 {
        self.inst.iter().map(|i| i.calls + i.orphans).sum()
    }

    fn live_calls(&self) -> u8 {
        self.inst.iter().map(|i| i.calls).sum()
    }

    /// Whether the lease row is held by a process that no longer runs.
    fn stale(&self, slot: Slot) -> Option<u8> {
        match slot {
            Slot::Held { inst, pid } => {
                let i = self.inst.get(inst as usize)?;
                (!i.up || i.pid != pid).then_some(inst)
            }
            _ => None,
        }
    }

    /// Budget slots the database counts as taken that no live call holds.
    pub fn leaked(&self) -> u8 {
        let rows = self
            .slots
            .iter()
            .filter(|&&s| self.stale(s).is_some())
            .count() as u8;
        self.counter.saturating_sub(self.live_calls()) + rows
    }

    /// Jobs claimed by a process that crashed: their calls went out, nobody recorded the answer.
    pub fn abandoned(&self, jobs: u8) -> u8 {
        jobs.saturating_sub(self.queue + self.done + self.live_calls())
    }
}

impl PartialEq for SsState {
    fn eq(&self, other: &SsState) -> bool {
        self.key() == other.key()
    }
}

impl Eq for SsState {}

impl PartialOrd for SsState {
    fn partial_cmp(&self, other: &SsState) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for SsState {
    fn cmp(&self, other: &SsState) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl std::hash::Hash for SsState {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.key().hash(h);
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SsAct {
    /// Instance `i` claims up to [`SemaphoreScopeModel::group`] jobs and sends their calls.
    Claim(u8),
    /// Up to [`SemaphoreScopeModel::group`] of instance `i`'s calls answer.
    Complete(u8),
    /// The channel finishes the calls of instance `i`'s crashed processes.
    Orphans(u8),
    /// The leases of instance `i`'s crashed processes expire.
    Expire(u8),
    Restart(u8),
    Crash(u8),
}

#[derive(Clone)]
pub struct SemaphoreScopeModel {
    pub variant: SsVariant,
    pub instances: u8,
    pub local: u8,
    pub budget: u8,
}

impl SemaphoreScopeModel {
    /// Jobs in the queue at the start: enough to fill every instance's semaphore.
    pub fn jobs(&self) -> u8 {
        self.instances * self.local
    }

    /// Calls claimed or answered in one step: half the local semaphore (5 for the seed's 10),
    /// or all of a small one, so a group always divides the channel's limit and a semaphore fills
    /// in one or two steps; the explorer stays small at every knob setting.
    pub fn group(&self) -> u8 {
        if self.local <= 5 {
            self.local.max(1)
        } else {
            self.local / 2
        }
    }

    /// Free room in the shared budget (unbounded without one).
    fn room(&self, s: &SsState) -> u8 {
        match self.variant {
            SsVariant::PerInstanceSemaphore => u8::MAX,
            SsVariant::SharedCounter => LIMIT.saturating_sub(s.counter),
            SsVariant::Leases => s
                .slots
                .iter()
                .filter(|x| matches!(x, Slot::Free | Slot::Expired { .. }))
                .count() as u8,
        }
    }

    /// How many jobs instance `i` would claim now (0: it cannot).
    pub fn claimable(&self, s: &SsState, i: u8) -> u8 {
        let Some(me) = s.inst.get(i as usize) else {
            return 0;
        };
        if !me.up {
            return 0;
        }
        self.group()
            .min(s.queue)
            .min(self.local.saturating_sub(me.calls))
            .min(self.room(s))
    }

    /// Instance `i` has stale lease rows whose calls have all ended.
    fn can_expire(&self, s: &SsState, i: u8) -> bool {
        let orphans = s.inst.get(i as usize).map_or(0, |x| x.orphans);
        orphans == 0 && s.slots.iter().any(|&x| s.stale(x) == Some(i))
    }

    fn holder(inst: u8, pid: u8) -> String {
        format!("instance-{}/p{pid}", inst + 1)
    }
}

impl Model for SemaphoreScopeModel {
    type State = SsState;
    type Act = SsAct;

    fn init(&self) -> SsState {
        SsState {
            queue: self.jobs(),
            done: 0,
            inst: vec![
                Inst {
                    up: true,
                    pid: 1,
                    calls: 0,
                    orphans: 0,
                };
                self.instances as usize
            ],
            counter: 0,
            slots: if self.variant == SsVariant::Leases {
                vec![Slot::Free; LIMIT as usize]
            } else {
                Vec::new()
            },
        }
    }

    fn actions(&self, s: &SsState, out: &mut Vec<SsAct>) {
        let n = s.inst.len() as u8;
        // The least busy instance claims first, ties taken round-robin by how many claims were
        // made so far, so the default run spreads the work over every instance.
        let start = ((self.jobs() - s.queue) / self.group()) % n.max(1);
        let claim = (0..n).filter(|&i| self.claimable(s, i) > 0);
        let ranked = sorted_set(claim.map(|i| (s.inst[i as usize].calls, (i + n - start) % n, i)));
        out.extend(ranked.into_iter().map(|(_, _, i)| SsAct::Claim(i)));
        for (i, x) in (0..n).zip(&s.inst) {
            if x.up && x.calls > 0 {
                out.push(SsAct::Complete(i));
            }
        }
        for (i, x) in (0..n).zip(&s.inst) {
            if x.orphans > 0 {
                out.push(SsAct::Orphans(i));
            }
        }
        for i in 0..n {
            if self.can_expire(s, i) {
                out.push(SsAct::Expire(i));
            }
        }
        for (i, x) in (0..n).zip(&s.inst) {
            if !x.up {
                out.push(SsAct::Restart(i));
            }
        }
        for (i, x) in (0..n).zip(&s.inst) {
            if x.up && x.calls > 0 {
                out.push(SsAct::Crash(i));
            }
        }
    }

    fn is_fault(&self, a: &SsAct) -> bool {
        matches!(a, SsAct::Crash(_))
    }

    fn fault_budget(&self) -> u8 {
        self.budget
    }

    fn next(&self, s: &SsState, a: &SsAct) -> SsState {
        let mut s = s.clone();
        match *a {
            SsAct::Claim(i) => {
                let k = self.claimable(&s, i);
                let me = &mut s.inst[i as usize];
                me.calls += k;
                let pid = me.pid;
                s.queue -= k;
                match self.variant {
                    SsVariant::PerInstanceSemaphore => {}
                    SsVariant::SharedCounter => s.counter += k,
                    SsVariant::Leases => {
                        let free = s
                            .slots
                            .iter_mut()
                            .filter(|x| matches!(x, Slot::Free | Slot::Expired { .. }));
                        for slot in free.take(k as usize) {
                            *slot = Slot::Held { inst: i, pid };
                        }
                    }
                }
            }
            SsAct::Complete(i) => {
                let me = &mut s.inst[i as usize];
                let k = self.group().min(me.calls);
                me.calls -= k;
                let pid = me.pid;
                s.done += k;
                s.counter = s.counter.saturating_sub(k);
                let mine = s
                    .slots
                    .iter_mut()
                    .filter(|x| **x == Slot::Held { inst: i, pid });
                for slot in mine.take(k as usize) {
                    *slot = Slot::Free;
                }
            }
            SsAct::Orphans(i) => s.inst[i as usize].orphans = 0,
            SsAct::Expire(i) => {
                let stale: Vec<usize> = (0..s.slots.len())
                    .filter(|&k| s.stale(s.slots[k]) == Some(i))
                    .collect();
                for k in stale {
                    if let Slot::Held { inst, pid } = s.slots[k] {
                        s.slots[k] = Slot::Expired { inst, pid };
                    }
                }
            }
            SsAct::Restart(i) => {
                let me = &mut s.inst[i as usize];
                me.up = true;
                me.pid += 1;
            }
            SsAct::Crash(i) => {
                let me = &mut s.inst[i as usize];
                me.orphans += me.calls;
                me.calls = 0;
                me.up = false;
            }
        }
        s
    }

    fn invariants(&self) -> Vec<Invariant<SsState>> {
        vec![
            Invariant {
                name: Text::new(
                    "at most 10 calls in flight to the channel",
                    "支付通道在途调用不超过 10 个",
                ),
                kind: InvKind::Always,
                holds: Text::new(
                    "The payment channel never has more than 10 calls in flight.",
                    "支付通道的在途调用从未超过 10 个。",
                ),
                check: over_limit,
                rows: |_| vec![("channel", "total".into())],
            },
            Invariant {
                name: Text::new("no slot leaked forever", "名额不会永久泄漏"),
                kind: InvKind::Eventually,
                holds: Text::new(
                    "When every call has ended, every budget slot the database counts as taken belongs to a live call.",
                    "所有调用结束后，数据库记为已占用的每个名额都属于一个仍在进行的调用。",
                ),
                check: leaked,
                rows: |s| {
                    let mut rows = vec![("channel_budget", "psp".to_string())];
                    for (k, &x) in s.slots.iter().enumerate() {
                        if s.stale(x).is_some() {
                            rows.push(("channel_slots", format!("s{k}")));
                        }
                    }
                    rows
                },
            },
            Invariant {
                name: Text::new("the queue drains", "队列最终清空"),
                kind: InvKind::Eventually,
                holds: Text::new(
                    "Every job is eventually claimed.",
                    "每个任务最终都会被领取。",
                ),
                check: stuck,
                rows: |_| Vec::new(),
            },
        ]
    }
}

impl Present for SemaphoreScopeModel {
    fn label(&self, s: &SsState, a: &SsAct) -> Text {
        narrate::label(self, s, *a)
    }

    fn view(&self, s: &SsState) -> StateView {
        let n = s.inst.len();
        let mut lanes: Vec<LaneView> = (0..n)
            .map(|i| {
                let up = s.inst[i].up;
                LaneView::process(&format!("Instance {}", i + 1), &format!("实例 {}", i + 1))
                    .down_when(!up)
            })
            .collect();
        lanes.push(LaneView::store("Postgres", "Postgres"));
        lanes.push(LaneView::store("Payment channel", "支付通道"));
        let mut tables = vec![self.channel_table(s), self.instances_table(s)];
        match self.variant {
            SsVariant::PerInstanceSemaphore => {}
            SsVariant::SharedCounter => tables.push(self.budget_table(s)),
            SsVariant::Leases => tables.push(self.slots_table(s)),
        }
        tables.push(self.jobs_table(s));
        StateView {
            lanes,
            tables,
            metrics: self.metrics(s),
            code: Some(self.code(s)),
            tree: self.tree(s),
            figure: Some(self.figure(s)),
            ..StateView::default()
        }
    }

    fn describe(&self, b: &SsState, a: &SsAct, s: &SsState) -> StepInfo {
        narrate::describe(self, b, *a, s)
    }

    fn intro(&self) -> Text {
        narrate::intro(self)
    }
}

/// "instance 1 has 10, instance 2 has 10" (orphans named apart).
fn shares(s: &SsState) -> Text {
    let mut en = Vec::new();
    let mut zh = Vec::new();
    for (i, x) in s.inst.iter().enumerate() {
        if x.calls > 0 {
            en.push(format!("instance {} has {}", i + 1, x.calls));
            zh.push(format!("实例 {} 有 {} 个", i + 1, x.calls));
        }
        if x.orphans > 0 {
            en.push(format!(
                "{} sent by instance {}'s crashed process",
                x.orphans,
                i + 1
            ));
            zh.push(format!("{} 个来自实例 {} 已崩溃的进程", x.orphans, i + 1));
        }
    }
    Text::new(en.join(", "), zh.join("，"))
}

impl SemaphoreScopeModel {
    /// Calls in flight against the channel's 10, by instance (the per-instance semaphores'
    /// lesson: 3 × 10 = 30); where a shared budget leaks, the slots it counts as taken, live
    /// against leaked by a crash.
    fn figure(&self, s: &SsState) -> Figure {
        if self.variant == SsVariant::PerInstanceSemaphore {
            let n = s.in_flight();
            let parts: Vec<(Text, u32)> = (s.inst.iter().enumerate())
                .map(|(i, x)| {
                    (
                        Text::same(format!("{}", i + 1)),
                        u32::from(x.calls + x.orphans),
                    )
                })
                .collect();
            let each: Vec<String> = parts.iter().map(|(k, v)| format!("{} {v}", k.en)).collect();
            return Figure {
                title: Text::new(
                    "Calls in flight against the channel's limit, by instance",
                    "支付通道的在途调用与上限（按实例）",
                ),
                name: Text::new(
                    format!(
                        "{n} calls in flight against the channel's limit of {LIMIT}; instances {}",
                        each.join(", ")
                    ),
                    format!(
                        "在途调用 {n} 个，通道上限 {LIMIT}；各实例 {}",
                        each.join("，")
                    ),
                ),
                body: FigureBody::Meter(Meter {
                    value: u32::from(n),
                    limit: u32::from(LIMIT),
                    limit_name: Text::new("channel limit", "通道上限"),
                    unit: Unit::Count,
                    parts,
                }),
                shows: vec![0],
            };
        }
        let live = u32::from(s.live_calls());
        let leaked = u32::from(s.leaked());
        Figure {
            title: Text::new("Budget slots taken against the limit", "已占用的预算名额与上限"),
            name: tx!(
                "{} of {LIMIT} budget slots taken: {live} by live calls, {leaked} leaked by a crash",
                "预算名额已占 {}/{LIMIT}：{live} 个属于在途调用，{leaked} 个被崩溃泄漏",
                live + leaked
            ),
            body: FigureBody::Meter(Meter {
                value: live + leaked,
                limit: u32::from(LIMIT),
                limit_name: Text::new("slots", "名额"),
                unit: Unit::Count,
                parts: vec![
                    (Text::new("live calls", "在途调用"), live),
                    (Text::new("leaked", "已泄漏"), leaked),
                ],
            }),
            shows: vec![1, 2],
        }
    }
}

fn over_limit(s: &SsState) -> Option<Text> {
    let n = s.in_flight();
    (n > LIMIT).then(|| {
        let who = shares(s);
        Text::new(
            format!(
                "{n} calls are in flight to the payment channel, over its limit of {LIMIT} ({}): each semaphore counts only its own process's calls.",
                who.en
            ),
            format!(
                "支付通道有 {n} 个在途调用，超过上限 {LIMIT}（{}）：每个信号量只数得到自己进程里的调用。",
                who.zh
            ),
        )
    })
}

fn leaked(s: &SsState) -> Option<Text> {
    let n = s.leaked();
    (n > 0).then(|| {
        if s.slots.is_empty() {
            let live = s.live_calls();
            tx!(
                "channel_budget.in_flight is {} but {live} calls are in flight: {n} slots were taken by a process that crashed, and nothing will ever give them back.",
                "channel_budget.in_flight 是 {}，实际在途调用只有 {live} 个：{n} 个名额被已崩溃的进程占着，永远不会有人归还。",
                s.counter
            )
        } else {
            tx!("{n} lease rows still name a crashed process.", "还有 {n} 行租约写着已崩溃的进程。")
        }
    })
}

fn stuck(s: &SsState) -> Option<Text> {
    (s.queue > 0).then(|| {
        tx!(
            "{} jobs are still queued and no instance can claim one: the budget says {} of {LIMIT} slots are taken while {} calls are in flight.",
            "还有 {} 个任务在排队，却没有实例能领取：预算显示 {LIMIT} 个名额已占 {} 个，而实际在途调用只有 {} 个。",
            s.queue,
            s.counter,
            s.in_flight()
        )
    })
}

impl SemaphoreScopeModel {
    fn metrics(&self, s: &SsState) -> Vec<Metric> {
        let count = |en: &str, zh: &str, n: u8| Metric::count(Text::new(en, zh), n.into());
        let mut m = vec![
            count(
                "calls in flight to the channel",
                "通道在途调用",
                s.in_flight(),
            ),
            count("channel limit", "通道上限", LIMIT),
        ];
        match self.variant {
            SsVariant::PerInstanceSemaphore => m.push(count(
                "instances × local semaphore",
                "实例数 × 本地信号量",
                self.jobs(),
            )),
            SsVariant::SharedCounter => {
                m.push(count(
                    "budget taken (in Postgres)",
                    "已占预算（Postgres）",
                    s.counter,
                ));
                m.push(count("slots leaked", "泄漏的名额", s.leaked()));
            }
            SsVariant::Leases => {
                let held = s.slots.iter().filter(|x| matches!(x, Slot::Held { .. }));
                m.push(count("leases held", "持有的租约", held.count() as u8));
                m.push(count(
                    "leases of crashed processes",
                    "已崩溃进程的租约",
                    s.leaked(),
                ));
            }
        }
        m.push(count("jobs queued", "排队任务", s.queue));
        m.push(count("jobs done", "完成任务", s.done));
        m
    }

    fn channel_table(&self, s: &SsState) -> TableView {
        let lane = s.inst.len() + 1;
        let mut t = TableView::durable(
            "channel",
            Text::new("Payment channel: calls in flight", "支付通道：在途调用"),
            lane,
        );
        t.columns = vec![Text::new("from", "来自"), Text::new("in flight", "在途")];
        for (i, x) in s.inst.iter().enumerate() {
            if x.calls > 0 {
                t.rows.push(RowView::new(
                    format!("i{i}"),
                    vec![
                        tx!("instance-{}/p{}", "instance-{}/p{}", i + 1, x.pid),
                        Text::same(x.calls.to_string()),
                    ],
                ));
            }
            if x.orphans > 0 {
                t.rows.push(RowView::new(
                    format!("o{i}"),
                    vec![
                        tx!(
                            "instance {}, crashed process",
                            "实例 {}，已崩溃的进程",
                            i + 1
                        ),
                        Text::same(x.orphans.to_string()),
                    ],
                ));
            }
        }
        let n = s.in_flight();
        let total = if n > LIMIT {
            tx!(
                "{n} (limit {LIMIT}: over by {})",
                "{n}（上限 {LIMIT}：超出 {}）",
                n - LIMIT
            )
        } else {
            tx!("{n} (limit {LIMIT})", "{n}（上限 {LIMIT}）")
        };
        t.rows.push(RowView::new(
            "total".into(),
            vec![Text::new("total", "合计"), total],
        ));
        t
    }

    fn instances_table(&self, s: &SsState) -> TableView {
        let mut t = TableView::memory(
            "instances",
            Text::new("Instances (process memory)", "实例（进程内存）"),
            0,
        );
        t.columns = vec![
            Text::new("instance", "实例"),
            Text::new("process", "进程"),
            Text::new("local semaphore", "本地信号量"),
        ];
        for (i, x) in s.inst.iter().enumerate() {
            let sem = if x.up {
                tx!(
                    "{} of {} permits taken",
                    "已占 {}/{} 个许可",
                    x.calls,
                    self.local
                )
            } else {
                Text::new("⚡ lost in the crash", "⚡ 随崩溃丢失")
            };
            let proc = if x.up {
                Text::same(format!("p{}", x.pid))
            } else {
                tx!("p{} ⚡ down", "p{} ⚡ 已崩溃", x.pid)
            };
            t.rows.push(RowView::new(
                format!("i{i}"),
                vec![Text::same((i + 1).to_string()), proc, sem],
            ));
        }
        t
    }

    fn budget_table(&self, s: &SsState) -> TableView {
        let mut t =
            TableView::durable("channel_budget", Text::same("channel_budget"), s.inst.len());
        t.columns = vec![Text::same("channel"), Text::same("in_flight")];
        t.rows.push(RowView::new(
            "psp".into(),
            vec![Text::same("psp"), Text::same(s.counter.to_string())],
        ));
        t
    }

    fn slots_table(&self, s: &SsState) -> TableView {
        let mut t = TableView::durable("channel_slots", Text::same("channel_slots"), s.inst.len());
        t.columns = vec![
            Text::same("slot"),
            Text::same("holder"),
            Text::same("expires_at"),
        ];
        for (k, &slot) in s.slots.iter().enumerate() {
            let (holder, lease) = match slot {
                Slot::Free => (Text::same("NULL"), Text::same("NULL")),
                Slot::Held { inst, pid } => (
                    Text::same(Self::holder(inst, pid)),
                    if s.stale(slot).is_some() {
                        Text::new(
                            "not renewed since the crash: runs out within 30 s",
                            "崩溃后不再续期：30 秒内到期",
                        )
                    } else {
                        Text::new(
                            "now + 30 s, renewed every 10 s",
                            "now + 30 秒，每 10 秒续期",
                        )
                    },
                ),
                Slot::Expired { inst, pid } => (
                    Text::same(Self::holder(inst, pid)),
                    Text::new("expired: free to claim", "已到期：可被领取"),
                ),
            };
            t.rows.push(RowView::new(
                format!("s{k}"),
                vec![Text::same((k + 1).to_string()), holder, lease],
            ));
        }
        t
    }

    fn jobs_table(&self, s: &SsState) -> TableView {
        let mut t = TableView::durable(
            "jobs",
            Text::new("jobs (count by status)", "jobs（按状态计数）"),
            s.inst.len(),
        );
        t.columns = vec![Text::same("status"), Text::new("jobs", "任务数")];
        let lost = s.abandoned(self.jobs());
        let rows = [
            ("queued", Text::same("queued"), s.queue),
            ("running", Text::same("running"), s.live_calls()),
            ("done", Text::same("done"), s.done),
            (
                "abandoned",
                Text::new(
                    "running, owner crashed (to reconcile)",
                    "运行中（running），领取者已崩溃，待对账",
                ),
                lost,
            ),
        ];
        for (key, name, n) in rows {
            if n > 0 || key != "abandoned" {
                t.rows.push(RowView::new(
                    key.into(),
                    vec![name, Text::same(n.to_string())],
                ));
            }
        }
        t
    }

    fn tree(&self, s: &SsState) -> Vec<TreeItem> {
        let n = s.in_flight();
        let (status, tone) = if n > LIMIT {
            (
                tx!(
                    "{n} in flight: {} over the limit",
                    "在途 {n} 个：超出上限 {} 个",
                    n - LIMIT
                ),
                Tone::Bad,
            )
        } else {
            (
                tx!("{n} in flight", "在途 {n} 个"),
                if n == 0 { Tone::Quiet } else { Tone::Good },
            )
        };
        let mut items = vec![TreeItem {
            depth: 0,
            label: tx!("Payment channel · limit {LIMIT}", "支付通道 · 上限 {LIMIT}"),
            status,
            tone,
        }];
        for (i, x) in s.inst.iter().enumerate() {
            let label = tx!(
                "Instance {} · local semaphore {}",
                "实例 {} · 本地信号量 {}",
                i + 1,
                self.local
            );
            let (status, tone) = if x.up {
                (
                    tx!("{} in flight", "在途 {} 个", x.calls),
                    if x.calls == 0 {
                        Tone::Quiet
                    } else {
                        Tone::Active
                    },
                )
            } else {
                (Text::new("⚡ down", "⚡ 已崩溃"), Tone::Bad)
            };
            items.push(TreeItem {
                depth: 1,
                label,
                status,
                tone,
            });
            if x.orphans > 0 {
                items.push(TreeItem {
                    depth: 2,
                    label: Text::new("sent before the crash", "崩溃前发出的调用"),
                    status: tx!(
                        "{} still at the channel, nobody waiting",
                        "仍有 {} 个在通道里，无人等待",
                        x.orphans
                    ),
                    tone: Tone::Bad,
                });
            }
        }
        items
    }

    fn code(&self, s: &SsState) -> CodeView {
        let (title, text) = self.variant.program();
        let find = |needle: &str| text.lines().position(|l| l.contains(needle)).unwrap_or(0);
        let claim_line = match self.variant {
            SsVariant::PerInstanceSemaphore => "claimJob(db)",
            SsVariant::SharedCounter => "in_flight = in_flight + 1",
            SsVariant::Leases => "SET holder = $1",
        };
        let wait_line = match self.variant {
            SsVariant::PerInstanceSemaphore => "if (!job)",
            SsVariant::SharedCounter => "rowCount === 0",
            SsVariant::Leases => "rows.length === 0",
        };
        let cursors = (0..s.inst.len() as u8)
            .map(|i| {
                let x = s.inst[i as usize];
                let (line, doing) = if !x.up {
                    (
                        find("export async function"),
                        Text::new("crashed", "已崩溃"),
                    )
                } else if s.queue == 0 {
                    (
                        find("if (!job)").max(find("claimJob(db)")),
                        tx!(
                            "queue empty; {} calls in flight",
                            "队列已空；在途 {} 个",
                            x.calls
                        ),
                    )
                } else if x.calls >= self.local {
                    (
                        find("local.acquire()"),
                        tx!(
                            "all {} permits taken: waiting",
                            "{} 个许可全部占用：等待中",
                            self.local
                        ),
                    )
                } else if self.claimable(s, i) == 0 {
                    (
                        find(wait_line),
                        Text::new("no budget slot free: waiting", "没有空闲的预算名额：等待中"),
                    )
                } else {
                    (
                        find(claim_line),
                        tx!(
                            "ready to claim; {} calls in flight",
                            "准备领取；在途 {} 个",
                            x.calls
                        ),
                    )
                };
                Cursor {
                    line,
                    who: (i + 1).to_string(),
                    doing,
                }
            })
            .collect();
        CodeView {
            title,
            text,
            cursors,
        }
    }
}

mod narrate;
pub(crate) use narrate::notes;

/// The semaphore-scope scenario.
pub struct SemaphoreScope;

impl SemaphoreScope {
    /// The seed's numbers: three instances, a local semaphore of 10.
    pub fn model(variant: SsVariant, budget: u8) -> SemaphoreScopeModel {
        Self::model_with(variant, budget, &[])
    }

    /// The knobs in `meta().knobs` order (instances, local semaphore); missing or out-of-range
    /// values fall back to the defaults.
    pub fn model_with(variant: SsVariant, budget: u8, knobs: &[u32]) -> SemaphoreScopeModel {
        let knob = |i: usize, lo: u8, hi: u8, default: u8| {
            knobs
                .get(i)
                .and_then(|&k| u8::try_from(k).ok())
                .filter(|k| (lo..=hi).contains(k))
                .unwrap_or(default)
        };
        SemaphoreScopeModel {
            variant,
            instances: knob(0, 1, 5, INSTANCES),
            local: knobs
                .get(1)
                .and_then(|&k| LOCALS.get(k as usize))
                .copied()
                .unwrap_or(LOCAL),
            budget,
        }
    }
}

fn knob(key: &'static str, name: [&str; 2], default: u8, range: (u8, u8), step: u8) -> Knob {
    Knob {
        key,
        name: Text::new(name[0], name[1]),
        default: default.into(),
        min: range.0.into(),
        max: range.1.into(),
        step: step.into(),
        options: Vec::new(),
    }
}

impl Scenario for SemaphoreScope {
    type Model = SemaphoreScopeModel;
    type Variant = SsVariant;

    fn model_of(variant: usize, budget: Option<u8>, knobs: &[u32]) -> SemaphoreScopeModel {
        let v = SsVariant::at(variant);
        Self::model_with(v, budget.unwrap_or(v.budget()), knobs)
    }

    fn meta(&self) -> ScenarioMeta {
        narrate::meta()
    }
}

/// The knobs: instances 1–5, and the local semaphore as a choice of 2, 5, 10 or 20 permits (a
/// link says the size: `local=10`).
fn knobs() -> Vec<Knob> {
    let mut local = knob(
        "local",
        ["Local semaphore per instance", "每实例本地信号量"],
        2,
        (0, LOCALS.len() as u8 - 1),
        1,
    );
    local.options = LOCALS
        .iter()
        .map(|n| KnobOption::new(n.to_string(), tx!("{n} permits", "{n} 个许可")))
        .collect();
    vec![
        knob("instances", ["Instances", "实例数"], INSTANCES, (1, 5), 1),
        local,
    ]
}
