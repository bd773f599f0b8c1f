//! Step narration for the dead-letter scenario: what the consumer did with the head message,
//! the statement or call that ran, and what the partition, the records and the provider hold.
use super::view::{parked_word, reason_word};
use super::*;
use crate::sim::{ArrowKind, MarkKind};
use crate::tx;

fn t(en: impl Into<String>, zh: impl Into<String>) -> Text {
    Text::new(en, zh)
}

pub(super) fn intro(v: DlVariant) -> Text {
    let setting = t(
        "A payment consumer reads partition payments-0 in order: m-1 charges ord-1701, m-2 charges ord-1702 in schema v3, which this consumer cannot read, and m-3 charges ord-1703. The provider may answer 503 for a while.",
        "支付消费者按顺序读取分区 payments-0：m-1 为 ord-1701 扣款，m-2 为 ord-1702 扣款但用的是这个消费者读不懂的 schema v3，m-3 为 ord-1703 扣款。支付方可能有一阵子回 503。",
    );
    let what = match v {
        DlVariant::RetryForever => t(
            "This consumer retries every error in place, every second, for ever. Let it run.",
            "这个消费者对任何错误都原地每秒重试，永不放弃。让它跑起来。",
        ),
        DlVariant::LogAndDrop => t(
            "This consumer retries only a 503, three attempts at most; when it gives up, it logs the error and acknowledges the message.",
            "这个消费者只重试 503，最多三次；放弃时记一行错误日志，然后确认消息。",
        ),
        DlVariant::DeadLetter => t(
            "This consumer retries only a 503, with backoff and jitter, three attempts at most, the first included; when it gives up, it parks the message in dead_letters with its reason, attempts and owner, and only then acknowledges it. Try ⚡ 503s.",
            "这个消费者只重试 503，退避加抖动，最多三次（含首次）；放弃时先把消息连同原因、次数和负责人写入 dead_letters，再确认它。试试 ⚡ 503。",
        ),
        DlVariant::BlindReplay => t(
            "This consumer parks what it gives up on. After the partition drains, the team deploys a v3 reader and an operator replays m-2 as it was. Try ⚡ cancelling ord-1702 first.",
            "这个消费者会停放放弃的消息。分区排空后，团队部署了 v3 读取器，运维把 m-2 原样重放。试试先 ⚡ 取消 ord-1702。",
        ),
        DlVariant::CheckedReplay => t(
            "As before, but a replayed command first locks and re-reads its order and the order's payments, and refuses if the order is cancelled or already paid. Try every ⚡.",
            "同上，但重放的命令会先锁定并重读订单及其支付记录，订单已取消或已支付就拒绝执行。把每种 ⚡ 都试一试。",
        ),
    };
    setting.then(&what)
}

pub(super) fn describe(m: &DeadLetterModel, b: &DlState, a: DlAct, s: &DlState) -> StepInfo {
    let mut info = StepInfo {
        lane: CONSUMER,
        ..StepInfo::default()
    };
    match a {
        DlAct::Handle | DlAct::Unavailable => {
            let Some(h) = b.head().map(|h| Msg {
                attempts: h.attempts + 1,
                ..*h
            }) else {
                return info;
            };
            let cx = Cx {
                m,
                b,
                s,
                h,
                name: h.name(),
            };
            cx.attempt(&mut info, a == DlAct::Unavailable);
        }
        DlAct::Replay(of) | DlAct::ReplayAgain(of) => replay(&mut info, m, s, of, a),
        DlAct::Cancel(of) => cancel(&mut info, of),
    }
    info
}

/// One attempt at the head message: the states around it and the message as attempted.
struct Cx<'a> {
    m: &'a DeadLetterModel,
    b: &'a DlState,
    s: &'a DlState,
    h: Msg,
    name: String,
}

impl Cx<'_> {
    fn attempt(&self, info: &mut StepInfo, unavailable: bool) {
        let Cx { b, s, h, .. } = self;
        let waited = h.next_at.saturating_sub(b.clock);
        let retried = s
            .head()
            .is_some_and(|x| x.of == h.of && x.replay == h.replay);
        if retried {
            self.retry(info, unavailable);
        } else if s.dead.len() > b.dead.len() {
            self.park(info, unavailable);
        } else if s.dropped.len() > b.dropped.len() {
            self.drop(info, unavailable);
        } else if s.refused.len() > b.refused.len() {
            self.refuse(info);
        } else {
            self.charge(info);
        }
        if waited > 0 {
            let w = secs(waited);
            let note = tx!(
                "(It waited {w} before this attempt.)",
                "（这次尝试前等了 {w}。）"
            );
            info.narration = info.narration.clone().then(&note);
        }
    }

    /// What the failed attempt called, and its answer.
    fn failed_call(&self, unavailable: bool) -> String {
        let Cx { h, name, .. } = self;
        if unavailable {
            format!(
                "POST /v1/charges  order={}  → 503 Service Unavailable",
                h.order()
            )
        } else {
            format!("parse({name})  → error: unknown schema version 3")
        }
    }

    fn retry(&self, info: &mut StepInfo, unavailable: bool) {
        let Cx { m, s, h, name, .. } = self;
        let Some(next) = s.head() else { return };
        let wait = secs(next.next_at - s.clock);
        info.code = Some(format!(
            "{}\nretry {name} in {wait}",
            self.failed_call(unavailable)
        ));
        self.fail_marks(info, unavailable);
        info.title = tx!(
            "{name} fails (attempt {}): retry in {wait}",
            "{name} 失败（第 {} 次）：{wait} 后重试",
            h.attempts
        );
        info.narration = if !unavailable {
            let behind = s.queue.len() - 1;
            let end = if h.attempts >= WATCHED {
                t(
                    " The run stops watching here; the consumer would go on for ever.",
                    "演示到此为止；消费者会永远这样下去。",
                )
            } else {
                Text::default()
            };
            tx!(
                "The consumer cannot read schema v3, and retrying will not teach it: attempt {} fails like the first. A partition is read in order, so the {behind} message(s) behind {name} wait.",
                "消费者读不懂 schema v3，重试也学不会：第 {} 次和第一次一样失败。分区按顺序读取，{name} 后面的 {behind} 条消息只能等着。",
                h.attempts
            )
            .then(&end)
        } else if m.variant.bounded() {
            let base = 1u16 << (h.attempts - 1);
            tx!(
                "A 503 may pass, so the consumer retries — after {wait}: {base} s doubled per attempt, plus jitter so that consumers that failed together do not retry together. Attempt {} of {MAX_ATTEMPTS}, the first included.",
                "503 可能会过去，所以消费者重试——等 {wait}：每次尝试翻倍的 {base} 秒，再加随机抖动，免得一起失败的消费者一起重试。这是第 {} 次，共 {MAX_ATTEMPTS} 次（含首次）。",
                h.attempts
            )
        } else {
            tx!(
                "The provider is overloaded, and this consumer retries every second with no limit: attempt {} adds to the load. With many consumers doing the same, a 503 burst becomes a storm of calls.",
                "支付方已经过载，这个消费者还每秒重试、没有上限：第 {} 次尝试又加了一份压力。许多消费者都这样做时，一阵 503 就变成调用风暴。",
                h.attempts
            )
        };
    }

    fn fail_marks(&self, info: &mut StepInfo, unavailable: bool) {
        if unavailable {
            let label = tx!("charge {}", "扣款 {}", self.h.order());
            info.arrow(CONSUMER, PROVIDER, label, ArrowKind::Message);
            info.mark(PROVIDER, MarkKind::Fail, "503", "503");
        } else {
            info.mark(CONSUMER, MarkKind::Fail, "unreadable", "读不懂");
        }
    }

    fn park(&self, info: &mut StepInfo, unavailable: bool) {
        let Cx { s, h, name, .. } = self;
        let Some(d) = s.dead.last() else { return };
        let (o, reason, n) = (h.order(), reason_word(d.reason), h.attempts);
        info.code = Some(format!(
            "{}\nBEGIN;\nINSERT INTO dead_letters (message_id, order_id, reason, attempts, owner, status, replays)\n  VALUES ('{name}', '{o}', '{reason}', {n}, 'payments-oncall', 'PARKED', 0);\nCOMMIT;\nack {name}",
            self.failed_call(unavailable)
        ));
        self.fail_marks(info, unavailable);
        info.arrow(CONSUMER, DB, t("dead letter", "死信"), ArrowKind::Message);
        info.mark(DB, MarkKind::Commit, "parked", "已停放");
        info.title = tx!("{name} parked: {reason}", "{name} 停放：{reason}");
        let why = if unavailable {
            tx!(
                "Attempt {n} of {MAX_ATTEMPTS} meets a 503 too: the attempts are spent.",
                "第 {n} 次（共 {MAX_ATTEMPTS} 次）也遇到 503：尝试次数用完了。"
            )
        } else {
            t(
                "Schema v3 is not an error that time fixes, so the consumer does not retry it.",
                "schema v3 不是等一等就会好的错误，所以消费者不重试。",
            )
        };
        let rest = tx!(
            "It writes {name} to dead_letters — reason, attempts, owner; the owner is paged if it stays parked 15 minutes — and only after that commits does it acknowledge. The partition moves on.",
            "它把 {name} 写入 dead_letters——原因、尝试次数、负责人；停放超过 15 分钟就告警负责人——提交之后才确认消息。分区继续前进。"
        );
        info.narration = why.then(&rest);
    }

    fn drop(&self, info: &mut StepInfo, unavailable: bool) {
        let Cx { name, .. } = self;
        let why = if unavailable {
            "503 on 3 attempts"
        } else {
            "unknown schema version 3"
        };
        info.code = Some(format!(
            "{}\nconsole.error(\"{name}: {why}\")\nack {name}",
            self.failed_call(unavailable)
        ));
        self.fail_marks(info, unavailable);
        info.arrow(
            CONSUMER,
            BROKER,
            tx!("ack {name}", "确认 {name}"),
            ArrowKind::Message,
        );
        info.arrow(CONSUMER, DB, t("no record", "没有记录"), ArrowKind::Ghost);
        info.mark(BROKER, MarkKind::Fail, "gone", "消失");
        info.title = tx!(
            "{name} acknowledged with a log line",
            "{name} 只记日志就确认了"
        );
        info.narration = tx!(
            "The consumer gives up on {name} as it should, but the way it gives up is to log the error and acknowledge: the broker deletes {name}, and a log line — sampled, rotated, not replayable — is all that is left. Nobody owns it, and nothing will replay it.",
            "消费者按规矩放弃了 {name}，但它放弃的方式是记一行错误日志然后确认：消息代理删掉了 {name}，只剩下一行日志——会被采样、会被轮转、无法重放。没有人负责它，也没有东西能重放它。"
        );
    }

    fn refuse(&self, info: &mut StepInfo) {
        let Cx { b, s, h, name, .. } = self;
        let o = h.order();
        let status = view::status_word(b.orders[h.of as usize]);
        let orig = format!("m-{}", h.of + 1);
        let word = s
            .dead_of(h.of)
            .map_or("", |d| parked_word(s.dead[d].status));
        let paid = b.orders[h.of as usize] == OrderStatus::Paid;
        let payments = if paid {
            let ch = b
                .charges
                .iter()
                .position(|c| c.msg.of == h.of)
                .map_or(0, |i| i + 1);
            format!("\nSELECT charge_id FROM payments WHERE order_id = '{o}';  -- 1 row: ch_{ch}")
        } else {
            String::new()
        };
        info.code = Some(format!(
            "BEGIN;\nSELECT status FROM orders WHERE id = '{o}' FOR UPDATE;  -- 1 row: {status}{payments}\nUPDATE dead_letters SET status = '{word}' WHERE message_id = '{orig}';  -- UPDATE 1\nCOMMIT;\nack {name}"
        ));
        info.arrow(
            CONSUMER,
            DB,
            tx!("check {o}", "核对 {o}"),
            ArrowKind::Message,
        );
        info.mark(DB, MarkKind::Dedup, "refused", "拒绝");
        info.title = tx!(
            "{name} refused: {o} is {status}",
            "{name} 被拒绝：{o} 已是 {status}"
        );
        info.narration = if paid {
            tx!(
                "Before charging, the replayed command re-reads {o}: it is PAID, and payments already holds its charge. The command is stale — another replay did its work — so the consumer refuses it, records why on {orig}'s dead letter and acknowledges. Nothing is charged.",
                "扣款之前，重放的命令先重读 {o}：它已是 PAID，payments 里已有它的扣款。这条命令过期了——另一次重放已经完成了它——所以消费者拒绝执行，在 {orig} 的死信记录上写明原因，然后确认。没有扣款。"
            )
        } else {
            tx!(
                "Before charging, the replayed command locks and re-reads {o}: the customer cancelled it while {orig} was parked. The command was right when it was written and is wrong now, so the consumer refuses it, records why on the dead letter and acknowledges. Nothing is charged.",
                "扣款之前，重放的命令先锁定并重读 {o}：客户在 {orig} 停放期间取消了它。这条命令写下时是对的，现在已经错了，所以消费者拒绝执行，在死信记录上写明原因，然后确认。没有扣款。"
            )
        };
    }

    fn charge(&self, info: &mut StepInfo) {
        let Cx { m, s, h, name, .. } = self;
        let o = h.order();
        let ch = s.charges.len();
        let Some(c) = s.charges.last() else { return };
        let again = s.repeats(ch - 1);
        let check = if m.variant == DlVariant::CheckedReplay && h.replay > 0 {
            format!("BEGIN;\nSELECT status FROM orders WHERE id = '{o}' FOR UPDATE;  -- 1 row: PENDING\nSELECT charge_id FROM payments WHERE order_id = '{o}';  -- 0 rows\n")
        } else {
            String::new()
        };
        let begin = if check.is_empty() { "BEGIN;\n" } else { "" };
        info.code = Some(format!(
            "{check}POST /v1/charges  order={o}  → 200 ch_{ch}\n{begin}INSERT INTO payments (order_id, charge_id, message_id) VALUES ('{o}', 'ch_{ch}', '{name}');\nUPDATE orders SET status = 'PAID' WHERE id = '{o}';  -- UPDATE 1\nCOMMIT;\nack {name}"
        ));
        let kind = if again {
            ArrowKind::Duplicate
        } else {
            ArrowKind::Message
        };
        info.arrow(CONSUMER, PROVIDER, tx!("charge {o}", "扣款 {o}"), kind);
        info.mark(DB, MarkKind::Commit, "PAID", "已支付");
        info.title = tx!(
            "{name}: {o} charged (ch_{ch})",
            "{name}：{o} 已扣款（ch_{ch}）"
        );
        info.narration = if c.stale {
            info.mark(
                PROVIDER,
                MarkKind::Duplicate,
                "cancelled order",
                "已取消的订单",
            );
            tx!(
                "The replayed {name} charges {o} as it was written — but the customer cancelled {o} while it was parked. The provider takes the money (ch_{ch}), and the consumer's UPDATE even writes PAID over CANCELLED. The fix made the message readable; nothing checked that the command was still wanted.",
                "重放的 {name} 按原样为 {o} 扣款——可客户在它停放期间已经取消了 {o}。支付方收了钱（ch_{ch}），消费者的 UPDATE 甚至把 CANCELLED 覆盖成了 PAID。修复让消息能读了，却没有人核对这条命令是否仍然需要。"
            )
        } else if again {
            info.mark(PROVIDER, MarkKind::Duplicate, "second charge", "第二笔扣款");
            tx!(
                "{name} is a second replay of the same parked command, and nothing tells the consumer that {o} is paid already: the provider charges it again (ch_{ch}). Each replay is a new message, so an inbox of message ids would not have caught it either.",
                "{name} 是同一条停放命令的第二次重放，没有任何东西告诉消费者 {o} 已经付过了：支付方再次扣款（ch_{ch}）。每次重放都是一条新消息，所以按消息标识去重的收件箱也拦不住。"
            )
        } else if !check.is_empty() {
            tx!(
                "The replayed command first locks {o} and re-reads it: PENDING, no payment yet. Only then does it charge (ch_{ch}); the lock holds off a cancel until the charge is recorded.",
                "重放的命令先锁定并重读 {o}：仍是 PENDING，还没有支付。这之后才扣款（ch_{ch}）；在扣款记录提交前，锁挡住了取消。"
            )
        } else {
            info.mark(PROVIDER, MarkKind::Commit, "200", "200");
            tx!(
                "The consumer charges {o} (ch_{ch}), records the payment and the order's new status in one transaction, and only then acknowledges {name}.",
                "消费者为 {o} 扣款（ch_{ch}），在同一个事务里写入支付记录和订单的新状态，之后才确认 {name}。"
            )
        };
    }
}

fn replay(info: &mut StepInfo, m: &DeadLetterModel, s: &DlState, of: u8, a: DlAct) {
    info.lane = OPERATOR;
    let orig = format!("m-{}", of + 1);
    let Some(copy) = s.queue.last().filter(|q| q.of == of) else {
        return;
    };
    let copy = copy.name();
    info.code = Some(format!(
        "UPDATE dead_letters SET status = 'REPLAYED', replays = replays + 1 WHERE message_id = '{orig}';  -- UPDATE 1\npublish {copy} to payments-0"
    ));
    let kind = if matches!(a, DlAct::ReplayAgain(_)) {
        ArrowKind::Duplicate
    } else {
        ArrowKind::Message
    };
    info.arrow(OPERATOR, BROKER, Text::same(copy.clone()), kind);
    info.mark(BROKER, MarkKind::Publish, "replayed", "已重放");
    info.title = tx!("replay {orig} as {copy}", "把 {orig} 重放为 {copy}");
    let checked = if m.variant == DlVariant::CheckedReplay {
        t(
            " Its handler will check the order before it charges.",
            "它的处理函数会在扣款前核对订单。",
        )
    } else {
        t(
            " It carries the command as it was written when the order was placed.",
            "它带着下单时写下的命令，原封不动。",
        )
    };
    info.narration = if matches!(a, DlAct::ReplayAgain(_)) {
        tx!(
            "A second operator, answering the same alert, replays {orig} as well: {copy} joins the partition.",
            "另一位运维响应同一个告警，也重放了 {orig}：{copy} 进入分区。"
        )
    } else if of == POISON {
        tx!(
            "The team deploys a consumer that reads schema v3, and the operator replays {orig}: a copy, {copy}, goes to the back of payments-0. The dead letter stays, marked REPLAYED.",
            "团队部署了能读 schema v3 的消费者，运维重放 {orig}：副本 {copy} 排到 payments-0 的末尾。死信记录保留，标记为 REPLAYED。"
        )
    } else {
        tx!(
            "The provider is healthy again, and the operator replays {orig}: a copy, {copy}, goes to the back of payments-0. The dead letter stays, marked REPLAYED.",
            "支付方恢复了，运维重放 {orig}：副本 {copy} 排到 payments-0 的末尾。死信记录保留，标记为 REPLAYED。"
        )
    }
    .then(&checked);
}

fn cancel(info: &mut StepInfo, of: u8) {
    info.lane = OPERATOR;
    let o = ORDERS[of as usize];
    info.code = Some(format!(
        "UPDATE orders SET status = 'CANCELLED' WHERE id = '{o}' AND status = 'PENDING';  -- UPDATE 1"
    ));
    info.arrow(
        OPERATOR,
        DB,
        tx!("cancel {o}", "取消 {o}"),
        ArrowKind::Message,
    );
    info.mark(DB, MarkKind::Commit, "CANCELLED", "已取消");
    info.title = tx!("{o} cancelled", "{o} 已取消");
    info.narration = tx!(
        "While its charge waits in dead_letters, the customer gives up on {o} and cancels it. The parked command still says “charge {o}”.",
        "在它的扣款命令还停在 dead_letters 里时，客户放弃了 {o}，取消了订单。停放的命令上仍写着“为 {o} 扣款”。"
    );
}
