//! Labels, narration, the SQL of every step, and the scenario's description, in both languages.

use super::{knobs, SemaphoreScopeModel, SsAct, SsState, SsVariant, LIMIT};
use crate::sim::{Arrow, ArrowKind, MarkKind, Notes, ScenarioMeta, StepInfo, Text, VariantMeta};
use crate::tx;

const GO_SEM: &str = "Go x/sync/semaphore, pkg.go.dev/golang.org/x/sync/semaphore";
const PG_RC: &str = "PostgreSQL, Read Committed, postgresql.org/docs/current/transaction-iso.html";
const LEASES: &str = "Gray & Cheriton, Leases, SOSP 1989, doi.org/10.1145/74851.74870";

pub(super) fn label(m: &SemaphoreScopeModel, s: &SsState, a: SsAct) -> Text {
    match a {
        SsAct::Claim(i) => {
            let k = m.claimable(s, i);
            tx!(
                "Instance {}: claim {k} jobs",
                "实例 {}：领取 {k} 个任务",
                i + 1
            )
        }
        SsAct::Complete(i) => {
            let k = m.group().min(s.inst[i as usize].calls);
            tx!(
                "Instance {}: {k} calls answer",
                "实例 {}：{k} 个调用返回",
                i + 1
            )
        }
        SsAct::Orphans(i) => tx!(
            "Channel: instance {}'s orphaned calls end",
            "通道：实例 {} 的遗留调用结束",
            i + 1
        ),
        SsAct::Expire(i) => tx!(
            "Instance {}'s old leases expire (30 s)",
            "实例 {} 的旧租约到期（30 秒）",
            i + 1
        ),
        SsAct::Restart(i) => tx!("Restart instance {}", "重启实例 {}", i + 1),
        SsAct::Crash(i) => tx!("Crash instance {}", "让实例 {} 崩溃", i + 1),
    }
}

pub(super) fn intro(m: &SemaphoreScopeModel) -> Text {
    let (n, l, j, g) = (m.instances, m.local, m.jobs(), m.group());
    let base = tx!(
        "{n} instances claim payment jobs from one shared queue ({j} jobs). Each runs its worker loop behind a local semaphore of {l}. The payment channel accepts at most {LIMIT} calls in flight. A step claims or answers up to {g} calls.",
        "{n} 个实例从同一个共享队列领取支付任务（共 {j} 个）。每个实例的工作循环都有一个大小为 {l} 的本地信号量。支付通道最多承受 {LIMIT} 个在途调用。每一步领取或返回最多 {g} 个调用。"
    );
    base.then(&match m.variant {
        SsVariant::PerInstanceSemaphore => tx!(
            "A semaphore limits how many tasks run at once within its scope, and this one's scope is one process ({GO_SEM}). Play it: how many calls reach the channel?",
            "信号量限制的是其作用域内同时运行的任务数，而这个信号量的作用域是单个进程（{GO_SEM}）。播放看看：通道会收到多少个调用？"
        ),
        SsVariant::SharedCounter => tx!(
            "The budget is one row in Postgres: each call first runs UPDATE channel_budget SET in_flight = in_flight + 1 WHERE in_flight < 10, which re-checks the row after waiting for a concurrent writer ({PG_RC}), and subtracts 1 when it ends. Crash an instance while it holds slots.",
            "预算是 Postgres 里的一行：每个调用先执行 UPDATE channel_budget SET in_flight = in_flight + 1 WHERE in_flight < 10，它在等到并发写者提交后会重新检查这一行（{PG_RC}），调用结束时再减 1。在某个实例占着名额时让它崩溃。"
        ),
        SsVariant::Leases => tx!(
            "The budget is {LIMIT} lease rows. A lease names the process (instance-1/p1) and expires 30 s after its last renewal; the holder renews every 10 s, and a channel call times out after 10 s, shorter than the lease ({LEASES}). Crash an instance while it holds slots.",
            "预算是 {LIMIT} 行租约。租约写明持有进程（instance-1/p1），在最后一次续期 30 秒后到期；持有者每 10 秒续期一次，通道调用 10 秒超时，短于租约（{LEASES}）。在某个实例占着名额时让它崩溃。"
        ),
    })
}

fn arrow(from: usize, to: usize, label: Text) -> Arrow {
    crate::sim::arrow(from, to, label, ArrowKind::Message)
}

/// "1–5", or "7" for one.
fn range(first: usize, last: usize) -> String {
    if first == last {
        first.to_string()
    } else {
        format!("{first}–{last}")
    }
}

/// The lease rows that changed from `from` to a state matching `to`, as "3–5" style ranges.
fn slots_changed(b: &SsState, s: &SsState) -> String {
    let changed: Vec<usize> = (0..s.slots.len())
        .filter(|&k| b.slots.get(k) != s.slots.get(k))
        .map(|k| k + 1)
        .collect();
    match (changed.first(), changed.last()) {
        (Some(&a), Some(&z)) if z - a + 1 == changed.len() => range(a, z),
        _ => changed
            .iter()
            .map(|k| k.to_string())
            .collect::<Vec<_>>()
            .join(", "),
    }
}

pub(super) fn describe(m: &SemaphoreScopeModel, b: &SsState, a: SsAct, s: &SsState) -> StepInfo {
    let n = s.inst.len();
    let (db, channel) = (n, n + 1);
    let mut info = StepInfo::default();
    let cx = Cx {
        m,
        b,
        s,
        db,
        channel,
    };
    match a {
        SsAct::Claim(i) => claim(m, b, i, s, &mut info, db, channel),
        SsAct::Complete(i) => complete(m, b, i, s, &mut info, db, channel),
        SsAct::Crash(i) => crash(m, b, i, &mut info),
        SsAct::Restart(i) => cx.restart(&mut info, i),
        SsAct::Orphans(i) => cx.orphans(&mut info, i),
        SsAct::Expire(i) => cx.expire(&mut info, i),
    }
    info
}

fn claim(
    m: &SemaphoreScopeModel,
    b: &SsState,
    i: u8,
    s: &SsState,
    info: &mut StepInfo,
    db: usize,
    channel: usize,
) {
    let who = i as usize;
    let me = s.inst[who];
    let k = me.calls - b.inst[who].calls;
    let first = (m.jobs() - b.queue) as usize + 1;
    let jobs = range(first, first + k as usize - 1);
    let holder = format!("instance-{}/p{}", who + 1, me.pid);
    info.lane = who;
    info.title = tx!(
        "instance {} claims jobs {jobs}",
        "实例 {} 领取任务 {jobs}",
        who + 1
    );
    // One arrow a step keeps the timeline readable; the database's part is a mark.
    info.arrows
        .push(arrow(who, channel, tx!("pay ×{k}", "付款 ×{k}")));
    info.mark(db, MarkKind::Write, "jobs claimed", "任务已领取");
    let jobs_sql = format!(
        "UPDATE jobs SET status = 'running', owner = '{holder}'\n WHERE id = (SELECT id FROM jobs WHERE status = 'queued'\n             ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)\n RETURNING id;  -- jobs {jobs}"
    );
    let (budget_sql, budget) = budget_taken(m, b, s, &holder);
    info.code = Some(format!("-- {holder}, {k} times:\n{budget_sql}{jobs_sql}"));
    let base = tx!(
        "Instance {} takes {k} permits from its own semaphore ({} of {} taken), claims jobs {jobs} and sends {k} payment calls.",
        "实例 {} 从自己的信号量拿了 {k} 个许可（已占 {}/{}），领取任务 {jobs}，发出 {k} 个支付调用。",
        who + 1,
        me.calls,
        m.local
    );
    let now = channel_now(m, s, channel, info);
    info.narration = base.then(&budget).then(&now);
}

/// What the shared budget does before each call: the SQL and a sentence (nothing for a
/// semaphore per instance).
fn budget_taken(m: &SemaphoreScopeModel, b: &SsState, s: &SsState, holder: &str) -> (String, Text) {
    match m.variant {
        SsVariant::PerInstanceSemaphore => (String::new(), Text::default()),
        SsVariant::SharedCounter => (
            format!("UPDATE channel_budget SET in_flight = in_flight + 1\n WHERE in_flight < 10;  -- UPDATE 1 each time: {} → {}\n", b.counter, s.counter),
            tx!(
                "Before each call it runs the conditional UPDATE on channel_budget: UPDATE 1 every time, in_flight {} → {}.",
                "每次调用前它先对 channel_budget 执行条件 UPDATE：每次都是 UPDATE 1，in_flight {} → {}。",
                b.counter,
                s.counter
            ),
        ),
        SsVariant::Leases => {
            let rows = slots_changed(b, s);
            (
                format!("UPDATE channel_slots\n   SET holder = '{holder}', expires_at = now() + interval '30 seconds'\n WHERE slot = (SELECT slot FROM channel_slots\n                WHERE holder IS NULL OR expires_at < now()\n                ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED)\n RETURNING slot;  -- slots {rows}\n"),
                tx!(
                    "Before each call it takes a lease row: slots {rows} now name {holder}.",
                    "每次调用前它先拿一行租约：名额 {rows} 现在写着 {holder}。"
                ),
            )
        }
    }
}

/// The channel's calls in flight after a claim, marked when over its limit.
fn channel_now(m: &SemaphoreScopeModel, s: &SsState, channel: usize, info: &mut StepInfo) -> Text {
    let total = s.in_flight();
    if total > LIMIT && s.queue == 0 && total == m.jobs() {
        info.mark(channel, MarkKind::Fail, "over the limit", "超出上限");
        tx!(
            "The channel now has {total} calls in flight: {} instances × {} = {total}, against a limit of {LIMIT}. Every semaphore is full and none of them was ever exceeded.",
            "通道现在有 {total} 个在途调用：{} 个实例 × {} = {total}，而上限是 {LIMIT}。每个信号量都满了，却没有一个被突破过。",
            m.instances,
            m.local
        )
    } else if total > LIMIT {
        info.mark(channel, MarkKind::Fail, "over the limit", "超出上限");
        tx!(
            "The channel now has {total} calls in flight, over its limit of {LIMIT}: each semaphore only counts its own process's calls.",
            "通道现在有 {total} 个在途调用，超过上限 {LIMIT}：每个信号量只数自己进程里的调用。"
        )
    } else {
        tx!(
            "The channel has {total} calls in flight.",
            "通道现在有 {total} 个在途调用。"
        )
    }
}

fn complete(
    m: &SemaphoreScopeModel,
    b: &SsState,
    i: u8,
    s: &SsState,
    info: &mut StepInfo,
    db: usize,
    channel: usize,
) {
    let who = i as usize;
    let k = b.inst[who].calls - s.inst[who].calls;
    let holder = format!("instance-{}/p{}", who + 1, s.inst[who].pid);
    info.lane = who;
    info.title = tx!(
        "{k} calls of instance {} answer",
        "实例 {} 的 {k} 个调用返回",
        who + 1
    );
    info.arrows
        .push(arrow(channel, who, Text::same(format!("200 ×{k}"))));
    info.mark(db, MarkKind::Commit, "jobs done", "任务完成");
    let (sql, budget) = match m.variant {
        SsVariant::PerInstanceSemaphore => (String::new(), Text::default()),
        SsVariant::SharedCounter => (
            format!(
                "UPDATE channel_budget SET in_flight = in_flight - 1;  -- {} → {}\n",
                b.counter, s.counter
            ),
            tx!(
                "Each finally block gives its slot back: channel_budget.in_flight {} → {}.",
                "每个 finally 块都归还自己的名额：channel_budget.in_flight {} → {}。",
                b.counter,
                s.counter
            ),
        ),
        SsVariant::Leases => {
            let rows = slots_changed(b, s);
            (
                format!("UPDATE channel_slots SET holder = NULL\n WHERE slot = $1 AND holder = '{holder}';  -- slots {rows}\n"),
                tx!(
                    "Each finally block frees its lease row: slots {rows}.",
                    "每个 finally 块都释放自己的租约行：名额 {rows}。"
                ),
            )
        }
    };
    info.code = Some(format!(
        "-- {holder}, {k} times:\nUPDATE jobs SET status = 'done' WHERE id = $1;\n{sql}"
    ));
    let base = tx!(
        "{k} of instance {}'s calls answer: the jobs are done and {k} permits go back to its semaphore ({} of {} taken). {} calls in flight.",
        "实例 {} 的 {k} 个调用返回：任务完成，{k} 个许可还给它的信号量（已占 {}/{}）。在途 {} 个。",
        who + 1,
        s.inst[who].calls,
        m.local,
        s.in_flight()
    );
    info.narration = base.then(&budget);
}

fn crash(m: &SemaphoreScopeModel, b: &SsState, i: u8, info: &mut StepInfo) {
    let who = i as usize;
    let x = b.inst[who];
    info.lane = who;
    info.mark(who, MarkKind::Crash, "crash", "崩溃");
    info.title = tx!(
        "instance {} crashes holding {}",
        "实例 {} 占着 {} 个名额崩溃",
        who + 1,
        x.calls
    );
    let base = tx!(
        "Instance {} (process p{}) crashes with {} calls in flight. Its memory is gone: the semaphore, and the finally blocks that would have released its slots. The {} calls it sent are still at the channel.",
        "实例 {}（进程 p{}）在有 {} 个在途调用时崩溃。它的内存没了：信号量，以及本该释放名额的 finally 块。它发出的 {} 个调用还在通道里。",
        who + 1,
        x.pid,
        x.calls,
        x.calls
    );
    info.narration = base.then(&match m.variant {
        SsVariant::PerInstanceSemaphore => Text::default(),
        SsVariant::SharedCounter => tx!(
            "channel_budget.in_flight stays at {}: nothing will ever subtract the {} this process added.",
            "channel_budget.in_flight 停在 {}：这个进程加上去的 {} 永远不会有人减掉。",
            b.counter,
            x.calls
        ),
        SsVariant::Leases => tx!(
            "Its {} lease rows still name instance-{}/p{}, but nobody renews them: they run out 30 s after the last renewal.",
            "它的 {} 行租约仍写着 instance-{}/p{}，但没人再续期：最后一次续期 30 秒后就会到期。",
            x.calls,
            who + 1,
            x.pid
        ),
    });
}

/// The scenario's description: variants, knobs and speaker notes.
pub(super) fn meta() -> ScenarioMeta {
    let variants = [
        VariantMeta::mistake("per-instance-semaphore", ["Semaphore per instance", "每实例一个信号量"],
                             ["Each instance limits itself to 10: three instances put 3 × 10 = 30 calls in flight against a limit of 10.",
                              "每个实例把自己限制在 10 个：三个实例一共有 3 × 10 = 30 个在途调用，而上限是 10。"])
        .failing("000", ["let each instance claim its jobs: every semaphore has room, the channel does not.",
                         "让每个实例都领取任务：每个信号量都还有空位，通道却没有。"]),
        VariantMeta::mistake("shared-counter", ["Shared counter", "共享计数器"],
                             ["One budget row and a conditional UPDATE: never over 10, but a crashed instance's slots leak forever.",
                              "一行预算加条件 UPDATE：从不超过 10，但崩溃实例占的名额会永久泄漏。"])
        .failing("02100", ["let instance 1 claim, then ⚡ crash it while it holds slots.",
                           "让实例 1 领取任务，然后在它占着名额时 ⚡ 让它崩溃。"]),
        VariantMeta::fix("leases", ["Leases per slot", "每名额一个租约"],
                         ["A lease row per slot naming the process, with an expiry: a crashed instance's slots come back.",
                          "每个名额一行租约，写明持有进程并带有到期时间：崩溃实例的名额会回来。"])
        .hinted(["⚡ crash an instance while it holds slots: its leases expire and the queue drains.",
                 "在实例占着名额时 ⚡ 让它崩溃：它的租约会到期，队列照样清空。"]),
    ];
    ScenarioMeta {
        slug: "semaphore-scope",
        theme: Text::new("Concurrency", "并发"),
        title: Text::new(
            "Semaphore scope: 10 per instance is not 10 in total",
            "信号量的作用域：每实例 10 个 ≠ 全局 10 个",
        ),
        summary: Text::new(
            "Three instances, each with a semaphore of 10, put 30 calls on a channel that takes 10; a shared budget needs to survive a crash.",
            "三个实例各有一个大小为 10 的信号量，却让只能承受 10 个的通道收到 30 个调用；共享预算还得扛得住崩溃。",
        ),
        variants: variants
            .into_iter()
            .zip(SsVariant::ALL)
            .map(|(m, v)| VariantMeta {
                fault_budget: v.budget(),
                fixed_by: (!m.fixed).then_some("leases"),
                ..m
            })
            .collect(),
        knobs: knobs(),
        moves_heading: None,
    }
}

/// Speaker notes for presenting this scenario. Not part of `meta()`: the page fetches them on
/// demand from `notes.json`, which `content::notes_json` writes (see `content`).
pub(crate) fn notes() -> Notes {
    Notes::new(
            ["A mutex protects a critical section; a semaphore limits how many tasks enter at once; CAS updates atomically when the value is what you expect; backpressure makes the upstream slow to what downstream can take. Their scopes differ: an in-process semaphore cannot protect another instance. With a limit of 10 per instance, global concurrency is up to instances × 10; a global limit needs a shared (or layered) budget: a shared quota, a counter row, leases, or a queue consumer quota.",
             "Mutex 保护互斥临界区；Semaphore 限制同时进入的任务数；CAS 在值符合预期时原子更新；背压让上游速度服从下游处理能力。它们作用范围不同：进程内的信号量保护不了另一个实例。每实例上限 10，全局并发最多是实例数 × 10；全局上限需要共享或分层预算：共享限额、计数行、租约或队列消费配额。"],
            ["“One semaphore protects the whole cluster's quota?” No: each instance has its own limit, so the total multiplies by the number of instances; you need a global or layered budget. “What if an instance dies holding budget?” A counter it must decrement leaks; a lease expires and the slot comes back — with the lease longer than the call's timeout. “Does the semaphore protect each payment's amount?” No: that invariant belongs in the database, with a conditional update.",
             "“开一个 semaphore 就能保护整个集群配额？”每实例各有一个上限时，总并发仍乘实例数；需要全局或分层预算。“实例占着预算时挂了怎么办？”靠它自己减的计数器会泄漏；租约会到期，名额回来——前提是租约长于调用超时。“Semaphore 能保证每笔支付的额度吗？”不能：这个不变量放在数据库里，用条件更新。"],
            ["“A semaphore is naturally shared across processes.” “An in-process lock protects every replica.”",
             "“Semaphore 天然跨进程共享。”“进程内互斥锁能保护所有副本。”"],
        )
}

/// What every step's narration reads: the model, the states before and after, and the lanes
/// of the database and the channel.
#[derive(Clone, Copy)]
struct Cx<'a> {
    m: &'a SemaphoreScopeModel,
    b: &'a SsState,
    s: &'a SsState,
    db: usize,
    channel: usize,
}

impl Cx<'_> {
    fn restart(&self, info: &mut StepInfo, i: u8) {
        let Cx { m, s, .. } = *self;
        let who = i as usize;
        let pid = s.inst[who].pid;
        info.lane = who;
        info.mark(who, MarkKind::Restart, "restart", "重启");
        info.title = tx!(
            "instance {} restarts as p{pid}",
            "实例 {} 重启为 p{pid}",
            who + 1
        );
        let base = tx!(
            "Instance {} restarts as a new process, p{pid}, with a fresh semaphore of {}: all its permits are free, and it knows nothing of what p{} held.",
            "实例 {} 以新进程 p{pid} 重启，带着一个全新的大小为 {} 的信号量：许可全部空闲，它对 p{} 占过什么一无所知。",
            who + 1,
            m.local,
            pid - 1
        );
        info.narration = base.then(&match m.variant {
            SsVariant::PerInstanceSemaphore => Text::default(),
            SsVariant::SharedCounter => tx!(
                "It cannot subtract the slots p{} took from channel_budget: it does not know it had any.",
                "它无法从 channel_budget 里减掉 p{} 占的名额：它根本不知道有这些名额。",
                pid - 1
            ),
            SsVariant::Leases => tx!(
                "Its name is new (instance-{}/p{pid}), so it does not renew p{}'s leases: they run out.",
                "它的名字是新的（instance-{}/p{pid}），所以不会为 p{} 的租约续期：它们会到期。",
                who + 1,
                pid - 1
            ),
        });
    }

    fn orphans(&self, info: &mut StepInfo, i: u8) {
        let Cx {
            m, b, s, channel, ..
        } = *self;
        let who = i as usize;
        let k = b.inst[who].orphans;
        info.lane = channel;
        info.mark(
            channel,
            MarkKind::Respond,
            "answered, nobody listening",
            "已返回，无人接收",
        );
        info.title = tx!("channel ends {k} orphaned calls", "通道结束 {k} 个遗留调用");
        let base = tx!(
            "The channel answers the {k} calls instance {}'s crashed process sent, or times them out after 10 s; nobody is listening. They no longer count against the limit: {} in flight now.",
            "通道返回了实例 {} 已崩溃进程发出的 {k} 个调用（或在 10 秒后超时）；没有人在听。它们不再占用上限：现在在途 {} 个。",
            who + 1,
            s.in_flight()
        );
        info.narration = base.then(&match m.variant {
            SsVariant::SharedCounter => tx!(
                "channel_budget.in_flight still says {}: the budget counts calls that no longer exist.",
                "channel_budget.in_flight 仍然是 {}：预算数着已经不存在的调用。",
                s.counter
            ),
            SsVariant::Leases => Text::new(
                "Their lease rows still name the dead process until the leases run out.",
                "在租约到期之前，这些租约行仍写着已崩溃的进程。",
            ),
            SsVariant::PerInstanceSemaphore => Text::default(),
        });
    }

    fn expire(&self, info: &mut StepInfo, i: u8) {
        let Cx { b, s, db, .. } = *self;
        let who = i as usize;
        let rows = slots_changed(b, s);
        info.lane = db;
        info.mark(db, MarkKind::Write, "leases expire", "租约到期");
        info.title = tx!("leases {rows} expire", "租约 {rows} 到期");
        info.code = Some(
            "-- 30 s after the last renewal, for slots ".to_string()
                + &rows
                + ":\n--   expires_at < now()  (the next claim's WHERE matches them)",
        );
        info.narration = tx!(
            "Nobody renewed the leases of instance {}'s crashed process, and 30 s after the last renewal they run out: slots {rows} keep their rows, but expires_at < now(), so the next claim takes them over. The calls that process sent ended first (10 s timeout < 30 s lease), so the channel never sees more than {LIMIT}.",
            "实例 {} 已崩溃进程的租约无人续期，最后一次续期 30 秒后到期：名额 {rows} 的行还在，但 expires_at < now()，下一次领取会接管它们。该进程发出的调用已先结束（10 秒超时 < 30 秒租约），所以通道从不会超过 {LIMIT} 个。",
            who + 1
        );
    }
}
