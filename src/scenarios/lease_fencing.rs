//! # Leases and fencing: a stale worker wakes up
//!
//! **Setting.** Refund run r-7 (80.00 on ord-1701) is a row in `runs`. Worker A claims it with a
//! 30 s lease (lease_version 1), then pauses — a long GC, a network stall (a fault). The lease
//! expires and worker B claims the run (lease_version 2), refunds and completes it. Then A wakes
//! up, still believing it holds the run.
//!
//! **The mistakes.** Without fencing A's final write lands over B's (`no-fencing`), and A's
//! refund call is a second refund. With fencing (`WHERE lease_version = 1`) A's write is refused
//! — UPDATE 0 — but its refund call went out before the write, so there are still two refunds
//! (`fenced`).
//!
//! **The fix.** The refund carries the operation's idempotency key (op-r7), so the provider
//! answers A's late call with B's refund (`fenced-with-key`). A lease coordinates who works; it
//! cannot recall a request already sent.

use crate::sim::kit::Variants;
use crate::sim::{
    Figure, FigureBody, InvKind, Invariant, LaneView, LedgerRow, Metric, Model, Notes, Present,
    RowView, Scenario, ScenarioMeta, StateView, StepInfo, TableView, Text, Unit, VariantMeta,
};
use crate::tx;

const DB: usize = 2;
const PROVIDER: usize = 3;
/// The workers' names, by index (each is its own lane, 0 and 1).
pub const WORKERS: [&str; 2] = ["A", "B"];
/// The operation's idempotency key (`fenced-with-key`).
pub const OP_KEY: &str = "op-r7";

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LfVariant {
    NoFencing,
    Fenced,
    FencedWithKey,
}

impl LfVariant {
    pub const ALL: [LfVariant; 3] = [
        LfVariant::NoFencing,
        LfVariant::Fenced,
        LfVariant::FencedWithKey,
    ];

    pub fn fenced(self) -> bool {
        self != LfVariant::NoFencing
    }
}

impl Variants for LfVariant {
    const ALL: &'static [LfVariant] = &LfVariant::ALL;
}

/// Where a worker is with the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    Idle,
    /// It holds (or believes it holds) a lease.
    Claimed,
    /// Its refund call went out.
    Called,
    /// Its final write ran (landed or refused).
    Done,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Worker {
    pub stage: Stage,
    /// The lease version it claimed.
    pub version: u8,
    pub paused: bool,
    /// Its final write changed no row (UPDATE 0).
    pub refused: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RunStatus {
    Pending,
    Running,
    Completed,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LfState {
    pub workers: [Worker; 2],
    /// The row's holder and lease version.
    pub holder: Option<u8>,
    pub version: u8,
    /// The current lease has run out.
    pub expired: bool,
    pub status: RunStatus,
    pub completed_by: Option<u8>,
    /// A final write by a worker whose lease was no longer current landed.
    pub stale_write: bool,
    /// Refund calls, by worker, in the order sent.
    pub calls: Vec<u8>,
    /// Refunds the provider executed, by the worker whose call made them.
    pub refunds: Vec<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LfAct {
    Claim(u8),
    /// A worker holding a lease stops (GC, a network stall).
    Pause(u8),
    /// The paused holder's lease runs out.
    Expire,
    Wake(u8),
    /// A worker sends its refund call.
    Call(u8),
    /// A worker writes the run COMPLETED.
    Complete(u8),
}

#[derive(Clone)]
pub struct LeaseFencingModel {
    pub variant: LfVariant,
    pub budget: u8,
}

impl LeaseFencingModel {
    /// Whether worker `w` may claim: A at the start; anyone once the holder's lease ran out.
    fn may_claim(s: &LfState, w: u8) -> bool {
        let worker = s.workers[w as usize];
        let open = match s.holder {
            None => w == 0,
            Some(h) => h != w && s.expired,
        };
        worker.stage == Stage::Idle && !worker.paused && open && s.status != RunStatus::Completed
    }

    /// Whether `w`'s final write matches the row (its lease is the current one).
    pub fn current(s: &LfState, w: u8) -> bool {
        s.holder == Some(w) && s.version == s.workers[w as usize].version
    }

    fn complete(&self, s: &mut LfState, w: u8) {
        let current = Self::current(s, w);
        let worker = &mut s.workers[w as usize];
        worker.stage = Stage::Done;
        if self.variant.fenced() && !current {
            worker.refused = true;
            return;
        }
        s.stale_write |= !current;
        s.status = RunStatus::Completed;
        s.completed_by = Some(w);
    }

    fn call(&self, s: &mut LfState, w: u8) {
        s.workers[w as usize].stage = Stage::Called;
        s.calls.push(w);
        let replayed = self.variant == LfVariant::FencedWithKey && !s.refunds.is_empty();
        if !replayed {
            s.refunds.push(w);
        }
    }
}

impl Model for LeaseFencingModel {
    type State = LfState;
    type Act = LfAct;

    fn init(&self) -> LfState {
        let idle = Worker {
            stage: Stage::Idle,
            version: 0,
            paused: false,
            refused: false,
        };
        LfState {
            workers: [idle; 2],
            holder: None,
            version: 0,
            expired: false,
            status: RunStatus::Pending,
            completed_by: None,
            stale_write: false,
            calls: Vec::new(),
            refunds: Vec::new(),
        }
    }

    fn actions(&self, s: &LfState, out: &mut Vec<LfAct>) {
        for w in 0..2u8 {
            let worker = s.workers[w as usize];
            if Self::may_claim(s, w) {
                out.push(LfAct::Claim(w));
            }
            if worker.paused {
                // It wakes once its lease is gone: expired, or already claimed by another.
                if s.expired || s.holder != Some(w) {
                    out.push(LfAct::Wake(w));
                }
                continue;
            }
            match worker.stage {
                Stage::Claimed => {
                    out.push(LfAct::Call(w));
                    out.push(LfAct::Pause(w));
                }
                Stage::Called => out.push(LfAct::Complete(w)),
                _ => {}
            }
        }
        let paused_holder = s.holder.is_some_and(|h| s.workers[h as usize].paused);
        if paused_holder && !s.expired {
            out.push(LfAct::Expire);
        }
    }

    fn is_fault(&self, a: &LfAct) -> bool {
        matches!(a, LfAct::Pause(_))
    }

    fn fault_budget(&self) -> u8 {
        self.budget
    }

    fn next(&self, s: &LfState, a: &LfAct) -> LfState {
        let mut s = s.clone();
        match *a {
            LfAct::Claim(w) => {
                s.version += 1;
                s.holder = Some(w);
                s.expired = false;
                s.status = RunStatus::Running;
                s.workers[w as usize].stage = Stage::Claimed;
                s.workers[w as usize].version = s.version;
            }
            LfAct::Pause(w) => s.workers[w as usize].paused = true,
            LfAct::Expire => s.expired = true,
            LfAct::Wake(w) => s.workers[w as usize].paused = false,
            LfAct::Call(w) => self.call(&mut s, w),
            LfAct::Complete(w) => self.complete(&mut s, w),
        }
        s
    }

    fn invariants(&self) -> Vec<Invariant<LfState>> {
        vec![
            Invariant {
                name: Text::new("one refund per run", "每个运行只退一次款"),
                kind: InvKind::Always,
                holds: Text::new(
                    "The provider executed at most one refund for r-7.",
                    "支付方为 r-7 最多执行了一笔退款。",
                ),
                check: twice,
                rows: |s| {
                    (1..s.refunds.len())
                        .map(|i| ("ledger", format!("re-{i}")))
                        .collect()
                },
            },
            Invariant {
                name: Text::new(
                    "a stale worker never overwrites",
                    "过期的 worker 不会覆盖状态",
                ),
                kind: InvKind::Always,
                holds: Text::new(
                    "Only the worker holding the current lease writes the run's outcome.",
                    "只有持有当前租约的 worker 才能写入运行结果。",
                ),
                check: overwritten,
                rows: |s| {
                    if s.stale_write {
                        vec![("runs", "r-7".to_string())]
                    } else {
                        Vec::new()
                    }
                },
            },
        ]
    }
}

fn twice(s: &LfState) -> Option<Text> {
    let n = s.refunds.len();
    (n > 1).then(|| {
        tx!(
            "The provider executed {n} refunds for r-7: the worker that lost its lease had already sent its call.",
            "支付方为 r-7 执行了 {n} 笔退款：失去租约的 worker 早已发出了它的调用。"
        )
    })
}

fn overwritten(s: &LfState) -> Option<Text> {
    s.stale_write.then(|| {
        Text::new(
            "A worker whose lease had expired wrote r-7's outcome over the current holder's: nothing in its UPDATE checked the lease.",
            "一个租约已过期的 worker 覆盖了当前持有者写下的 r-7 结果：它的 UPDATE 没有检查租约。",
        )
    })
}

impl Present for LeaseFencingModel {
    fn label(&self, _s: &LfState, a: &LfAct) -> Text {
        narrate::label(*a)
    }

    fn view(&self, s: &LfState) -> StateView {
        StateView {
            lanes: vec![
                LaneView::process("Worker A", "Worker A").down_when(s.workers[0].paused),
                LaneView::process("Worker B", "Worker B").down_when(s.workers[1].paused),
                LaneView::store("Database", "数据库"),
                LaneView::store("Payment provider", "支付方"),
            ],
            tables: vec![runs(s), workers(s), ledger(self.variant, s)],
            metrics: vec![
                Metric::count(Text::new("refund calls", "退款调用"), s.calls.len() as u32),
                Metric::count(
                    Text::new("refunds executed", "已执行的退款"),
                    s.refunds.len() as u32,
                ),
            ],
            figure: Some(figure(s)),
            ..StateView::default()
        }
    }

    fn describe(&self, b: &LfState, a: &LfAct, s: &LfState) -> StepInfo {
        narrate::describe(self, b, *a, s)
    }

    fn intro(&self) -> Text {
        narrate::intro(self.variant)
    }
}

/// Refunds meant and made, and the outcomes written by a worker that had lost its lease.
fn figure(s: &LfState) -> Figure {
    let n = s.refunds.len() as u32;
    let stale = u32::from(s.stale_write);
    Figure {
        title: Text::new("Refunds meant and made", "想要的退款与实际的退款"),
        name: tx!(
            "{n} refunds executed for the one run r-7 meant; {stale} outcome written by a worker without the lease",
            "运行 r-7 只想退一次，实际执行了 {n} 笔；失去租约的 worker 写入结果 {stale} 次"
        ),
        body: FigureBody::Ledger(vec![
            LedgerRow {
                name: Text::new("refunds for r-7", "r-7 的退款"),
                intended: 1,
                executed: n,
                unit: Unit::Count,
            },
            LedgerRow {
                name: Text::new("writes without the lease", "无租约的写入"),
                intended: 0,
                executed: stale,
                unit: Unit::Count,
            },
        ]),
        shows: vec![0, 1],
    }
}

fn dash(w: Option<u8>) -> Text {
    Text::same(w.map_or("—", |w| WORKERS[w as usize]))
}

pub fn status_word(st: RunStatus) -> &'static str {
    match st {
        RunStatus::Pending => "PENDING",
        RunStatus::Running => "RUNNING",
        RunStatus::Completed => "COMPLETED",
    }
}

fn runs(s: &LfState) -> TableView {
    let mut t = TableView::durable("runs", Text::new("runs", "runs（运行）"), DB);
    t.columns = [
        "run_id",
        "status",
        "holder",
        "lease_version",
        "completed_by",
    ]
    .map(Text::same)
    .to_vec();
    let lease = if s.expired {
        tx!("{} (expired)", "{}（已过期）", s.version)
    } else {
        Text::same(s.version.to_string())
    };
    t.rows.push(RowView::new(
        "r-7".into(),
        vec![
            Text::same("r-7"),
            Text::same(status_word(s.status)),
            dash(s.holder),
            lease,
            dash(s.completed_by),
        ],
    ));
    t
}

fn workers(s: &LfState) -> TableView {
    let mut t = TableView::memory(
        "workers",
        Text::new("What each worker believes", "每个 worker 以为的"),
        0,
    );
    t.columns = vec![
        Text::new("worker", "worker"),
        Text::new("lease it holds", "手里的租约"),
        Text::new("doing", "正在做"),
    ];
    for (i, w) in s.workers.iter().enumerate() {
        let lease = match w.version {
            0 => Text::same("—"),
            v => Text::same(format!("v{v}")),
        };
        let doing = match (w.paused, w.stage, w.refused) {
            (true, _, _) => Text::new("paused", "暂停中"),
            (_, Stage::Idle, _) => Text::new("idle", "空闲"),
            (_, Stage::Claimed, _) => Text::new("about to refund", "准备退款"),
            (_, Stage::Called, _) => Text::new("refund sent", "退款已发出"),
            (_, Stage::Done, true) => Text::new("write refused (UPDATE 0)", "写入被拒（UPDATE 0）"),
            (_, Stage::Done, false) => Text::new("wrote COMPLETED", "已写入 COMPLETED"),
        };
        t.rows.push(RowView::new(
            WORKERS[i].into(),
            vec![Text::same(WORKERS[i]), lease, doing],
        ));
    }
    t
}

fn ledger(v: LfVariant, s: &LfState) -> TableView {
    let mut t = TableView::durable(
        "ledger",
        Text::new("Provider's refunds", "支付方的退款"),
        PROVIDER,
    );
    t.columns = vec![
        Text::new("refund", "退款"),
        Text::new("run", "运行"),
        Text::new("asked by", "发起者"),
        Text::new("key", "键"),
    ];
    t.empty = Text::new("(no refund)", "（没有退款）");
    let key = if v == LfVariant::FencedWithKey {
        Text::same(OP_KEY)
    } else {
        Text::new("(none)", "（无）")
    };
    for (i, &w) in s.refunds.iter().enumerate() {
        t.rows.push(RowView::new(
            format!("re-{i}"),
            vec![
                Text::same(format!("re_{}", i + 1)),
                Text::same("r-7"),
                Text::same(WORKERS[w as usize]),
                key.clone(),
            ],
        ));
    }
    t
}

mod narrate;

/// The lease-fencing scenario.
pub struct LeaseFencing;

impl LeaseFencing {
    pub fn model(variant: LfVariant, budget: u8) -> LeaseFencingModel {
        LeaseFencingModel { variant, budget }
    }
}

impl Scenario for LeaseFencing {
    type Model = LeaseFencingModel;
    type Variant = LfVariant;

    fn model_of(variant: usize, budget: Option<u8>, _knobs: &[u32]) -> LeaseFencingModel {
        Self::model(LfVariant::at(variant), budget.unwrap_or(2))
    }

    fn meta(&self) -> ScenarioMeta {
        let variants = [
            VariantMeta::mistake("no-fencing", ["No fencing", "没有防护令牌"],
                ["A pauses past its lease, B takes the run over and completes it; A wakes, refunds again and writes over B's outcome.",
                 "A 暂停超过租约，B 接管并完成运行；A 醒来后又退了一次款，还覆盖了 B 写下的结果。"])
            .failing("0100011", ["⚡ pause A after it claimed r-7, then let B take over and A wake up.",
                                 "A 领取 r-7 后 ⚡ 让它暂停，然后让 B 接管、A 醒来。"]),
            VariantMeta::mistake("fenced", ["Fenced write", "带防护的写入"],
                ["A's final write checks lease_version = 1 and changes nothing (UPDATE 0) — but its refund call went out first: two refunds.",
                 "A 的最终写入检查 lease_version = 1，什么也没改（UPDATE 0）——但它的退款调用早已发出：两笔退款。"])
            .failing("0100011", ["⚡ pause A after it claimed r-7, then let B take over and A wake up.",
                                 "A 领取 r-7 后 ⚡ 让它暂停，然后让 B 接管、A 醒来。"]),
            VariantMeta::fix("fenced-with-key", ["Fenced, and an idempotency key", "防护写入加幂等键"],
                ["The write is fenced and the refund carries the operation's key op-r7: the provider answers A's late call with B's refund.",
                 "写入带防护，退款带上操作的幂等键 op-r7：支付方用 B 的那笔退款回应 A 迟到的调用。"])
            .hinted(["⚡ pause A, or B, at any point: one refund, one outcome.",
                     "在任何时刻 ⚡ 暂停 A 或 B：只有一笔退款、一个结果。"]),
        ];
        ScenarioMeta {
            slug: "lease-fencing",
            theme: Text::new("Concurrency", "并发"),
            title: Text::new(
                "Leases and fencing: a stale worker wakes up",
                "租约与防护令牌：过期的 worker 醒来了",
            ),
            summary: Text::new(
                "A lease decides who works; a fencing token stops a stale write; neither can recall a refund already sent — an idempotency key can.",
                "租约决定谁来干活；防护令牌挡住过期的写入；两者都收不回已经发出的退款——幂等键可以。",
            ),
            variants: variants
                .into_iter()
                .map(|m| VariantMeta {
                    fault_budget: 2,
                    fixed_by: (!m.fixed).then_some("fenced-with-key"),
                    ..m
                })
                .collect(),
            knobs: Vec::new(),
            moves_heading: Some(Text::new("You are the scheduler", "由你来调度")),
        }
    }
}

/// Speaker notes for presenting this scenario (fetched by the page from `notes.json`).
pub(crate) fn notes() -> Notes {
    Notes::new(
        ["A lease says who may work on a run, for a while; a process can pause past it (GC, a network stall) and never notice. Fence every write with the lease's version (WHERE lease_version = 1: UPDATE 0 for the stale worker), and give the external call the operation's idempotency key, because the fence only guards your own database: a request already sent cannot be recalled.",
         "租约规定谁可以在一段时间内处理某个运行；进程可能暂停超过租约（GC、网络卡顿）而毫不知情。每次写入都用租约版本做防护（WHERE lease_version = 1：过期的 worker 得到 UPDATE 0），外部调用还要带上操作的幂等键，因为防护只守得住自己的数据库：已经发出的请求收不回来。"],
        ["“Isn't a lease with a short TTL enough?” A pause can outlast any TTL; the worker wakes and carries on. “Where does the fencing token go?” Into every write that depends on holding the lease — and into the downstream call if the downstream can check it; otherwise the operation's idempotency key.",
         "“租约 TTL 设短一点不就够了？”暂停可以比任何 TTL 都长；worker 醒来后照常继续。“防护令牌放在哪里？”放进每一个依赖持有租约的写入里——下游能校验的话也放进下游调用；否则就用操作的幂等键。"],
        ["“The lease guarantees only one worker runs it.” “Fencing the final UPDATE prevents the double refund.”",
         "“有租约就保证只有一个 worker 在跑。”“给最后的 UPDATE 加上防护就不会重复退款。”"],
    )
}
