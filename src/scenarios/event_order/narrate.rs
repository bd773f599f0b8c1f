//! Step narration for events out of order: the delivery, the statement the consumer ran for it,
//! and what the row says against the provider.
use super::*;
use crate::sim::{ArrowKind, MarkKind};
use crate::tx;

fn t(en: impl Into<String>, zh: impl Into<String>) -> Text {
    Text::new(en, zh)
}

pub(super) fn label(a: EoAct) -> Text {
    match a {
        EoAct::Deliver(e) => {
            let ev = &EVENTS[e as usize];
            tx!("Deliver {} (v{})", "投递 {}（v{}）", ev.kind, ev.version)
        }
        EoAct::Redeliver(e) => {
            let ev = &EVENTS[e as usize];
            tx!(
                "Deliver {} (v{}) again",
                "再次投递 {}（v{}）",
                ev.kind,
                ev.version
            )
        }
    }
}

pub(super) fn intro(v: EoVariant) -> Text {
    let setting = t(
        "Payment pay-1701 (100.00 on ord-1701) is a row we keep from the provider's webhooks. The provider has already moved it: processing (v2), succeeded (v3: 100.00 paid), refunded (v4: 80.00 refunded). The three events reach us in any order you choose.",
        "支付 pay-1701（ord-1701 的 100.00）是我们按支付方 webhook 维护的一行。支付方那边已经走完了：processing（v2）、succeeded（v3：已付 100.00）、refunded（v4：已退 80.00）。三个事件以你选择的任意顺序到达。",
    );
    let what = match v {
        EoVariant::LastWriteWins => t(
            "This consumer applies every event as it arrives.",
            "这个消费者对每个事件都是一到就应用。",
        ),
        EoVariant::VersionGuard => t(
            "This consumer applies an event only if its version is newer than the row's.",
            "这个消费者只应用版本比当前行更新的事件。",
        ),
        EoVariant::StateMachine => t(
            "This consumer applies only the next version, drops what is already reflected, and looks the payment up at the provider on a gap.",
            "这个消费者只应用下一个版本，丢弃已反映的事件，遇到缺口就向支付方补查。",
        ),
    };
    setting.then(&what)
}

pub(super) fn describe(m: &EventOrderModel, b: &EoState, a: EoAct, s: &EoState) -> StepInfo {
    let mut info = StepInfo {
        lane: CONSUMER,
        ..StepInfo::default()
    };
    let (EoAct::Deliver(e) | EoAct::Redeliver(e)) = a;
    let ev = &EVENTS[e as usize];
    let again = matches!(a, EoAct::Redeliver(_));
    let Some(&(_, out)) = s.log.last() else {
        return info;
    };
    let kind = if again {
        ArrowKind::Duplicate
    } else {
        ArrowKind::Message
    };
    info.arrow(
        PROVIDER,
        CONSUMER,
        Text::same(format!("v{}", ev.version)),
        kind,
    );
    info.code = Some(listing(m, b, e, out));
    let v = ev.version;
    match out {
        Outcome::Applied => {
            let bad = s.regressed && !b.regressed || s.paid > TRUTH.2 || s.refunded > TRUTH.3;
            let mark = if bad {
                MarkKind::Duplicate
            } else {
                MarkKind::Commit
            };
            info.mark(DB, mark, status_word(s.status), status_word(s.status));
            info.title = tx!("v{v} applied: {}", "v{v} 已应用：{}", status_word(s.status));
        }
        Outcome::Dropped => {
            info.mark(DB, MarkKind::Dedup, "dropped", "已丢弃");
            info.title = tx!("v{v} dropped", "v{v} 已丢弃");
        }
        Outcome::LookedUp => {
            info.arrow(CONSUMER, PROVIDER, t("look up", "补查"), ArrowKind::Message);
            info.mark(
                DB,
                MarkKind::Commit,
                "v4 from the provider",
                "按支付方更新到 v4",
            );
            info.title = tx!("gap at v{v}: looked up", "v{v} 出现缺口：已补查");
        }
    }
    info.narration = story(m, b, s, e, out, again);
    info
}

/// The statement the consumer ran for event `e` (and, on a gap, the lookup).
fn listing(m: &EventOrderModel, b: &EoState, e: u8, out: Outcome) -> String {
    let ev = &EVENTS[e as usize];
    let (v, st) = (ev.version, status_word(ev.status));
    let head = format!(
        "POST /webhooks  {{\"type\": \"{}\", \"version\": {v}}}",
        ev.kind
    );
    let mut set = format!("status = '{st}', version = {v}");
    if ev.paid > 0 {
        set += &format!(", paid = paid + {}", money(ev.paid));
    }
    if ev.refunded > 0 {
        set += &format!(", refunded = refunded + {}", money(ev.refunded));
    }
    let guard = match m.variant {
        EoVariant::LastWriteWins => String::new(),
        EoVariant::VersionGuard => format!(" AND version < {v}"),
        EoVariant::StateMachine => format!(" AND version = {}", v - 1),
    };
    let count = u8::from(out == Outcome::Applied);
    let update = format!(
        "UPDATE payments SET {set}\n  WHERE payment_id = 'pay-1701'{guard};  -- UPDATE {count}"
    );
    if m.variant != EoVariant::StateMachine || out == Outcome::Applied {
        return format!("{head}\n{update}");
    }
    let read = format!(
        "SELECT version FROM payments WHERE payment_id = 'pay-1701';  -- 1 row: {}",
        b.version
    );
    if out == Outcome::Dropped {
        return format!("{head}\n{update}\n{read}\n-- v{v} is already reflected: drop it");
    }
    format!(
        "{head}\n{update}\n{read}\nGET /v1/payments/pay-1701  → REFUNDED, paid 100.00, refunded 80.00, version 4\nUPDATE payments SET status = 'REFUNDED', version = 4, paid = 100.00, refunded = 80.00\n  WHERE payment_id = 'pay-1701' AND version = {};  -- UPDATE 1",
        b.version
    )
}

fn story(m: &EventOrderModel, b: &EoState, s: &EoState, e: u8, out: Outcome, again: bool) -> Text {
    let ev = &EVENTS[e as usize];
    let v = ev.version;
    let (paid, refunded) = (money(s.paid), money(s.refunded));
    match out {
        Outcome::Applied if s.regressed && !b.regressed => tx!(
            "{} (v{v}) arrives late and is applied as it is: pay-1701 goes back from {} to {}. The row now says the opposite of what the provider knows.",
            "{}（v{v}）晚到了，却被原样应用：pay-1701 从 {} 退回到 {}。这一行现在说的和支付方知道的正相反。",
            ev.kind,
            status_word(b.status),
            status_word(s.status)
        ),
        Outcome::Applied if again => tx!(
            "{} (v{v}) arrives a second time and is applied a second time: our books now say {paid} paid and {refunded} refunded.",
            "{}（v{v}）第二次到达，又被应用了一次：我们的账上变成已付 {paid}、已退 {refunded}。",
            ev.kind
        ),
        Outcome::Applied if m.variant == EoVariant::VersionGuard && v > b.version + 1 => tx!(
            "{} (v{v}) is newer than the row's v{}, so the guard applies it — over a gap: v{} and anything it carried have not arrived, and once they do they will look old.",
            "{}（v{v}）比当前行的 v{} 新，于是版本校验应用了它——跨过了一个缺口：v{} 及其携带的内容还没到，等它们到了就会显得“旧”了。",
            ev.kind,
            b.version,
            b.version + 1
        ),
        Outcome::Applied => tx!(
            "{} (v{v}) is applied: pay-1701 is {}, {paid} paid, {refunded} refunded.",
            "{}（v{v}）已应用：pay-1701 为 {}，已付 {paid}，已退 {refunded}。",
            ev.kind,
            status_word(s.status)
        ),
        Outcome::Dropped
            if m.variant == EoVariant::VersionGuard && EVENTS[e as usize].paid > s.paid =>
        {
            tx!(
                "{} (v{v}) is older than the row's v{}, so the guard drops it — and with it the 100.00 paid it carried, which the row never recorded.",
                "{}（v{v}）比当前行的 v{} 旧，于是版本校验丢弃了它——连同它携带的、这一行从未记下的已付 100.00。",
                ev.kind,
                s.version
            )
        }
        Outcome::Dropped => tx!(
            "{} (v{v}) is already reflected in the row (v{}): dropped, and nothing is counted again.",
            "{}（v{v}）已经反映在这一行里（v{}）：丢弃，什么也不会重复记。",
            ev.kind,
            s.version
        ),
        Outcome::LookedUp => tx!(
            "{} (v{v}) is not the next version after v{}: something is missing. Instead of trusting the order of arrival, the consumer asks the provider for pay-1701's state and records it: REFUNDED, 100.00 paid, 80.00 refunded, v4. The missing events will find themselves reflected.",
            "{}（v{v}）不是 v{} 的下一个版本：中间缺了东西。消费者不相信到达顺序，而是向支付方查询 pay-1701 的状态并记下：REFUNDED，已付 100.00，已退 80.00，v4。缺的事件到了会发现自己已被反映。",
            ev.kind,
            b.version
        ),
    }
}
