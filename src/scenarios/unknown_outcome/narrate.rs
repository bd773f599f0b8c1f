//! Step narration for the refund-timeout drill: the SQL or call that ran, what each side now
//! knows, and what the other side may have done meanwhile.
use super::*;
use crate::tx;

pub(super) fn intro(v: UoVariant) -> Text {
    let setting = Text::new(
        "Order ord-1701 has 100.00 refundable. The customer asks for 80.00 with Idempotency-Key idem-7f3a. The API records a refund operation and reserves the amount; a worker sends the refund to the payment provider with a 5 s timeout.",
        "订单 ord-1701 可退 100.00。客户用 Idempotency-Key idem-7f3a 申请退款 80.00。API 记录一个退款操作并预留金额；Worker 以 5 秒超时把退款发给支付方。",
    );
    let what = match v {
        UoVariant::MarkFailedNewKey => Text::new(
            "This worker treats a timeout as a failure: FAILED, release the reservation, retry under a new key. Inject “Lose the provider's answer” after the provider refunds.",
            "这个 Worker 把超时当作失败：标 FAILED、释放预留、换新键重试。在支付方退款之后注入“丢失支付方的应答”。",
        ),
        UoVariant::UnknownSameKey => Text::new(
            "This worker treats a timeout as UNKNOWN: keep the reservation, retry with the same key, and let the provider's saved result settle it. Run the same drill.",
            "这个 Worker 把超时当作未知：保留预留，用同一个键重试，由支付方保存的结果来定论。做同样的演练。",
        ),
        UoVariant::KeyExpired => Text::new(
            "This worker treats a timeout as UNKNOWN and retries with the same key, but its retry job runs once a day. Stripe keeps a key at least 24 hours, then may prune it. Lose the provider's answer after it refunds, and let the day pass. (Our own side has the same trap: delete refund_operations rows on a short TTL, and a client's retry with idem-7f3a creates a second operation.)",
            "这个 Worker 把超时当作未知并用同一个键重试，但它的重试任务每天只跑一次。Stripe 至少保留一个键 24 小时，之后可能清除。在支付方退款之后让它的应答丢失，再让一天过去。（我们自己这边也有同样的陷阱：若按短 TTL 删除 refund_operations 的行，客户端用 idem-7f3a 重试就会创建第二个操作。）",
        ),
        UoVariant::ReconcileFirst => Text::new(
            "The same daily retry job, but a key older than 24 hours is not trusted: the worker first looks the refund up at the provider (it carries the operation id). Found: settled. None a day later: send again, same key. Cannot tell: a person decides. Never a new key.",
            "同样每天跑一次的重试任务，但超过 24 小时的键不再可信：Worker 先在支付方查这笔退款（退款上带着操作 id）。查到：记为成功。一天后仍没有：用同一个键重发。查不清：交给人工。绝不换新键。",
        ),
        UoVariant::CheckThenInsert => Text::new(
            "The client's request arrives twice at once (a double click, a proxy retry). The API checks for the key with SELECT, then INSERTs.",
            "客户端的请求同时到达两次（双击、代理重试）。API 先用 SELECT 查这个键，再 INSERT。",
        ),
        UoVariant::UniqueConstraint => Text::new(
            "The same request arrives twice at once. The API inserts with ON CONFLICT (idempotency_key) DO NOTHING: the unique index decides.",
            "同一个请求同时到达两次。API 用 ON CONFLICT (idempotency_key) DO NOTHING 插入：由唯一索引来决定。",
        ),
        UoVariant::ChangedParameters => Text::new(
            "The key idem-7f3a arrives again, but asking for 50.00. The API compares the request digest with the stored one.",
            "键 idem-7f3a 又来了，但金额是 50.00。API 把请求摘要和已保存的摘要比较。",
        ),
    };
    setting.then(&what)
}

fn t(en: impl Into<String>, zh: impl Into<String>) -> Text {
    Text::new(en, zh)
}

/// What "the insert hits the unique key" rests on: PostgreSQL's default isolation level.
const RC: &str = "Under READ COMMITTED (PostgreSQL's default) the second INSERT waits for the first transaction to commit and then does nothing; under REPEATABLE READ it fails with 40001 (serialization failure) and the request must be retried.";
const RC_ZH: &str = "在 READ COMMITTED（PostgreSQL 的默认级别）下，第二个 INSERT 会等第一个事务提交，然后什么也不做；在 REPEATABLE READ 下它会以 40001（序列化失败）报错，请求必须重试。";

/// The statements of a request's create, as they run for its outcome: a new operation inserts
/// and reserves; one that finds the key taken reads the stored operation and reserves nothing.
fn create_sql(v: UoVariant, amount: i32, req: ReqPc) -> String {
    let insert = if v == UoVariant::CheckThenInsert {
        "INSERT INTO refund_operations (idempotency_key, amount, status)\n  VALUES ('idem-7f3a', {a}, 'PENDING');"
    } else {
        "INSERT INTO refund_operations (idempotency_key, amount, status)\n  VALUES ('idem-7f3a', {a}, 'PENDING')\n  ON CONFLICT (idempotency_key) DO NOTHING RETURNING operation_id;"
    }
    .replace("{a}", &money(amount));
    let read = "SELECT operation_id, amount, status FROM refund_operations\n  WHERE idempotency_key = 'idem-7f3a';";
    match req {
        // Its earlier SELECT found the operation: it returns it and runs nothing more.
        ReqPc::Done(Reply::Existing(o)) if v == UoVariant::CheckThenInsert => {
            format!("-- the SELECT found {}: no INSERT, nothing reserved", op_id(o))
        }
        ReqPc::Done(Reply::Existing(_)) => {
            format!("BEGIN;\n{insert}   -- 0 rows: the key is taken\n{read}   -- same amount\nCOMMIT;")
        }
        ReqPc::Done(Reply::Conflict) => format!(
            "BEGIN;\n{insert}   -- 0 rows: the key is taken\n{read}   -- another amount\nROLLBACK;   -- 409 Conflict"
        ),
        _ => format!(
            "BEGIN;\n{insert}\nUPDATE orders SET reserved = reserved + {}\n  WHERE order_id = 'ord-1701';\nCOMMIT;",
            money(amount)
        ),
    }
}

/// A definite refusal, recorded as a success is: FAILED and the reservation released in one
/// statement, only while the outcome was open (PROCESSING or UNKNOWN).
fn refuse_sql(o: u8, applied: bool) -> String {
    let id = op_id(o);
    let outcome = if applied { "UPDATE 1" } else { "UPDATE 0" };
    format!(
        "WITH op AS (UPDATE refund_operations SET status = 'FAILED', version = version + 1\n             WHERE operation_id = '{id}' AND status IN ('PROCESSING', 'UNKNOWN')\n            RETURNING amount)\nUPDATE orders SET reserved = reserved - op.amount\n  FROM op WHERE order_id = 'ord-1701';   -- {outcome}: the provider will not refund"
    )
}

/// The naive worker's answer to any error: FAILED, and the reservation released.
fn mark_failed_sql(o: u8) -> String {
    format!(
        "UPDATE refund_operations SET status = 'FAILED', version = version + 1\n  WHERE operation_id = '{}';\nUPDATE orders SET reserved = reserved - 80 WHERE order_id = 'ord-1701';",
        op_id(o)
    )
}

/// The one statement that records a refund's success (the worker's answer or the provider's
/// callback) and moves the money with it: the order's reservation becomes refunded only if the
/// guard matched. The naive handler skips only SUCCEEDED, so it also revives a FAILED
/// operation, whose reservation was released already: it reads the status first (every part of
/// one statement sees the same snapshot). `applied`: the guard matched a row.
fn settle_sql(v: UoVariant, o: u8, applied: bool) -> String {
    let id = op_id(o);
    let outcome = if applied {
        "UPDATE 1"
    } else {
        "UPDATE 0: the operation is already final, nothing moves"
    };
    if v.naive() {
        format!(
            "WITH before AS (SELECT status FROM refund_operations WHERE operation_id = '{id}'),\n     op AS (UPDATE refund_operations SET status = 'SUCCEEDED', version = version + 1\n             WHERE operation_id = '{id}' AND status <> 'SUCCEEDED'\n            RETURNING amount)\nUPDATE orders SET refunded = refunded + op.amount,\n       reserved = reserved - CASE (SELECT status FROM before) WHEN 'FAILED' THEN 0 ELSE op.amount END\n  FROM op WHERE order_id = 'ord-1701';   -- {outcome}"
        )
    } else {
        format!(
            "WITH op AS (UPDATE refund_operations SET status = 'SUCCEEDED', version = version + 1\n             WHERE operation_id = '{id}' AND status IN ('PROCESSING', 'UNKNOWN', 'NEEDS_REVIEW')\n            RETURNING amount)\nUPDATE orders SET refunded = refunded + op.amount, reserved = reserved - op.amount\n  FROM op WHERE order_id = 'ord-1701';   -- {outcome}"
        )
    }
}

pub(super) fn describe(m: &UnknownOutcomeModel, b: &UoState, a: UoAct, s: &UoState) -> StepInfo {
    let mut info = StepInfo {
        lane: API,
        ..StepInfo::default()
    };
    let cx = Cx { m, a, b, s };
    match a {
        UoAct::Check(r) => cx.check(&mut info, r),
        UoAct::Create(r) => cx.create(&mut info, r),
        UoAct::Claim(o) => cx.claim(&mut info, o),
        UoAct::Send => cx.send(&mut info),
        UoAct::Reconcile(o) => cx.reconcile(&mut info, o),
        UoAct::Requeue(o) => cx.requeue(&mut info, o),
        UoAct::Execute => cx.execute(&mut info),
        UoAct::Receive => cx.receive(&mut info),
        UoAct::Timeout | UoAct::SlowTimeout => cx.timeout(&mut info),
        UoAct::Callback | UoAct::CallbackTwice => cx.callback(&mut info),
        UoAct::LoseAnswer => cx.lose_answer(&mut info),
        UoAct::Crash => cx.crash(&mut info),
        UoAct::Restart => cx.restart(&mut info),
        UoAct::DayPasses => cx.day_passes(&mut info),
        UoAct::Lookup(o) => cx.lookup(&mut info, o),
        UoAct::LookupFails(o) => cx.lookup_fails(&mut info, o),
        UoAct::Refuse => cx.execute(&mut info),
        UoAct::ConnectFails => cx.connect_fails(&mut info),
    }
    if a == UoAct::CallbackTwice {
        info.mark(API, MarkKind::Duplicate, "twice", "两次");
    }
    info
}

/// What every step's narration reads: the model and the action between two states.
#[derive(Clone, Copy)]
struct Cx<'a> {
    m: &'a UnknownOutcomeModel,
    a: UoAct,
    b: &'a UoState,
    s: &'a UoState,
}

impl Cx<'_> {
    /// The key operation `o` is sent with after the step.
    fn key(&self, o: u8) -> String {
        self.m.downstream_key(o, self.s.ops[o as usize].attempt)
    }

    fn check(&self, info: &mut StepInfo, r: u8) {
        let Cx { s, .. } = *self;
        let x = req_name(r);
        info.code = Some(
            "SELECT operation_id FROM refund_operations\n  WHERE idempotency_key = 'idem-7f3a';"
                .into(),
        );
        info.arrow(API, DB, "SELECT", ArrowKind::Message);
        info.title = tx!("{x}: SELECT by key", "{x}：按键 SELECT");
        info.narration = match s.reqs[r as usize] {
            ReqPc::Checked(Some(o)) => tx!(
                "{x} looks for the key and finds {}.",
                "{x} 查找这个键，找到了 {}。",
                op_id(o)
            ),
            _ => tx!(
                "{x} looks for idem-7f3a: no operation yet, so it will insert one. Nothing stops the other request from seeing the same.",
                "{x} 查找 idem-7f3a：还没有操作，于是准备插入。没有什么能阻止另一个请求也看到同样的结果。"
            ),
        };
    }

    fn create(&self, info: &mut StepInfo, r: u8) {
        let Cx { m, s, .. } = *self;
        let x = req_name(r);
        let amount = m.variant.requests()[r as usize];
        info.arrow(API, DB, "INSERT", ArrowKind::Message);
        info.code = Some(create_sql(m.variant, amount, s.reqs[r as usize]));
        match s.reqs[r as usize] {
            ReqPc::Done(Reply::Created(o)) => {
                info.title = tx!(
                    "{x}: create {}, reserve {}",
                    "{x}：创建 {}，预留 {}",
                    op_id(o),
                    money(amount)
                );
                info.mark(DB, MarkKind::Commit, "COMMIT", "COMMIT");
                info.narration = if o > 0 {
                    info.mark(DB, MarkKind::Duplicate, "2nd operation", "第二个操作");
                    tx!(
                        "{x} inserts too: its check ran before the first insert. Two operations for one key, 160.00 reserved, and each will be refunded.",
                        "{x} 也插入了：它的检查发生在第一次插入之前。一个键两个操作，预留 160.00，而且每个都会被退款。"
                    )
                } else {
                    tx!(
                        "{x}: the operation {} is PENDING and {} is reserved on the order, in one transaction. The client gets 202.",
                        "{x}：操作 {} 处于 PENDING，订单上预留了 {}，在同一个事务里完成。客户端收到 202。",
                        op_id(o),
                        money(amount)
                    )
                };
            }
            ReqPc::Done(Reply::Existing(o)) => {
                info.title = tx!("{x}: returns {}", "{x}：返回 {}", op_id(o));
                info.narration = if m.variant == UoVariant::CheckThenInsert {
                    info.mark(API, MarkKind::Dedup, "found", "已找到");
                    tx!(
                        "{x}'s SELECT ran after the other request's INSERT and found {}: it returns it and inserts nothing. Check-then-insert goes wrong only when both SELECTs run before either INSERT.",
                        "{x} 的 SELECT 在另一个请求 INSERT 之后执行，找到了 {}：直接返回它，不再插入。先查再插只在两个 SELECT 都先于任何一个 INSERT 时出错。",
                        op_id(o)
                    )
                } else {
                    info.mark(DB, MarkKind::Dedup, "0 rows", "0 行");
                    tx!(
                        "{x}'s insert hits the unique key: 0 rows, and nothing is reserved again. The API returns the existing {} with the same parameters: the same request, the same answer. {RC}",
                        "{x} 的插入撞上唯一键：0 行，也不会再预留一次。API 返回已有的 {}，参数相同：同样的请求，同样的应答。{RC_ZH}",
                        op_id(o)
                    )
                };
            }
            ReqPc::Done(Reply::Conflict) => {
                info.title = tx!("{x}: 409, other parameters", "{x}：409，参数不同");
                info.mark(API, MarkKind::Fail, "409", "409");
                info.narration = tx!(
                    "{x}'s insert hits the unique key. The stored digest is for {}, this request asks for {}: 409 Conflict. The operation is not rewritten; a different refund needs a different key.",
                    "{x} 的插入撞上唯一键。已保存的摘要对应 {}，这次请求是 {}：409 Conflict。操作不会被改写；另一笔退款需要另一个键。",
                    money(AMOUNT),
                    money(amount)
                );
            }
            _ => {}
        }
    }

    fn claim(&self, info: &mut StepInfo, o: u8) {
        info.lane = WORKER;
        info.arrow(WORKER, DB, "UPDATE", ArrowKind::Message);
        info.code = Some(format!(
            "UPDATE refund_operations SET status = 'PROCESSING', version = version + 1\n  WHERE operation_id = '{}' AND status = 'PENDING';",
            op_id(o)
        ));
        info.title = tx!("claim {}", "领取 {}", op_id(o));
        info.narration = tx!(
            "The worker claims {}: PROCESSING.",
            "Worker 领取 {}：PROCESSING。",
            op_id(o)
        );
    }

    fn send(&self, info: &mut StepInfo) {
        let Cx { b, s, .. } = *self;
        info.lane = WORKER;
        let o = b.job.map_or(0, |j| j.0);
        let k = self.key(o);
        info.arrow(WORKER, PSP, &k, ArrowKind::Message);
        info.code = Some(format!(
            "POST /v1/refunds\nIdempotency-Key: {k}\n{{ \"charge\": \"ch_1701\", \"amount\": {},\n  \"metadata\": {{ \"operation_id\": \"{}\" }} }}",
            s.ops[o as usize].amount * 100,
            op_id(o)
        ));
        info.title = tx!("send {k}", "发送 {k}");
        info.narration = tx!(
            "The worker sends the refund with the downstream key {k} and waits up to 5 s.",
            "Worker 用下游键 {k} 发送退款，最多等待 5 秒。"
        );
    }

    fn reconcile(&self, info: &mut StepInfo, o: u8) {
        let Cx { b, s, .. } = *self;
        info.lane = WORKER;
        let k = self.key(o);
        info.arrow(WORKER, PSP, &k, ArrowKind::Duplicate);
        info.code = Some(format!(
            "POST /v1/refunds\nIdempotency-Key: {k}   -- the same key, the same parameters\n{{ \"charge\": \"ch_1701\", \"amount\": {} }}",
            s.ops[o as usize].amount * 100
        ));
        info.title = tx!("retry {k}, same key", "同键重试 {k}");
        let busy = s
            .answers
            .iter()
            .any(|x| x.0 == o && x.2 == Answer::InProgress);
        let pruned = b.ops[o as usize].old_key && s.day_later.is_some();
        info.narration = if pruned {
            info.mark(WORKER, MarkKind::Fail, "key pruned", "键已清除");
            tx!(
                "A day later the retry job retries {} with the same key {k}, as it always does. It cannot know that the provider pruned that key: to the provider this is a new refund request.",
                "一天后，重试任务照常用同一个键 {k} 重试 {}。它无从知道支付方已清除这个键：对支付方来说，这是一笔新的退款请求。",
                op_id(o)
            )
        } else if busy {
            tx!(
                "The worker retries {} with the same key. The provider is still processing the first request with that key: it answers 409 at once rather than running it twice.",
                "Worker 用同一个键重试 {}。支付方仍在处理同键的第一个请求：它立即回 409，而不是再执行一次。",
                op_id(o)
            )
        } else {
            tx!(
                "The outcome of {} is UNKNOWN, so the worker asks again with the same key. If the provider refunded, it replays the saved result; if not, it refunds now: either way, once.",
                "{} 的结果未知，于是 Worker 用同一个键再问一次。支付方若已退款，就重放保存的结果；若没有，现在才退：无论哪种，只有一次。",
                op_id(o)
            )
        };
    }

    fn requeue(&self, info: &mut StepInfo, o: u8) {
        let Cx { s, .. } = *self;
        info.lane = WORKER;
        let k = self.key(o);
        info.code = Some(format!(
            "UPDATE refund_operations SET status = 'PENDING', downstream_key = '{k}',\n       version = version + 1\n  WHERE operation_id = '{}';\nUPDATE orders SET reserved = reserved + {} WHERE order_id = 'ord-1701';",
            op_id(o),
            s.ops[o as usize].amount
        ));
        info.title = tx!("retry with new key {k}", "换新键 {k} 重试");
        info.mark(WORKER, MarkKind::Restart, "new key", "新键");
        info.narration = tx!(
            "The retry job gives {} a new downstream key, {k}, and reserves again. To the provider, {k} is a new refund.",
            "重试任务给 {} 换了一个新的下游键 {k}，并再次预留。对支付方来说，{k} 是一笔新的退款。",
            op_id(o)
        );
    }

    fn execute(&self, info: &mut StepInfo) {
        let Cx { m, b, s, .. } = *self;
        info.lane = PSP;
        let (o, at, _) = b.queue[0];
        let k = m.downstream_key(o, at);
        let replayed = UnknownOutcomeModel::remembered(b, o, at);
        let heard = s.answers.len() > b.answers.len();
        let refused = !replayed && s.disputed;
        if heard {
            info.arrow(
                PSP,
                WORKER,
                if refused { "400" } else { "200" },
                ArrowKind::Message,
            );
        }
        if refused {
            self.refuse(info, &k, heard);
        } else if replayed {
            info.title = tx!("replay {k}", "重放 {k}");
            info.mark(PSP, MarkKind::Dedup, "replayed", "重放");
            info.narration = tx!(
                "The provider has a saved result for {k}: it replays “refund succeeded” without refunding again. It would replay a saved failure just the same, and it keeps a key at least 24 hours (Stripe API v1): a key reused after that is a new request.",
                "支付方已为 {k} 保存了结果：它重放“退款成功”，不会再退一次。保存的若是失败，它同样重放；键至少保留 24 小时（Stripe API v1），过期后再用同一个键就是新请求。"
            );
        } else {
            let n = s.ledger.len();
            info.title = tx!("refund re_{n} ({k})", "退款 re_{n}（{k}）");
            let second = s.ledger.iter().filter(|c| c.0 == o).count() > 1;
            info.marks.push(if second {
                mark(PSP, MarkKind::Duplicate, "2nd refund", "第二笔退款")
            } else {
                mark(PSP, MarkKind::Commit, "refunded", "已退款")
            });
            let forgot = b.ledger.iter().any(|c| c.0 == o && c.1 == at);
            let tail = if forgot {
                tx!(
                    "It refunded under {k} a day ago, but has pruned the key since: nothing says this request is that one.",
                    "一天前它已用 {k} 退过款，但此后清除了这个键：没有任何东西表明这个请求就是那一个。"
                )
            } else if heard {
                t(
                    "It answers the worker and queues a callback.",
                    "它应答 Worker，并排入一个回调。",
                )
            } else {
                t(
                    "Nobody is waiting for this answer any more: the worker gave up on it. The money has moved all the same.",
                    "已经没有人在等这个应答了：Worker 早已放弃。但钱照样退出去了。",
                )
            };
            info.narration = tx!(
                "The provider executes refund re_{n} of {} under the key {k}.",
                "支付方以键 {k} 执行退款 re_{n}，金额 {}。",
                money(b.queue[0].2)
            )
            .then(&tail);
        }
    }

    fn receive(&self, info: &mut StepInfo) {
        let Cx { m, b, s, .. } = *self;
        info.lane = WORKER;
        let o = b.job.map_or(0, |j| j.0);
        let answer = b.answers.iter().find(|x| x.0 == o).map(|x| x.2);
        if answer == Some(Answer::Refused) {
            info.arrow(WORKER, DB, "UPDATE", ArrowKind::Message);
            info.code = Some(refuse_sql(o, s.reserved < b.reserved));
            info.title = tx!("400 → {} FAILED", "400 → {} FAILED", op_id(o));
            info.mark(DB, MarkKind::Rollback, "released", "已释放");
            info.narration = tx!(
                "A 400 is a definite answer: the provider will not refund this charge, now or on a retry. {} is FAILED and its reservation released, safely, because nothing can still happen.",
                "400 是确定的答复：支付方不会为这笔扣款退款，现在不会，重试也不会。{} 标为 FAILED 并释放预留，这是安全的，因为不会再发生任何事。",
                op_id(o)
            );
        } else if answer == Some(Answer::InProgress) {
            info.title = t("409: still in progress", "409：仍在处理");
            info.narration = tx!(
                "409: the provider is still working on the first request. {} stays UNKNOWN with its reservation; the worker will ask again.",
                "409：支付方还在处理第一个请求。{} 保持 UNKNOWN，预留不动；Worker 稍后再问。",
                op_id(o)
            );
        } else {
            info.arrow(WORKER, DB, "UPDATE", ArrowKind::Message);
            info.code = Some(settle_sql(m.variant, o, s.refunded > b.refunded));
            if s.refunded == b.refunded {
                info.title = t("answer: already settled", "应答：已有终态");
                info.mark(DB, MarkKind::Dedup, "0 rows", "0 行");
                info.narration = tx!(
                    "The worker records the answer, but the callback got there first: {} is already SUCCEEDED and the guarded UPDATE matches 0 rows.",
                    "Worker 记录应答，但回调先到了：{} 已是 SUCCEEDED，带条件的 UPDATE 匹配 0 行。",
                    op_id(o)
                );
                return;
            }
            info.title = tx!("{} SUCCEEDED", "{} 成功", op_id(o));
            info.mark(DB, MarkKind::Commit, "SUCCEEDED", "SUCCEEDED");
            info.narration = tx!(
                "The worker records the provider's answer: {} SUCCEEDED, the reservation becomes a refund.",
                "Worker 记下支付方的应答：{} 成功，预留转为已退款。",
                op_id(o)
            );
        }
    }

    fn timeout(&self, info: &mut StepInfo) {
        let Cx { m, a, b, .. } = *self;
        info.lane = WORKER;
        let o = b.job.map_or(0, |j| j.0);
        info.mark(WORKER, MarkKind::Fail, "timeout", "超时");
        let cause = if a == UoAct::SlowTimeout {
            t(
                "The provider is slow: 5 s pass with the request still in its queue. It will execute it later.",
                "支付方太慢：5 秒过去了，请求还在它的队列里。它稍后仍会执行。",
            )
        } else {
            t(
                "No answer within 5 s: the provider's answer was lost on the way.",
                "5 秒内没有应答：支付方的应答在路上丢了。",
            )
        };
        info.arrow(WORKER, DB, "UPDATE", ArrowKind::Message);
        if m.variant.naive() {
            info.code = Some(mark_failed_sql(o));
            info.title = tx!("timeout → {} FAILED", "超时 → {} FAILED", op_id(o));
            info.mark(DB, MarkKind::Rollback, "released", "已释放");
            info.narration = cause.then(&tx!(
                "The worker marks {} FAILED and releases the 80.00 reservation, as if nothing had happened. It does not know that.",
                "Worker 把 {} 标为 FAILED，释放 80.00 的预留，仿佛什么都没发生。可它并不知道。",
                op_id(o)
            ));
        } else {
            info.code = Some(format!(
                "UPDATE refund_operations SET status = 'UNKNOWN', version = version + 1\n  WHERE operation_id = '{}';   -- the reservation stays",
                op_id(o)
            ));
            info.title = tx!("timeout → {} UNKNOWN", "超时 → {} UNKNOWN", op_id(o));
            let late = if m.variant.late() {
                t(
                    "Its retry job runs once a day.",
                    "它的重试任务每天只跑一次。",
                )
            } else {
                Text::default()
            };
            let unknown = tx!(
                "A timeout is not a failure: {} becomes UNKNOWN and keeps its 80.00 reserved until the provider says what happened.",
                "超时不是失败：{} 变为 UNKNOWN，保留 80.00 的预留，直到支付方说明发生了什么。",
                op_id(o)
            );
            info.narration = cause.then(&unknown.then(&late));
        }
    }

    fn callback(&self, info: &mut StepInfo) {
        let Cx { m, a, b, s } = *self;
        let o = b.callbacks[0];
        info.arrow(PSP, API, t("callback", "回调"), ArrowKind::Message);
        let applied = s.refunded > b.refunded;
        info.code = Some(settle_sql(m.variant, o, applied));
        let twice = if a == UoAct::CallbackTwice {
            t(
                "The provider delivers the callback, and will deliver it again. ",
                "支付方投递了回调，而且还会再投一次。",
            )
        } else {
            Text::default()
        };
        info.title = tx!("callback for {}", "{} 的回调", op_id(o));
        info.narration = if applied {
            let was = b.ops[o as usize].status;
            if matches!(was, Status::Failed | Status::Pending) {
                info.mark(API, MarkKind::Duplicate, "revived", "复活");
                twice.then(&tx!(
                    "The late callback finds {} {}: the handler only skips SUCCEEDED, so it marks it SUCCEEDED and adds 80.00 to refunded, on top of whatever the retry does.",
                    "迟到的回调发现 {} 是 {}：处理函数只跳过 SUCCEEDED，于是把它标为 SUCCEEDED 并给已退金额加 80.00，重试做的事还要另算。",
                    op_id(o),
                    was.sql()
                ))
            } else if was == Status::Review {
                twice.then(&tx!(
                    "The provider's callback reports the refund of {}: the evidence the review was waiting for. SUCCEEDED, the reservation becomes a refund, and on-call has nothing left to decide.",
                    "支付方的回调报告了 {} 的退款：正是人工复核在等的证据。成功，预留转为已退款，值班人员无需再决定什么。",
                    op_id(o)
                ))
            } else {
                twice.then(&tx!(
                    "The callback arrives before the worker heard back: {} SUCCEEDED, the reservation becomes a refund.",
                    "回调比 Worker 先到：{} 成功，预留转为已退款。",
                    op_id(o)
                ))
            }
        } else {
            info.mark(API, MarkKind::Dedup, "0 rows", "0 行");
            twice.then(&tx!(
                "{} is already settled: the guarded UPDATE matches 0 rows, and a late or repeated callback changes nothing.",
                "{} 已是终态：带条件的 UPDATE 匹配 0 行，迟到或重复的回调什么都不改变。",
                op_id(o)
            ))
        };
    }

    fn lose_answer(&self, info: &mut StepInfo) {
        info.lane = PSP;
        info.arrow(PSP, WORKER, "200", ArrowKind::Lost);
        info.title = t("answer lost", "应答丢失");
        info.mark(PSP, MarkKind::Fail, "lost", "丢失");
        info.narration = t(
            "The provider's “refund succeeded” never reaches the worker. The money has moved; the worker will only see a timeout.",
            "支付方的“退款成功”没能到达 Worker。钱已经退了；Worker 只会看到一次超时。",
        );
    }

    fn crash(&self, info: &mut StepInfo) {
        info.lane = WORKER;
        info.title = t("worker crashes", "Worker 崩溃");
        info.mark(WORKER, MarkKind::Crash, "crash", "崩溃");
        info.narration = t(
            "The worker crashes after sending and before saving the answer. Its memory, and any answer on its way, is gone; the operation is left PROCESSING.",
            "Worker 在发送之后、保存应答之前崩溃。它的内存连同路上的应答都没了；操作停留在 PROCESSING。",
        );
    }

    fn restart(&self, info: &mut StepInfo) {
        let Cx { m, .. } = *self;
        info.lane = WORKER;
        info.title = t("worker restarts", "Worker 重启");
        info.mark(WORKER, MarkKind::Restart, "restart", "重启");
        info.narration = if m.variant.naive() {
            t(
                "The worker restarts and recovers: an operation left PROCESSING is assumed to have failed — FAILED, reservation released.",
                "Worker 重启并恢复：停留在 PROCESSING 的操作被当作失败——FAILED，释放预留。",
            )
        } else {
            t(
                "The worker restarts and recovers: an operation left PROCESSING may or may not have been refunded — UNKNOWN, reservation kept.",
                "Worker 重启并恢复：停留在 PROCESSING 的操作可能已经退款，也可能没有——UNKNOWN，保留预留。",
            )
        };
    }
}

/// The steps of the key's lifetime and of the two definite outcomes (never sent, refused).
impl Cx<'_> {
    /// The provider's step when it refuses: nothing moves; its saved result is the refusal.
    fn refuse(&self, info: &mut StepInfo, k: &str, heard: bool) {
        info.title = tx!("400 for {k}: charge disputed", "{k} 得到 400：扣款有争议");
        info.mark(PSP, MarkKind::Fail, "400", "400");
        let tail = if heard {
            t("It answers the worker.", "它把答复发给 Worker。")
        } else {
            t(
                "Nobody is waiting for this answer any more.",
                "已经没有人在等这个答复了。",
            )
        };
        info.narration = tx!(
            "The provider refuses the refund under {k}: the charge is disputed (400). No money moves, and it saves the refusal under the key: a retry gets the same answer.",
            "支付方拒绝了 {k} 的退款：扣款有争议（400）。钱没有动，它把拒绝保存在这个键下：重试也会得到同样的答复。"
        )
        .then(&tail);
    }

    fn connect_fails(&self, info: &mut StepInfo) {
        let Cx { m, b, .. } = *self;
        info.lane = WORKER;
        let o = b.job.map_or(0, |j| j.0);
        let id = op_id(o);
        info.arrow(WORKER, PSP, t("connect", "连接"), ArrowKind::Lost);
        info.mark(WORKER, MarkKind::Fail, "never sent", "没发出去");
        info.title = tx!("{id}: connection refused", "{id}：连接被拒");
        let cause = t(
            "The connection to the provider is refused: not one byte of the request left. This is the one failure that proves nothing happened.",
            "到支付方的连接被拒：请求一个字节都没发出去。只有这种失败能证明什么都没发生。",
        );
        info.arrow(WORKER, DB, "UPDATE", ArrowKind::Message);
        if m.variant.naive() {
            info.code = Some(mark_failed_sql(o));
            info.narration = cause.then(&tx!(
                "The worker marks {id} FAILED and releases the reservation, as it does for any error; this time it happens to be right.",
                "Worker 像对待任何错误一样把 {id} 标为 FAILED 并释放预留；这一次恰好是对的。"
            ));
        } else {
            info.code = Some(format!("UPDATE refund_operations SET status = 'PENDING', version = version + 1\n  WHERE operation_id = '{id}' AND status = 'PROCESSING';   -- never sent: send again"));
            info.narration = cause.then(&tx!(
                "{id} goes back to PENDING with its reservation and its key: sending it again is safe.",
                "{id} 带着预留和原来的键回到 PENDING：再发一次是安全的。"
            ));
        }
    }

    fn day_passes(&self, info: &mut StepInfo) {
        let Cx { s, .. } = *self;
        info.lane = PSP;
        info.title = t("a day later", "一天以后");
        info.mark(PSP, MarkKind::Restart, "keys pruned", "键已清除");
        let pending = if s.callbacks.is_empty() {
            Text::default()
        } else {
            t(
                "Its callback to us has not got through yet (providers retry a failed webhook for days).",
                "它的回调还没送达（支付方会在几天内重试失败的 webhook）。",
            )
        };
        info.narration = tx!(
            "The retry job runs the next day. Stripe keeps an idempotency key at least {KEY_HOURS} hours and may prune it after that (Stripe API v1): the provider no longer remembers what it did under op-1, though the refund itself stays in its ledger.",
            "重试任务第二天才运行。Stripe 至少保留幂等键 {KEY_HOURS} 小时，之后可能清除（Stripe API v1）：支付方已不记得在 op-1 这个键下做过什么，但退款本身仍在它的账本里。"
        )
        .then(&pending);
    }

    /// The lookup's request, and what the worker makes of its answer.
    fn lookup(&self, info: &mut StepInfo, o: u8) {
        let Cx { m, b, s, .. } = *self;
        info.lane = WORKER;
        let id = op_id(o);
        info.arrow(
            WORKER,
            PSP,
            t("GET refunds", "GET refunds"),
            ArrowKind::Message,
        );
        info.arrow(WORKER, DB, "UPDATE", ArrowKind::Message);
        let get = format!(
            "GET /v1/refunds?charge=ch_1701\n-- a refund whose metadata.operation_id is {id}?"
        );
        info.title = tx!("look {id} up", "查询 {id}");
        if s.ops[o as usize].status == Status::Succeeded {
            let n = (b.ledger.iter())
                .position(|c| c.0 == o)
                .map_or(0, |i| i + 1);
            info.code = Some(format!(
                "{get}   -- re_{n}\n{}",
                settle_sql(m.variant, o, s.refunded > b.refunded)
            ));
            info.mark(DB, MarkKind::Commit, "SUCCEEDED", "SUCCEEDED");
            info.narration = tx!(
                "The key is over {KEY_HOURS} hours old, so the worker does not resend under it: it lists the charge's refunds and finds re_{n} carrying {id}. {id} SUCCEEDED, the reservation becomes a refund, and nothing is sent.",
                "这个键已超过 {KEY_HOURS} 小时，Worker 不再用它重发：它列出这笔扣款的退款，找到带着 {id} 的 re_{n}。{id} 成功，预留转为已退款，什么都不再发送。"
            );
        } else {
            info.code = Some(format!("{get}   -- none\nUPDATE refund_operations SET status = 'PENDING', version = version + 1\n  WHERE operation_id = '{id}' AND status = 'UNKNOWN';   -- send again, same key"));
            info.narration = tx!(
                "The charge has no refund carrying {id}, a day after the send: the provider has executed or dropped everything it received by now, so it never ran. {id} goes back to PENDING, reservation kept, to be sent again under the same key.",
                "一天过去了，这笔扣款仍没有带着 {id} 的退款：支付方早已执行或丢弃了收到的一切，所以它从未执行。{id} 回到 PENDING，保留预留，用同一个键再发一次。"
            );
        }
    }

    fn lookup_fails(&self, info: &mut StepInfo, o: u8) {
        info.lane = WORKER;
        let id = op_id(o);
        info.arrow(
            WORKER,
            PSP,
            t("GET refunds", "GET refunds"),
            ArrowKind::Lost,
        );
        info.arrow(WORKER, DB, "UPDATE", ArrowKind::Message);
        info.mark(WORKER, MarkKind::Fail, "503", "503");
        info.title = tx!("{id}: inconclusive → a person", "{id}：无法确认 → 人工");
        info.code = Some(format!("GET /v1/refunds?charge=ch_1701   -- 503, and 503 again\nUPDATE refund_operations SET status = 'NEEDS_REVIEW', version = version + 1\n  WHERE operation_id = '{id}' AND status = 'UNKNOWN';   -- the reservation stays"));
        info.narration = tx!(
            "The lookup answers 503: the worker still cannot tell whether {id} was refunded, and its key has expired. It does not mint a new key to try its luck: {id} is NEEDS_REVIEW, the 80.00 stays reserved, and payments on-call is paged to reconcile it by hand.",
            "查询返回 503：Worker 仍无法判断 {id} 是否已退款，而它的键已经过期。它不会生成新键去碰运气：{id} 标为 NEEDS_REVIEW，80.00 继续预留，并呼叫支付值班人员人工对账。"
        );
    }
}
