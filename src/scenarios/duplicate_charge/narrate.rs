//! Step narration for the duplicate-charge incident: the SQL or request that ran, what the
//! consumer, the broker and the provider each know afterwards.
use super::*;
use crate::tx;

const STRIPE: &str = "a saved failure is replayed too, and a key is kept at least 24 hours; Stripe API v1, idempotent requests: docs.stripe.com/api/idempotent_requests";
const STRIPE_ZH: &str = "保存的失败同样重放，键至少保留 24 小时；Stripe API v1 幂等请求：docs.stripe.com/api/idempotent_requests";
const OUTBOX: &str =
    "AWS, transactional outbox: docs.aws.amazon.com/prescriptive-guidance/latest/cloud-design-patterns/transactional-outbox.html";
const OUTBOX_ZH: &str =
    "AWS 事务发件箱模式：docs.aws.amazon.com/prescriptive-guidance/latest/cloud-design-patterns/transactional-outbox.html";

fn t(en: impl Into<String>, zh: impl Into<String>) -> Text {
    Text::new(en, zh)
}

pub(super) fn intro(v: DcVariant) -> Text {
    let setting = t(
        "Stock for order ord-1701 is reserved, and the relay publishes the command “charge ord-1701” (payment intent pay-1701, 100.00). The payment consumer charges the provider, writes its local result, and only then acknowledges the message; the broker delivers at least once.",
        "订单 ord-1701 的库存已预留，中继发出“为 ord-1701 扣款”的命令（支付意图 pay-1701，100.00）。支付消费者调用支付方扣款，写入本地支付结果，然后才确认消息；消息代理保证至少投递一次。",
    );
    let what = match v {
        DcVariant::NewChargePerDelivery => t(
            "This consumer takes a new payment number on every consumption and sends it as the key. Crash it after it saved the result and before it acknowledges: the ord-1701 incident from the notes.",
            "这个消费者每次消费都生成新的支付流水号，并把它作为键发给支付方。在它写入结果之后、确认之前让它崩溃：这就是笔记里的事故。",
        ),
        DcVariant::MessageIdDedup => t(
            "This consumer keeps an inbox of processed message ids, committed with the result, and sends the message id as the key. Crash it the same way; then let the relay re-publish the command as msg-2.",
            "这个消费者维护记录已处理消息标识的收件箱，与支付结果在同一事务里提交，并把消息标识作为键。用同样的方式让它崩溃；再让中继以 msg-2 重新发布同一命令。",
        ),
        DcVariant::StableIntent => tx!(
            "This consumer creates or reads the payment intent pay-1701 (unique per order) and sends pay-1701 as the key on every attempt; the provider replays a saved result ({STRIPE}). Try every fault.",
            "这个消费者创建或读取支付意图 pay-1701（按订单唯一），每次尝试都以 pay-1701 为键；支付方对同一个键重放已保存的结果（{STRIPE_ZH}）。每种故障都试一试。"
        ),
    };
    setting.then(&what)
}

pub(super) fn describe(m: &DuplicateChargeModel, b: &DcState, a: DcAct, s: &DcState) -> StepInfo {
    let mut info = StepInfo {
        lane: CONSUMER,
        ..StepInfo::default()
    };
    let held = b.job.or(s.job);
    let mid = held.map(|j| msg_id(j.msg)).unwrap_or_default();
    let cx = Cx {
        m,
        a,
        b,
        s,
        held,
        mid: &mid,
    };
    match a {
        DcAct::Publish => cx.publish(&mut info),
        DcAct::Republish => cx.republish(&mut info),
        DcAct::Deliver(i) => cx.deliver(&mut info, i),
        DcAct::Open => cx.open(&mut info),
        DcAct::Charge => cx.charge(&mut info),
        DcAct::Save => cx.save(&mut info),
        DcAct::Ack => cx.ack(&mut info),
        DcAct::Timeout => cx.timeout(&mut info),
        DcAct::Crash => cx.crash(&mut info),
        DcAct::Restart => cx.restart(&mut info),
        DcAct::LoseAnswer => cx.lose_answer(&mut info),
        DcAct::Reconcile => cx.reconcile(&mut info),
        DcAct::SendRefund(r) | DcAct::RetryRefund(r) => cx.send_refund(&mut info, r),
        DcAct::RecordRefund => cx.record_refund(&mut info),
    }
    info
}

fn describe_open(
    m: &DuplicateChargeModel,
    b: &DcState,
    s: &DcState,
    info: &mut StepInfo,
    mid: &str,
) {
    let j = s.job.unwrap_or(Job {
        msg: 0,
        stage: Stage::Received,
        no: Key::Intent,
        key: Key::Intent,
        skipped: false,
    });
    info.arrow(CONSUMER, DB, "SELECT", ArrowKind::Message);
    let redelivered = b.msgs.get(j.msg as usize).is_some_and(|x| x.delivered > 1);
    match m.variant {
        DcVariant::NewChargePerDelivery => open_new_number(s, j, info),
        DcVariant::MessageIdDedup => open_inbox(j, info, mid, redelivered),
        DcVariant::StableIntent => open_intent(b, info, mid),
    }
}

/// A new payment number per delivery: nothing links it to the payment the order has.
fn open_new_number(s: &DcState, j: Job, info: &mut StepInfo) {
    let no = j.no.show();
    info.code = Some(format!("SELECT nextval('payment_no');  -- {no}"));
    info.title = tx!("new payment number {no}", "新流水号 {no}");
    info.narration = if s.serial > 1 {
        tx!(
            "The handler does what it always does: a new payment number, {no}, which will be the provider's key. Nothing links it to the payment ord-1701 already has.",
            "处理函数照旧执行：生成新的支付流水号 {no}，并把它作为支付方的键。没有任何东西把它和 ord-1701 已有的那笔支付联系起来。"
        )
    } else {
        tx!(
            "The handler takes payment number {no} from the sequence; it will be the provider's idempotency key.",
            "处理函数从序列取得支付流水号 {no}，它将作为支付方的幂等键。"
        )
    };
}

/// The inbox by message id: a hit skips, a miss (a new id, or a result never saved) charges.
fn open_inbox(j: Job, info: &mut StepInfo, mid: &str, redelivered: bool) {
    let lookup = format!("SELECT 1 FROM processed_messages WHERE message_id = '{mid}';");
    if j.skipped {
        info.code = Some(format!("{lookup}  -- 1 row"));
        info.title = tx!("{mid}: in the inbox", "{mid}：已在收件箱中");
        info.mark(DB, MarkKind::Dedup, "inbox hit", "已处理");
        info.narration = tx!(
            "{mid} is in processed_messages: its result was committed with it. The handler acknowledges without charging.",
            "{mid} 已在 processed_messages 中：它的结果当初与它一起提交了。处理函数不扣款，直接确认。"
        );
    } else {
        let no = j.no.show();
        info.code = Some(format!(
            "{lookup}  -- 0 rows\nSELECT nextval('payment_no');  -- {no}"
        ));
        info.title = tx!("{mid}: not in the inbox", "{mid}：不在收件箱中");
        info.narration = if j.msg > 0 {
            tx!(
                "{mid} is not in the inbox: it is a new message id. The inbox cannot know that it carries the same command as msg-1, so the handler charges with the key {mid}.",
                "{mid} 不在收件箱中：这是一个新的消息标识。收件箱无从知道它和 msg-1 是同一个命令，于是处理函数用键 {mid} 扣款。"
            )
        } else if redelivered {
            tx!(
                "{mid} is not in the inbox: its result was never saved. The handler charges again, but with the same key {mid}.",
                "{mid} 不在收件箱中：它的结果没保存下来。处理函数再次扣款，但用的是同一个键 {mid}。"
            )
        } else {
            tx!(
                "{mid} is not in processed_messages. The handler takes payment number {no} and will send the message id {mid} as the key.",
                "{mid} 不在 processed_messages 中。处理函数取得流水号 {no}，并将以消息标识 {mid} 作为键。"
            )
        };
    }
}

/// The payment intent, unique per order: created once, then read.
fn open_intent(b: &DcState, info: &mut StepInfo, mid: &str) {
    info.code = Some("INSERT INTO payment_intents (intent_id, order_id, status)\n  VALUES ('pay-1701', 'ord-1701', 'PROCESSING')\n  ON CONFLICT (order_id) DO NOTHING;\nSELECT intent_id, status FROM payment_intents WHERE order_id = 'ord-1701';".into());
    let before = b.payments.iter().find(|p| p.no == Key::Intent).copied();
    match before {
        None => {
            info.title = t("create pay-1701", "创建 pay-1701");
            info.mark(DB, MarkKind::Commit, "PROCESSING", "处理中");
            info.narration = t(
                "The handler creates the payment intent pay-1701, PROCESSING. order_id is unique: this is the one payment of ord-1701, whichever message asks for it.",
                "处理函数创建支付意图 pay-1701，状态为处理中。order_id 唯一：这就是 ord-1701 的那一次收款，不管是哪条消息来要求。",
            );
        }
        Some(p) if p.status == PayStatus::Succeeded => {
            let c = p.charge.map_or(String::new(), |c| format!("ch_{c}"));
            info.title = t("pay-1701 SUCCEEDED: skip", "pay-1701 已成功：跳过");
            info.mark(DB, MarkKind::Dedup, "0 rows", "0 行");
            info.narration = tx!(
                "The insert finds pay-1701 already there, SUCCEEDED with {c}: the handler returns the saved result and acknowledges {mid}. Nothing is charged, whichever message carried the command.",
                "插入时发现 pay-1701 已存在，且已成功（{c}）：处理函数返回已有结果并确认 {mid}。无论命令由哪条消息带来，都不会再扣款。"
            );
        }
        Some(_) => {
            info.title = t(
                "pay-1701 PROCESSING: ask again",
                "pay-1701 处理中：再问一次",
            );
            info.mark(DB, MarkKind::Dedup, "0 rows", "0 行");
            info.narration = t(
                "pay-1701 already exists and is PROCESSING: an earlier attempt may or may not have charged. The handler does not make a new payment; it asks the provider again with the same key, pay-1701.",
                "pay-1701 已存在且处于处理中：之前的尝试可能扣了款，也可能没有。处理函数不新建支付，而是用同一个键 pay-1701 再询问支付方。",
            );
        }
    }
}

/// What every step's narration reads: the model, the action between two states, and the job
/// (and its message id) the consumer holds across the step.
#[derive(Clone, Copy)]
struct Cx<'a> {
    m: &'a DuplicateChargeModel,
    a: DcAct,
    b: &'a DcState,
    s: &'a DcState,
    held: Option<Job>,
    mid: &'a str,
}

impl Cx<'_> {
    fn publish(&self, info: &mut StepInfo) {
        info.lane = RELAY;
        info.arrow(RELAY, BROKER, "msg-1", ArrowKind::Message);
        info.mark(BROKER, MarkKind::Publish, "msg-1", "msg-1");
        info.code = Some("publish(\"payment-commands\", id=\"msg-1\",\n        {\"order_id\": \"ord-1701\", \"intent_id\": \"pay-1701\", \"amount\": 10000})\nUPDATE outbox SET status = 'SENT' WHERE event_id = 'ord-1701:charge';".into());
        info.title = t("publish msg-1", "发布 msg-1");
        info.narration = t(
            "The relay publishes the command “charge ord-1701” for intent pay-1701 as message msg-1.",
            "中继把“为 ord-1701 扣款”的命令（支付意图 pay-1701）作为消息 msg-1 发出。",
        );
    }

    fn republish(&self, info: &mut StepInfo) {
        info.lane = RELAY;
        info.arrow(RELAY, BROKER, "msg-2", ArrowKind::Duplicate);
        info.mark(BROKER, MarkKind::Duplicate, "msg-2", "msg-2");
        info.code = Some("publish(\"payment-commands\", id=\"msg-2\",   -- a new message id\n        {\"order_id\": \"ord-1701\", \"intent_id\": \"pay-1701\", \"amount\": 10000})".into());
        info.title = t("re-publish as msg-2", "以 msg-2 重新发布");
        info.narration = tx!(
            "The relay died before marking its outbox row sent; after restarting, it publishes the same command again. It mints message ids when it publishes, so this copy is msg-2: same order, same intent pay-1701, new message id. An outbox promises no loss, not no duplicates ({OUTBOX}).",
            "中继在把发件箱记录标为已发送之前退出，恢复后再次发布同一命令。它在发布时才生成消息标识，所以这份副本是 msg-2：同一个订单、同一个支付意图 pay-1701，消息标识却是新的。发件箱保证不丢，不保证不重（{OUTBOX_ZH}）。"
        );
    }

    fn deliver(&self, info: &mut StepInfo, i: u8) {
        let Cx { b, s, .. } = *self;
        info.lane = BROKER;
        let again = b.msgs.get(i as usize).is_some_and(|x| x.delivered > 0);
        let id = msg_id(i);
        info.arrow(
            BROKER,
            CONSUMER,
            &id,
            if again || i > 0 {
                ArrowKind::Duplicate
            } else {
                ArrowKind::Message
            },
        );
        info.mark(CONSUMER, MarkKind::Deliver, &id, &id);
        let n = s.msgs.get(i as usize).map_or(1, |x| x.delivered);
        if again {
            info.title = tx!("redeliver {id}", "再次投递 {id}");
            info.mark(BROKER, MarkKind::Duplicate, "redelivery", "再次投递");
            info.narration = tx!(
                "{id} was never acknowledged, so the broker delivers it again (delivery {n}). This is at-least-once delivery doing its job, not a broker bug.",
                "{id} 一直没有被确认，所以消息代理再次投递（第 {n} 次）。这是至少投递一次的约定在正常工作，不是消息代理的缺陷。"
            );
        } else if i > 0 {
            info.title = tx!("deliver {id}", "投递 {id}");
            info.narration = tx!(
                "The broker delivers {id}. To the broker it is a new message: same order ord-1701, same intent pay-1701, a new id.",
                "消息代理投递 {id}。对消息代理来说这是一条新消息：同一个订单 ord-1701、同一个支付意图 pay-1701，标识是新的。"
            );
        } else {
            info.title = tx!("deliver {id}", "投递 {id}");
            info.narration = tx!(
                "The broker delivers {id} to the payment consumer. It stays unacknowledged until the consumer says so.",
                "消息代理把 {id} 投递给支付消费者。在消费者确认之前，它一直处于未确认状态。"
            );
        }
    }

    fn open(&self, info: &mut StepInfo) {
        let Cx { m, b, s, mid, .. } = *self;
        describe_open(m, b, s, info, mid);
    }

    fn charge(&self, info: &mut StepInfo) {
        let Cx { b, s, .. } = *self;
        let j = b.job.unwrap_or(Job {
            msg: 0,
            stage: Stage::Keyed,
            no: Key::Intent,
            key: Key::Intent,
            skipped: false,
        });
        let k = j.key.show();
        info.arrow(CONSUMER, PSP, &k, ArrowKind::Message);
        info.code = Some(format!(
            "POST /v1/charges\nIdempotency-Key: {k}\n{{ \"amount\": 10000, \"currency\": \"eur\", \"metadata\": {{ \"order_id\": \"ord-1701\" }} }}"
        ));
        match s.answers.last() {
            Some(Answer::Charged {
                charge,
                replayed: true,
            }) => {
                info.lane = PSP;
                info.title = tx!("replay {k}: ch_{charge}", "重放 {k}：ch_{charge}");
                info.mark(PSP, MarkKind::Dedup, "replayed", "重放");
                info.narration = tx!(
                    "The provider has a saved result for {k}: it replays “charged ch_{charge}” and charges nothing ({STRIPE}).",
                    "支付方已为 {k} 保存了结果：它重放“已扣款 ch_{charge}”，不会再扣一次（{STRIPE_ZH}）。"
                );
            }
            Some(Answer::Charged { charge, .. }) => {
                info.lane = PSP;
                info.title = tx!("charge ch_{charge} ({k})", "扣款 ch_{charge}（{k}）");
                if *charge > 1 {
                    info.mark(PSP, MarkKind::Duplicate, "2nd charge", "重复扣款");
                    info.narration = tx!(
                        "The provider has never seen the key {k}, so to it this is a new payment: it charges ord-1701 again, ch_{charge}, 100.00. Nothing on its side says that this is the same order's payment.",
                        "支付方从没见过键 {k}，对它来说这是一笔新支付：它再次为 ord-1701 扣款，ch_{charge}，100.00。支付方那边没有任何信息表明这是同一个订单的同一次收款。"
                    );
                } else {
                    info.mark(PSP, MarkKind::Commit, "charged", "已扣款");
                    info.narration = tx!(
                        "The provider charges 100.00 for ord-1701: ch_1, saved under the key {k}, and answers 200.",
                        "支付方为 ord-1701 扣款 100.00：ch_1，以键 {k} 保存结果，并应答 200。"
                    );
                }
            }
            _ => {}
        }
    }

    fn save(&self, info: &mut StepInfo) {
        let Cx {
            m, b, s, held, mid, ..
        } = *self;
        let j = held.unwrap_or(Job {
            msg: 0,
            stage: Stage::Sent,
            no: Key::Intent,
            key: Key::Intent,
            skipped: false,
        });
        let charge = b
            .answers
            .iter()
            .find_map(|x| match x {
                Answer::Charged { charge, .. } => Some(*charge),
                Answer::Refunded { .. } => None,
            })
            .unwrap_or(0);
        let (no, k) = (j.no.show(), j.key.show());
        info.arrow(CONSUMER, DB, "SUCCEEDED", ArrowKind::Message);
        info.mark(DB, MarkKind::Commit, "saved", "已保存");
        info.code = Some(match m.variant {
            DcVariant::NewChargePerDelivery => format!(
                "INSERT INTO payments (payment_no, order_id, idempotency_key, status, charge_id)\n  VALUES ('{no}', 'ord-1701', '{k}', 'SUCCEEDED', 'ch_{charge}');"
            ),
            DcVariant::MessageIdDedup => format!(
                "BEGIN;\nINSERT INTO payments (payment_no, order_id, idempotency_key, status, charge_id)\n  VALUES ('{no}', 'ord-1701', '{k}', 'SUCCEEDED', 'ch_{charge}');\nINSERT INTO processed_messages (message_id) VALUES ('{mid}');\nCOMMIT;"
            ),
            DcVariant::StableIntent => format!(
                "UPDATE payment_intents SET status = 'SUCCEEDED', charge_id = 'ch_{charge}'\n  WHERE intent_id = 'pay-1701' AND status = 'PROCESSING';"
            ),
        });
        info.title = tx!("save {no}: ch_{charge}", "保存 {no}：ch_{charge}");
        let rows = s.payments.len();
        info.narration = match m.variant {
            DcVariant::StableIntent => tx!(
                "The consumer records pay-1701 SUCCEEDED with ch_{charge}. It has not acknowledged {mid} yet.",
                "消费者把 pay-1701 记为成功，对应 ch_{charge}。它还没有确认 {mid}。"
            ),
            DcVariant::MessageIdDedup => tx!(
                "In one transaction the consumer records {no} SUCCEEDED with ch_{charge} and {mid} in processed_messages. It has not acknowledged {mid} yet.",
                "消费者在同一事务里把 {no} 记为成功（ch_{charge}），并把 {mid} 写入 processed_messages。它还没有确认 {mid}。"
            ),
            DcVariant::NewChargePerDelivery if rows > 1 => tx!(
                "The consumer records {no} SUCCEEDED with ch_{charge}: the books now show {rows} successful payments for one order.",
                "消费者把 {no} 记为成功（ch_{charge}）：账上现在是一个订单 {rows} 笔成功支付。"
            ),
            DcVariant::NewChargePerDelivery => tx!(
                "The consumer writes its local result: {no} SUCCEEDED with ch_{charge}. It has not acknowledged {mid} yet.",
                "消费者写入本地支付结果：{no} 成功，对应 ch_{charge}。它还没有确认 {mid}。"
            ),
        };
    }

    fn ack(&self, info: &mut StepInfo) {
        let Cx { mid, .. } = *self;
        info.arrow(CONSUMER, BROKER, t("ack", "确认"), ArrowKind::Message);
        info.mark(BROKER, MarkKind::Respond, "ack", "确认");
        info.code = Some(format!("msg.ack()  # {mid}"));
        info.title = tx!("ack {mid}", "确认 {mid}");
        info.narration = tx!(
            "The consumer acknowledges {mid}: the broker will not deliver it again.",
            "消费者确认 {mid}：消息代理不会再投递它。"
        );
    }

    fn timeout(&self, info: &mut StepInfo) {
        let Cx { m, mid, .. } = *self;
        info.mark(CONSUMER, MarkKind::Fail, "timeout", "超时");
        info.title = tx!("timeout: {mid} not acked", "超时：{mid} 未确认");
        let tail = match m.variant {
            DcVariant::StableIntent => t(
                "pay-1701 stays PROCESSING: the next attempt asks the provider with the same key.",
                "pay-1701 保持“处理中”：下一次尝试会用同一个键询问支付方。",
            ),
            DcVariant::MessageIdDedup => tx!(
                "The next attempt sends the same key, {mid}.",
                "下一次尝试会发送同一个键 {mid}。"
            ),
            DcVariant::NewChargePerDelivery => t(
                "Its payment number lived only in memory: the next attempt takes a new one.",
                "它的支付流水号只在内存里：下一次尝试会生成新的。",
            ),
        };
        info.narration = tx!(
            "No answer came. The consumer does not know whether the provider charged; it gives up on {mid} without acknowledging it, and the broker will deliver it again.",
            "应答没有回来。消费者不知道支付方有没有扣款；它放弃处理 {mid} 且不确认，消息代理会再次投递。"
        )
        .then(&tail);
    }

    fn crash(&self, info: &mut StepInfo) {
        let Cx { b, mid, .. } = *self;
        info.title = t("consumer crashes", "消费者崩溃");
        info.mark(CONSUMER, MarkKind::Crash, "crash", "崩溃");
        info.narration = if b.job.is_some_and(|j| j.stage == Stage::Sent) {
            tx!(
                "The consumer crashes after the provider charged and before saving the result: the payments table knows nothing of the charge, and {mid} is unacknowledged.",
                "消费者在支付方扣款之后、保存结果之前崩溃：支付表对这笔扣款一无所知，{mid} 也没有确认。"
            )
        } else {
            tx!(
                "The consumer crashes after writing its local result and before acknowledging {mid}, as in the ord-1701 incident. The broker will deliver {mid} again.",
                "消费者在写入本地支付结果之后、确认 {mid} 之前退出，正如 ord-1701 事故。消息代理会再次投递 {mid}。"
            )
        };
    }

    fn restart(&self, info: &mut StepInfo) {
        info.title = t("consumer restarts", "消费者重启");
        info.mark(CONSUMER, MarkKind::Restart, "restart", "重启");
        info.narration = t(
            "The consumer restarts with empty memory. Whatever it did not acknowledge will be delivered again.",
            "消费者以空白内存重启。凡是它没确认的消息，都会再次投递。",
        );
    }

    fn lose_answer(&self, info: &mut StepInfo) {
        let Cx { b, .. } = *self;
        info.lane = PSP;
        info.mark(PSP, MarkKind::Fail, "lost", "丢失");
        match b.answers.first() {
            Some(Answer::Refunded { refund, .. }) => {
                info.arrow(PSP, RECON, "200", ArrowKind::Lost);
                info.title = t("refund answer lost", "退款应答丢失");
                info.narration = tx!(
                    "The provider's “refunded re_{refund}” never reaches the reconciliation job: the refund happened, the job does not know.",
                    "支付方的“已退款 re_{refund}”没能到达对账任务：退款已经发生，对账任务却不知道。"
                );
            }
            Some(Answer::Charged { charge, .. }) => {
                info.arrow(PSP, CONSUMER, "200", ArrowKind::Lost);
                info.title = t("answer lost", "应答丢失");
                info.narration = tx!(
                    "The provider's “charged ch_{charge}” never reaches the consumer. The money has moved; the consumer will only see a timeout.",
                    "支付方的“已扣款 ch_{charge}”没能到达消费者。钱已经扣了；消费者只会看到一次超时。"
                );
            }
            None => {}
        }
    }

    fn reconcile(&self, info: &mut StepInfo) {
        let Cx { b, s, .. } = *self;
        info.lane = RECON;
        info.arrow(
            RECON,
            PSP,
            t("list charges", "查询扣款"),
            ArrowKind::Message,
        );
        let new: Vec<String> = s.refunds[b.refunds.len()..]
            .iter()
            .map(|r| format!("ch_{}", r.charge))
            .collect();
        let ops: Vec<String> = s.refunds[b.refunds.len()..]
            .iter()
            .map(|r| Key::Refund(r.charge).show())
            .collect();
        let mut code = String::from(
            "SELECT charge_id, idempotency_key FROM provider_report WHERE order_id = 'ord-1701';",
        );
        for r in &s.refunds[b.refunds.len()..] {
            code.push_str(&format!(
                "\nINSERT INTO refund_operations (operation_id, charge_id, amount, status)\n  VALUES ('{}', 'ch_{}', 100.00, 'PENDING') ON CONFLICT DO NOTHING;",
                Key::Refund(r.charge).show(),
                r.charge
            ));
        }
        info.code = Some(code);
        let n = s.charges().len();
        if new.is_empty() {
            info.title = t("reconcile: books match", "对账：一致");
            info.mark(RECON, MarkKind::Dedup, "1 charge", "1 笔扣款");
            info.narration = tx!(
                "Reconciliation compares the provider's charges for ord-1701 with the order: {n} charge, as expected. Nothing to repair.",
                "对账任务核对支付方上 ord-1701 的扣款与订单：{n} 笔，符合预期，无需修复。"
            );
        } else {
            let (dups, ops) = (new.join(", "), ops.join(", "));
            info.title = tx!(
                "reconcile: {dups} is a duplicate",
                "对账：{dups} 是重复扣款"
            );
            info.mark(RECON, MarkKind::Write, "refund op", "退款操作");
            info.narration = tx!(
                "Reconciliation finds {n} charges for ord-1701, which needs one: {dups} is a duplicate. It is not deleted — that would fake a clean ledger. A refund operation {ops}, with its own stable id, is recorded PENDING.",
                "对账任务发现 ord-1701 有 {n} 笔扣款，而订单只需要 1 笔：{dups} 是重复的。不能删除它来制造只有 1 笔的假象，而是记录一个带稳定操作标识 {ops} 的退款操作，状态 PENDING。"
            );
        }
    }

    fn send_refund(&self, info: &mut StepInfo, r: u8) {
        let Cx { a, b, s, .. } = *self;
        info.lane = PSP;
        let c = b.refunds.get(r as usize).map_or(0, |x| x.charge);
        let k = Key::Refund(c).show();
        let retry = matches!(a, DcAct::RetryRefund(_));
        info.arrow(
            RECON,
            PSP,
            &k,
            if retry {
                ArrowKind::Duplicate
            } else {
                ArrowKind::Message
            },
        );
        info.code = Some(format!(
            "UPDATE refund_operations SET status = 'PROCESSING'\n  WHERE operation_id = '{k}' AND status = 'PENDING';\nPOST /v1/refunds\nIdempotency-Key: {k}\n{{ \"charge\": \"ch_{c}\", \"amount\": 10000 }}"
        ));
        match s.answers.last() {
            Some(Answer::Refunded {
                refund,
                replayed: true,
                ..
            }) => {
                info.title = tx!("replay {k}", "重放 {k}");
                info.mark(PSP, MarkKind::Dedup, "replayed", "重放");
                info.narration = tx!(
                    "No answer came, so the job asks again with the same key {k}: the provider replays re_{refund} and refunds nothing more. A new key here would refund twice.",
                    "应答没有回来，对账任务用同一个键 {k} 再问一次：支付方重放 re_{refund}，不会再退。这里若换新键，就会退两次。"
                );
            }
            Some(Answer::Refunded { refund, .. }) => {
                info.title = tx!(
                    "refund re_{refund} of ch_{c}",
                    "退款 re_{refund}（退还 ch_{c}）"
                );
                info.mark(PSP, MarkKind::Rollback, "refunded", "已退款");
                info.narration = tx!(
                    "The provider refunds ch_{c}: re_{refund}, -100.00, under the key {k}. The ledger keeps ch_{c} and adds re_{refund}: the duplicate and its repair are both on record.",
                    "支付方以键 {k} 退还 ch_{c}：re_{refund}，-100.00。流水里保留 ch_{c} 并新增 re_{refund}：重复扣款和它的修复都有据可查。"
                );
            }
            _ => {}
        }
    }

    fn record_refund(&self, info: &mut StepInfo) {
        let Cx { b, s, .. } = *self;
        info.lane = RECON;
        let c = b
            .answers
            .iter()
            .find_map(|x| match x {
                Answer::Refunded { charge, .. } => Some(*charge),
                Answer::Charged { .. } => None,
            })
            .unwrap_or(0);
        let k = Key::Refund(c).show();
        info.code = Some(format!(
            "UPDATE refund_operations SET status = 'SUCCEEDED'\n  WHERE operation_id = '{k}' AND status <> 'SUCCEEDED';"
        ));
        info.mark(RECON, MarkKind::Commit, "SUCCEEDED", "SUCCEEDED");
        info.title = tx!("{k} SUCCEEDED", "{k} 成功");
        let net = s.net().max(0) as u32;
        info.narration = tx!(
            "The job records {k} SUCCEEDED. The customer has paid {} net; the ledger still shows every charge and every refund.",
            "对账任务把 {k} 记为成功。客户净支付 {}；流水里每笔扣款和退款都还在。",
            money(net)
        );
    }
}
