//! Step narration for leases and fencing: the statement or call a worker made, and what the row,
//! the workers and the provider each hold afterwards.
use super::*;
use crate::sim::{ArrowKind, MarkKind};
use crate::tx;

fn t(en: impl Into<String>, zh: impl Into<String>) -> Text {
    Text::new(en, zh)
}

fn name(w: u8) -> &'static str {
    WORKERS[w as usize]
}

pub(super) fn label(a: LfAct) -> Text {
    match a {
        LfAct::Claim(w) => tx!("Worker {} claims r-7", "Worker {} 领取 r-7", name(w)),
        LfAct::Pause(w) => tx!("Pause worker {} (GC)", "让 worker {} 暂停（GC）", name(w)),
        LfAct::Expire => t("30 s pass: the lease expires", "30 秒过去：租约到期"),
        LfAct::Wake(w) => tx!("Worker {} wakes up", "Worker {} 醒来", name(w)),
        LfAct::Call(w) => tx!("Worker {} sends the refund", "Worker {} 发出退款", name(w)),
        LfAct::Complete(w) => tx!(
            "Worker {} writes COMPLETED",
            "Worker {} 写入 COMPLETED",
            name(w)
        ),
    }
}

pub(super) fn intro(v: LfVariant) -> Text {
    let setting = t(
        "Refund run r-7 (80.00 on ord-1701) is a row in runs. A worker claims it with a 30 s lease, sends the refund to the provider, then writes the run COMPLETED. Worker B takes over a run whose lease has expired.",
        "退款运行 r-7（为 ord-1701 退款 80.00）是 runs 表里的一行。worker 以 30 秒租约领取它，向支付方发出退款，然后把运行写成 COMPLETED。worker B 会接管租约已过期的运行。",
    );
    let what = match v {
        LfVariant::NoFencing => t(
            "Here the final write only names the run. ⚡ Pause A after its claim.",
            "这里最终写入只按运行号更新。A 领取之后 ⚡ 让它暂停。",
        ),
        LfVariant::Fenced => t(
            "Here the final write is fenced: WHERE lease_version matches the worker's. ⚡ Pause A after its claim.",
            "这里最终写入带防护：WHERE lease_version 必须等于 worker 自己的版本。A 领取之后 ⚡ 让它暂停。",
        ),
        LfVariant::FencedWithKey => t(
            "Here the write is fenced and the refund carries the operation's idempotency key, op-r7. Pause either worker anywhere.",
            "这里写入带防护，退款还带上操作的幂等键 op-r7。随便在哪里暂停任一 worker。",
        ),
    };
    setting.then(&what)
}

pub(super) fn describe(m: &LeaseFencingModel, b: &LfState, a: LfAct, s: &LfState) -> StepInfo {
    let mut info = StepInfo::default();
    match a {
        LfAct::Claim(w) => claim(&mut info, b, s, w),
        LfAct::Pause(w) => {
            info.lane = w as usize;
            info.mark(w as usize, MarkKind::Crash, "paused", "暂停");
            info.title = tx!("{} pauses", "{} 暂停", name(w));
            info.narration = tx!(
                "Worker {} stops mid-run — a long garbage collection, a stalled network. It does not know it has stopped; its lease keeps running out.",
                "Worker {} 在运行中停住了——一次漫长的垃圾回收、一次网络卡顿。它自己并不知道；它的租约照样在流逝。",
                name(w)
            );
        }
        LfAct::Expire => {
            info.lane = DB;
            info.mark(DB, MarkKind::Fail, "lease expired", "租约到期");
            info.title = t("the lease expires", "租约到期");
            info.narration = tx!(
                "30 s pass. lease_until is in the past: lease_version {} no longer protects anyone, and another worker may claim r-7.",
                "30 秒过去了。lease_until 已成过去：lease_version {} 不再保护任何人，别的 worker 可以领取 r-7 了。",
                s.version
            );
        }
        LfAct::Wake(w) => {
            info.lane = w as usize;
            info.mark(w as usize, MarkKind::Restart, "wakes", "醒来");
            info.title = tx!("{} wakes up", "{} 醒来", name(w));
            let v = s.workers[w as usize].version;
            info.narration = tx!(
                "Worker {} resumes exactly where it stopped, still holding lease v{v} in memory. Nothing tells it the row has moved on.",
                "Worker {} 从停下的地方继续，内存里仍然握着租约 v{v}。没有任何东西告诉它那一行已经变了。",
                name(w)
            );
        }
        LfAct::Call(w) => call(&mut info, m, b, s, w),
        LfAct::Complete(w) => complete(&mut info, m, b, s, w),
    }
    info
}

fn claim(info: &mut StepInfo, b: &LfState, s: &LfState, w: u8) {
    let (n, v) = (name(w), s.version);
    info.lane = w as usize;
    info.code = Some(format!(
        "UPDATE runs SET holder = '{n}', lease_version = lease_version + 1,\n    lease_until = now() + interval '30 seconds', status = 'RUNNING'\n  WHERE run_id = 'r-7' AND status <> 'COMPLETED'\n    AND (holder IS NULL OR lease_until < now());  -- UPDATE 1"
    ));
    info.arrow(
        w as usize,
        DB,
        Text::same(format!("claim v{v}")),
        ArrowKind::Message,
    );
    info.mark(DB, MarkKind::Commit, &format!("v{v}"), &format!("v{v}"));
    info.title = tx!("{n} claims r-7 (lease v{v})", "{n} 领取 r-7（租约 v{v}）");
    info.narration = match b.holder {
        None => tx!(
            "Worker {n} claims r-7 for 30 s: holder {n}, lease_version {v}.",
            "Worker {n} 领取 r-7，租期 30 秒：holder 为 {n}，lease_version 为 {v}。"
        ),
        Some(h) => tx!(
            "{}'s lease has expired, so worker {n} takes r-7 over: lease_version {v}. As far as the database is concerned, {} no longer works on r-7 — {} does not know that.",
            "{} 的租约已过期，于是 worker {n} 接管 r-7：lease_version {v}。在数据库看来，{} 已经不再处理 r-7——而 {} 自己并不知道。",
            name(h),
            name(h),
            name(h)
        ),
    };
}

fn call(info: &mut StepInfo, m: &LeaseFencingModel, b: &LfState, s: &LfState, w: u8) {
    let n = name(w);
    info.lane = w as usize;
    let keyed = m.variant == LfVariant::FencedWithKey;
    let made = s.refunds.len() > b.refunds.len();
    let re = s.refunds.len();
    let key = if keyed {
        format!("  Idempotency-Key: {OP_KEY}")
    } else {
        String::new()
    };
    let answer = if made {
        format!("200 re_{re}")
    } else {
        "200 re_1 (replayed)".into()
    };
    info.code = Some(format!(
        "POST /v1/refunds  run=r-7 amount=80.00{key}  → {answer}"
    ));
    let kind = if b.calls.is_empty() {
        ArrowKind::Message
    } else {
        ArrowKind::Duplicate
    };
    info.arrow(w as usize, PROVIDER, t("refund 80.00", "退款 80.00"), kind);
    let current = LeaseFencingModel::current(s, w);
    if !made {
        info.mark(PROVIDER, MarkKind::Dedup, "same key", "同一个键");
        info.title = tx!("{n}'s refund: replayed re_1", "{n} 的退款：重放 re_1");
        info.narration = tx!(
            "Worker {n}'s call carries the operation's key {OP_KEY}; the provider has already refunded under it and answers with re_1. No money moves.",
            "Worker {n} 的调用带着操作的键 {OP_KEY}；支付方已经按这个键退过款，直接回 re_1。钱没有再动。"
        );
    } else if re > 1 {
        info.mark(PROVIDER, MarkKind::Duplicate, "second refund", "第二笔退款");
        info.title = tx!(
            "{n}'s refund: re_{re}, a second",
            "{n} 的退款：re_{re}，第二笔"
        );
        info.narration = tx!(
            "Worker {n} sends its refund. The provider has never heard of leases, and the call carries no key: refund re_{re}, a second one for r-7. Whatever the final write does, this cannot be taken back.",
            "Worker {n} 发出退款。支付方从不知道什么租约，而调用也没带键：退款 re_{re}，r-7 的第二笔。无论最后的写入怎样，这一笔都收不回来了。"
        );
    } else {
        info.mark(PROVIDER, MarkKind::Commit, "refunded", "已退款");
        info.title = tx!("{n}'s refund: re_1", "{n} 的退款：re_1");
        let stale = if current {
            Text::default()
        } else {
            t(
                " Its lease is no longer current; the provider cannot know.",
                "它的租约已不是当前的；支付方无从得知。",
            )
        };
        info.narration = tx!(
            "Worker {n} sends the refund: the provider refunds 80.00 (re_1).",
            "Worker {n} 发出退款：支付方退款 80.00（re_1）。"
        )
        .then(&stale);
    }
}

fn complete(info: &mut StepInfo, m: &LeaseFencingModel, b: &LfState, s: &LfState, w: u8) {
    let n = name(w);
    info.lane = w as usize;
    let v = s.workers[w as usize].version;
    let refused = s.workers[w as usize].refused;
    let fence = if m.variant.fenced() {
        format!(" AND lease_version = {v}")
    } else {
        String::new()
    };
    let count = u8::from(!refused);
    info.code = Some(format!(
        "UPDATE runs SET status = 'COMPLETED', completed_by = '{n}'\n  WHERE run_id = 'r-7'{fence};  -- UPDATE {count}"
    ));
    info.arrow(
        w as usize,
        DB,
        t("COMPLETED", "COMPLETED"),
        ArrowKind::Message,
    );
    let stale = s.stale_write && !b.stale_write;
    if refused {
        info.mark(DB, MarkKind::Dedup, "UPDATE 0", "UPDATE 0");
        info.title = tx!("{n}'s write refused: UPDATE 0", "{n} 的写入被拒：UPDATE 0");
        info.narration = tx!(
            "Worker {n} writes with the fence lease_version = {v}, but the row is at {}: UPDATE 0. The database is protected from the stale worker — its refund call, sent before this write, was not.",
            "Worker {n} 带着防护 lease_version = {v} 写入，但那一行已是 {}：UPDATE 0。数据库挡住了过期的 worker——可它在这次写入之前发出的退款调用没被挡住。",
            s.version
        );
    } else if stale {
        info.mark(DB, MarkKind::Duplicate, "overwritten", "被覆盖");
        info.title = tx!("{n} overwrites r-7", "{n} 覆盖了 r-7");
        info.narration = tx!(
            "Worker {n} writes COMPLETED by run id alone: UPDATE 1. Its lease expired long ago and the row belongs to another worker, but nothing in the statement asks.",
            "Worker {n} 只按运行号写入 COMPLETED：UPDATE 1。它的租约早已过期，那一行属于另一个 worker，可语句里没有任何条件去检查。"
        );
    } else {
        info.mark(DB, MarkKind::Commit, "COMPLETED", "COMPLETED");
        info.title = tx!("{n} completes r-7", "{n} 完成 r-7");
        info.narration = tx!(
            "Worker {n} holds the current lease (v{v}) and writes r-7 COMPLETED: UPDATE 1.",
            "Worker {n} 持有当前租约（v{v}），把 r-7 写成 COMPLETED：UPDATE 1。"
        );
    }
}
