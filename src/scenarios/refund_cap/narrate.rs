//! Step narration for the refund cap: what ran, what the database answered, and why it matters.
use super::*;
use crate::sim::{mark, ArrowKind, MarkKind};
use crate::tx;

/// The intro, with the knobs' numbers: the cap and what each request asks for.
pub(super) fn intro(m: &RefundCapModel) -> Text {
    let (cap, [a, b, c]) = (m.cap, m.amounts);
    let two = if a == b {
        tx!("Two refund requests of {a}", "两个 {a} 的退款请求")
    } else {
        tx!(
            "Two refund requests, A of {a} and B of {b},",
            "两个退款请求（A 退 {a}，B 退 {b}）"
        )
    };
    let plus = if a == b {
        a.to_string()
    } else {
        "its amount".into()
    };
    let plus_zh = if a == b {
        a.to_string()
    } else {
        "自己的金额".into()
    };
    match m.variant {
        RcVariant::ReadThenWrite => Text::new(
            format!("Order 1 may be refunded up to {cap}. {} arrive at one Node process. Each reads the remaining amount, awaits, then reserves with reserved = reserved + {plus} (the increment form: both writes count, and the row ends at {}). Step through: which callback runs between a read and its write?", two.en, a + b),
            format!("订单 1 最多可退 {cap}。{}同时到达同一个 Node 进程。每个请求先读剩余额度，await，再用 reserved = reserved + {plus_zh} 预留（累加的写法：两次写入都算数，这一行最后是 {}）。逐步执行：在读和写之间，哪个回调插了进来？", two.zh, a + b),
        ),
        RcVariant::LostUpdate => tx!(
            "The same two requests, but each writes back the value it computed from its read: SET reserved = (what it read) + {plus}. The race form the interview question names: an old value written back loses an update.",
            "同样两个请求，但每个都把按自己读数算出的值写回去：SET reserved = 读到的值 + {plus_zh}。这是面试题里说的那种竞态：按旧值写回，就会丢更新。"
        ),
        RcVariant::MutexOneInstance => Text::new(
            "The same read-then-write, now inside an in-process mutex. One Node process serves both requests, so the mutex serialises them.",
            "同样的先读后写，现在包在进程内互斥锁里。一个 Node 进程处理两个请求，所以互斥锁让它们串行。",
        ),
        RcVariant::MutexTwoInstances => Text::new(
            "The same mutex code, deployed on two instances behind a load balancer: A goes to instance 1, B to instance 2. Each process has its own mutex.",
            "同样的互斥锁代码部署在负载均衡后的两个实例上：A 到实例 1，B 到实例 2。每个进程都有自己的互斥锁。",
        ),
        RcVariant::ConditionalUpdate => tx!(
            "Each request sends one conditional UPDATE: the database checks the remaining amount against the cap of {cap} and reserves in the same statement. Two instances, no lock in Node.",
            "每个请求只发一条条件 UPDATE：数据库在同一条语句里对照上限 {cap} 检查剩余额度并预留。两个实例，Node 里没有锁。"
        ),
        RcVariant::SelectForUpdate => Text::new(
            "Each request opens a transaction and reads the row with SELECT … FOR UPDATE, which locks it until COMMIT. Two instances.",
            "每个请求开启事务，用 SELECT … FOR UPDATE 读取这一行，并锁住它直到 COMMIT。两个实例。",
        ),
        RcVariant::Semaphore2 => {
            let three = if a == b && b == c {
                tx!("Three refund requests of {a}", "三个 {a} 的退款请求")
            } else {
                tx!(
                    "Three refund requests (A {a}, B {b}, C {c})",
                    "三个退款请求（A {a}、B {b}、C {c}）"
                )
            };
            Text::new(
                format!("{}, one process, a cap of {cap}, and a semaphore that lets at most two run at once. Watch what it limits, and what it does not.", three.en),
                format!("{}、一个进程、上限 {cap}、一个最多允许两个同时运行的信号量。看看它限制了什么，又没限制什么。", three.zh),
            )
        }
    }
}

/// What "reads the committed value" and "changes 0 rows" rest on: a waiting statement re-reads
/// the row its blocker committed under READ COMMITTED, PostgreSQL's default.
const RC: &str = "This holds under READ COMMITTED (PostgreSQL's default): a statement that waited for a row lock works on the row as committed. Under REPEATABLE READ it fails instead with 40001 (could not serialize access due to concurrent update), and the request must retry.";
const RC_ZH: &str = "这在 READ COMMITTED（PostgreSQL 的默认级别）下成立：等过行锁的语句会基于已提交的那一行继续执行。在 REPEATABLE READ 下它会以 40001（由于并发更新无法串行化访问）失败，请求必须重试。";

/// What request `r` sent after running, as a sentence ending the narration of a Run step.
fn sent(s: &RcState, r: u8) -> Text {
    let x = name(r);
    match s.reqs[r as usize].pc {
        Pc::Await(stmt) => Text::new(
            format!("{x} sends {} and awaits: the callback ends here, and the event loop is free for the next one.", stmt.word()),
            format!("{x} 发出 {} 并 await：这个回调到此结束，事件循环可以运行下一个回调。", stmt.word_zh()),
        ),
        _ => Text::default(),
    }
}

pub(super) fn describe(m: &RefundCapModel, b: &RcState, a: &RcAct, s: &RcState) -> StepInfo {
    let mut info = StepInfo::default();
    match *a {
        RcAct::Exec(r) => executes(m, b, s, r, &mut info),
        RcAct::Run(i) => {
            if let Some(r) = m.head(b, i) {
                runs(m, b, s, r, &mut info);
            }
        }
    }
    info
}

/// The database executes request `r`'s pending statement and answers on `r`'s lane.
fn executes(m: &RefundCapModel, b: &RcState, s: &RcState, r: u8, info: &mut StepInfo) {
    let db = m.db_lane();
    let x = name(r);
    // The answer goes back to the request's own lane.
    let lane = r as usize;
    let stmt = RefundCapModel::pending(b, r).unwrap_or(Stmt::Select);
    let answer = s.reqs[r as usize].answer.unwrap_or(Answer::Ok);
    info.lane = db;
    info.code = Some(stmt.sql(b.reqs[r as usize].amount, set_value(b, r)));
    info.title = Text::new(
        format!("{x}: {} executes", stmt.word()),
        format!("{x}：执行 {}", stmt.word_zh()),
    );
    // Short labels: the timeline's step columns are narrow.
    let reply = match answer {
        Answer::Remaining(left) => left.to_string(),
        Answer::Rows(n) => format!("UPDATE {n}"),
        Answer::Ok => "OK".into(),
    };
    info.arrow(db, lane, reply, ArrowKind::Message);
    let ex = Ex {
        b,
        s,
        r,
        x,
        db,
        before: b.reserved,
        after: s.reserved,
        cap: b.cap,
        amt: b.reqs[r as usize].amount,
    };
    info.narration = ex.answered(info, stmt, answer);
}

/// What one statement's execution reads: the states around it, the request, and the numbers
/// the narration quotes.
#[derive(Clone, Copy)]
struct Ex<'a> {
    b: &'a RcState,
    s: &'a RcState,
    r: u8,
    x: &'static str,
    db: usize,
    before: i32,
    after: i32,
    cap: i32,
    amt: i32,
}

impl Ex<'_> {
    /// The database's answer to the statement, in words, with its marks.
    fn answered(&self, info: &mut StepInfo, stmt: Stmt, answer: Answer) -> Text {
        let Ex {
            x,
            db,
            before,
            after,
            cap,
            amt,
            ..
        } = *self;
        match (stmt, answer) {
        (Stmt::Select, Answer::Remaining(left)) => tx!(
            "The database answers {x}'s SELECT: cap {cap} − refunded 0 − reserved {before} = {left} remaining. The answer waits in the queue of ready callbacks until the event loop gets to it.",
            "数据库回答 {x} 的 SELECT：cap {cap} − refunded 0 − reserved {before} = 剩余 {left}。结果进入就绪回调队列，等事件循环轮到它。"
        ),
        (Stmt::SelectForUpdate, Answer::Remaining(left)) => self.locked(left),
        (Stmt::UpdateSet, _) => self.written(info),
        (Stmt::Update, _) => self.updated(info),
        (Stmt::UpdateIf, Answer::Rows(1)) => {
            info.mark(db, MarkKind::Write, "reserve", "预留");
            tx!(
                "The database checks {cap} − 0 − {before} ≥ {amt} on the current row and reserves in the same statement: reserved {before} → {after} (UPDATE 1).",
                "数据库在当前行上检查 {cap} − 0 − {before} ≥ {amt}，并在同一条语句里预留：reserved {before} → {after}（UPDATE 1）。"
            )
        }
        (Stmt::UpdateIf, _) => {
            info.mark(db, MarkKind::Dedup, "refused", "拒绝");
            let left = cap - before;
            tx!(
                "The database evaluates the condition on the current row: {cap} − 0 − {before} = {left} < {amt}, so it changes nothing (UPDATE 0). The check and the write cannot be split by an await: they are one statement. {RC}",
                "数据库在当前行上计算条件：{cap} − 0 − {before} = {left} < {amt}，因此什么也不改（UPDATE 0）。检查和写入是同一条语句，await 无法把它们拆开。{RC_ZH}"
            )
        }
        (Stmt::Begin, _) => tx!("The database opens {x}'s transaction.", "数据库为 {x} 开启事务。"),
        (Stmt::Commit, _) => self.committed(info),
        (Stmt::Rollback, _) => {
            info.mark(db, MarkKind::Rollback, "rollback", "回滚");
            tx!(
                "The database rolls back {x}'s transaction (it wrote nothing) and releases the row lock.",
                "数据库回滚 {x} 的事务（它没有写入任何东西），释放行锁。"
            )
        }
        _ => Text::default(),
        }
    }

    fn locked(&self, left: i32) -> Text {
        let Ex { s, r, x, .. } = *self;
        let waiting: Vec<&str> = (0..s.reqs.len() as u8)
            .filter(|&o| o != r && RefundCapModel::blocked(s, o))
            .map(name)
            .collect();
        let mut t = tx!(
            "The database locks the row for {x}'s transaction and answers: {left} remaining. Until {x} commits or rolls back, every other SELECT … FOR UPDATE on this row waits.",
            "数据库为 {x} 的事务锁住这一行并回答：剩余 {left}。在 {x} 提交或回滚之前，这一行上的其他 SELECT … FOR UPDATE 都要等待。"
        );
        if !waiting.is_empty() {
            let w = waiting.join(", ");
            t = t.then(&tx!("{w} is already waiting.", "{w} 已经在等待。"));
        }
        t
    }

    fn written(&self, info: &mut StepInfo) -> Text {
        let Ex {
            x,
            db,
            before,
            after,
            amt,
            ..
        } = *self;
        info.mark(db, MarkKind::Write, "reserve", "预留");
        let mut t = tx!(
            "The database writes {x}'s value: reserved {before} → {after}. {x} computed {after} from the {} it read, plus {amt}.",
            "数据库写入 {x} 算出的值：reserved {before} → {after}。{x} 是用读到的 {} 加上 {amt} 算出 {after} 的。",
            after - amt
        );
        if after < before + amt {
            info.mark(db, MarkKind::Fail, "overwritten", "被覆盖");
            t = t.then(&tx!(
                "The row held {before}: the other request's reservation is overwritten, not added to. Both requests are told their refund is reserved; the row remembers one (a lost update).",
                "这一行原本是 {before}：另一个请求的预留被覆盖了，而不是累加。两个请求都被告知退款已预留，这一行却只记住了一笔（更新丢失）。"
            ));
        }
        t
    }

    fn updated(&self, info: &mut StepInfo) -> Text {
        let Ex {
            b,
            r,
            x,
            db,
            before,
            after,
            cap,
            ..
        } = *self;
        info.mark(db, MarkKind::Write, "reserve", "预留");
        let mut t = tx!(
            "The database applies {x}'s UPDATE: reserved {before} → {after}.",
            "数据库执行 {x} 的 UPDATE：reserved {before} → {after}。"
        );
        if after > cap && before <= cap {
            info.mark(db, MarkKind::Fail, "over the cap", "超出上限");
            let seen = b.reqs[r as usize].seen.unwrap_or(cap);
            t = t.then(&tx!(
                "Over the cap of {cap}: {x} decided on the {seen} it read earlier, but another request reserved in between. Nothing in Node was running \"at the same time\": the gap was the await.",
                "超过了上限 {cap}：{x} 依据的是之前读到的 {seen}，而另一个请求在这之间已经预留。Node 里没有任何代码\"同时\"运行：空隙就是那个 await。"
            ));
        }
        t
    }

    fn committed(&self, info: &mut StepInfo) -> Text {
        let Ex {
            b, r, x, db, after, ..
        } = *self;
        info.mark(db, MarkKind::Commit, "commit", "提交");
        let freed: Vec<&str> = (0..b.reqs.len() as u8)
            .filter(|&o| o != r && RefundCapModel::blocked(b, o))
            .map(name)
            .collect();
        let mut t = tx!(
            "The database commits {x}'s transaction (reserved {after}) and releases the row lock.",
            "数据库提交 {x} 的事务（reserved {after}），释放行锁。"
        );
        if !freed.is_empty() {
            let w = freed.join(", ");
            t = t.then(&tx!(
                "{w}'s SELECT … FOR UPDATE, waiting for it, can run now — and will read the committed value.",
                "一直在等待的 {w} 的 SELECT … FOR UPDATE 现在可以执行了，而且会读到已提交的值。"
            ));
        }
        t
    }
}

/// Instance `i` runs request `r`'s next callback, on `r`'s lane.
fn runs(m: &RefundCapModel, b: &RcState, s: &RcState, r: u8, info: &mut StepInfo) {
    let db = m.db_lane();
    let x = name(r);
    let q = b.reqs[r as usize];
    let after = s.reqs[r as usize];
    // The instance runs request r's callback: it happens on r's lane.
    let lane = r as usize;
    info.lane = lane;
    let mut text = match (q.pc, q.answer) {
        (Pc::Queued, _) => {
            info.title = tx!("{x}: handler", "{x}：处理函数");
            match (m.variant.permits(), after.pc) {
                (None, _) => tx!(
                    "The event loop runs {x}'s request handler.",
                    "事件循环运行 {x} 的请求处理函数。"
                ),
                (Some(1), Pc::AwaitLock) => tx!(
                    "{x}'s handler asks for the mutex, which another request of this process holds: {x} waits in the mutex's queue and touches nothing.",
                    "{x} 的处理函数请求互斥锁，而本进程中另一个请求正持有它：{x} 在锁的队列中等待，什么也不碰。"
                ),
                (Some(1), _) => tx!(
                    "{x}'s handler takes this process's mutex (it was free).",
                    "{x} 的处理函数拿到本进程的互斥锁（它是空闲的）。"
                ),
                (Some(_), Pc::AwaitLock) => tx!(
                    "{x}'s handler asks for a permit: both are taken, so {x} waits. The semaphore does its job — at most two requests run — but it says nothing about what they reserve.",
                    "{x} 的处理函数申请许可：两个许可都被占用，{x} 只能等待。信号量做到了它的本职——最多两个请求同时运行——但它完全不管它们预留了多少。"
                ),
                (Some(_), _) => tx!(
                    "{x}'s handler takes one of the semaphore's 2 permits.",
                    "{x} 的处理函数拿到信号量 2 个许可中的一个。"
                ),
            }
        }
        (Pc::Await(stmt), Some(answer)) => {
            info.title = Text::new(
                format!("{x}: resume after {}", stmt.word()),
                format!("{x}：{} 之后继续", stmt.word_zh()),
            );
            resumed(m, b, r, stmt, answer)
        }
        _ => Text::default(),
    };
    match after.pc {
        Pc::Await(stmt) if after.answer.is_none() => {
            info.arrow(lane, db, stmt.arrow(), ArrowKind::Message);
            text = text.then(&sent(s, r));
        }
        Pc::Done(ok) if q.pc != after.pc => {
            info.marks.push(if ok {
                mark(lane, MarkKind::Respond, "reserved", "已预留")
            } else {
                mark(
                    lane,
                    MarkKind::Fail,
                    "insufficient remaining",
                    "剩余额度不足",
                )
            });
        }
        _ => {}
    }
    text.add(&handed_over(m, b, s, r));
    info.narration = text;
}

/// The lock (or permit) request `r` hands over in a `finally`: the waiter runs on in the same
/// turn.
fn handed_over(m: &RefundCapModel, b: &RcState, s: &RcState, r: u8) -> Text {
    let mut out = Text::default();
    for w in 0..s.reqs.len() as u8 {
        let was = b.reqs[w as usize].pc;
        if w != r && was == Pc::AwaitLock && s.reqs[w as usize].pc != Pc::AwaitLock {
            let y = name(w);
            let what = if m.variant == RcVariant::Semaphore2 {
                ("its permit", "它的许可")
            } else {
                ("the mutex", "互斥锁")
            };
            out.add(&Text::new(
                format!("On the way out, finally releases {} to {y}, which was waiting: {y} continues in the same turn (a microtask) and sends its SELECT.", what.0),
                format!("离开时 finally 把{}交给一直在等的 {y}：{y} 在同一轮中继续执行（微任务），并发出它的 SELECT。", what.1),
            ));
        }
    }
    out
}

/// Narration of request `r` resuming after `stmt` answered `answer`.
fn resumed(m: &RefundCapModel, b: &RcState, r: u8, stmt: Stmt, answer: Answer) -> Text {
    let x = name(r);
    let (cap, amt) = (b.cap, b.reqs[r as usize].amount);
    match (stmt, answer) {
        (Stmt::Select | Stmt::SelectForUpdate, Answer::Remaining(left)) if left >= amt => {
            let now = cap - b.reserved;
            let mut t = tx!(
                "{x} resumes with the remaining it read: {left} ≥ {amt}, so the check passes.",
                "{x} 带着读到的剩余额度继续：{left} ≥ {amt}，检查通过。"
            );
            if now != left {
                t = t.then(&tx!(
                    "But the row has changed since the read: remaining is {now} now. {x} acts on a stale value.",
                    "但读完之后这一行已经变了：现在只剩 {now}。{x} 依据的是过期的值。"
                ));
            } else if m.variant != RcVariant::SelectForUpdate {
                let others: Vec<&str> = (0..b.reqs.len() as u8)
                    .filter(|&o| o != r && b.reqs[o as usize].seen.is_some() && !matches!(b.reqs[o as usize].pc, Pc::Done(_)))
                    .map(name)
                    .collect();
                if !others.is_empty() {
                    let w = others.join(", ");
                    t = t.then(&tx!(
                        "{w} read the same {left} and has not written yet.",
                        "{w} 读到了同样的 {left}，而且还没有写入。"
                    ));
                }
            }
            t
        }
        (Stmt::Select, Answer::Remaining(left)) => tx!(
            "{x} resumes: {left} < {amt}, so it throws 'insufficient remaining'. It read after the other request's write, so its check is right.",
            "{x} 继续执行：{left} < {amt}，于是抛出 'insufficient remaining'。它是在另一个请求写入之后读的，所以检查是对的。"
        ),
        (Stmt::SelectForUpdate, Answer::Remaining(left)) => tx!(
            "{x} resumes: it waited for the lock, so it read the committed {left} < {amt}. It rolls back and will throw 'insufficient remaining'. {RC}",
            "{x} 继续执行：它等到了锁，读到的是已提交的 {left} < {amt}。它回滚事务，并将抛出 'insufficient remaining'。{RC_ZH}"
        ),
        (Stmt::Begin, _) => tx!("{x}'s transaction is open.", "{x} 的事务已开启。"),
        (Stmt::Update, _) if m.variant == RcVariant::SelectForUpdate => tx!(
            "{x}'s UPDATE is done, inside its transaction.",
            "{x} 的 UPDATE 已在事务内完成。"
        ),
        (Stmt::Update | Stmt::UpdateSet, _) => tx!(
            "{x}'s UPDATE is done: the handler returns 'reserved' and the client is told the refund is approved.",
            "{x} 的 UPDATE 完成：处理函数返回 'reserved'，客户端得知退款已批准。"
        ),
        (Stmt::UpdateIf, Answer::Rows(1)) => tx!(
            "One row changed: {x}'s 80 is reserved, and the handler returns 'reserved'.",
            "改动了一行：{x} 的 80 已预留，处理函数返回 'reserved'。"
        ),
        (Stmt::UpdateIf, _) => tx!(
            "No row changed: {x} tells its client \"insufficient remaining\". Nothing to undo, no lock held in Node.",
            "没有行被改动：{x} 告诉客户端 \"insufficient remaining\"。没有需要撤销的东西，Node 里也没有持有任何锁。"
        ),
        (Stmt::Commit, _) => tx!(
            "{x} is committed: the handler returns 'reserved'.",
            "{x} 已提交：处理函数返回 'reserved'。"
        ),
        (Stmt::Rollback, _) => tx!(
            "{x} rethrows: the client is told \"insufficient remaining\".",
            "{x} 重新抛出错误：客户端得知 \"insufficient remaining\"。"
        ),
        _ => Text::default(),
    }
}
