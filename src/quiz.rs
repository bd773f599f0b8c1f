//! The seeds' quiz: six multiple-choice questions with their explanations and four short-answer
//! questions with their scoring points, in Chinese (as in the seeds) and English, each with a
//! "show me" link to the scenario state that demonstrates the answer. Pure data; progress is
//! kept by the page (`ui::quiz`) as a short string this module parses without trusting it.

use crate::sim::Text;

pub enum Kind {
    /// Four options and the index of the right one.
    Choice { options: [Text; 4], answer: u8 },
    /// The points a good answer makes (one mark each).
    Short { points: [Text; 4] },
}

pub struct Question {
    pub id: &'static str,
    pub prompt: Text,
    pub kind: Kind,
    /// Why the answer is right (and the others wrong), or a model answer.
    pub explanation: Text,
    /// The query string of the state that shows it.
    pub show: &'static str,
}

fn t(en: &str, zh: &str) -> Text {
    Text::new(en, zh)
}

/// Every question, in the seeds' order.
pub fn questions() -> Vec<Question> {
    vec![
        Question {
            id: "c1",
            prompt: t("A payment call was sent; the client timed out and no callback came. How should the service record it?",
                      "支付调用已发出，客户端等待超时且无回调。服务应如何记录？"),
            kind: Kind::Choice {
                options: [
                    t("FAILED, release the reservation; a new request can be made later", "写成 FAILED 并释放预留，稍后可新建请求"),
                    t("UNKNOWN, keep the reservation, query by the original operation or retry with the same key as the contract allows", "写成 UNKNOWN，保留预留，按原 operation 身份查询或按契约同键重试"),
                    t("Generate a new downstream idempotency key, to avoid the old key's cached error", "生成新的下游幂等键，避免旧键缓存错误"),
                    t("Roll back the local transaction and treat the provider as rolled back too", "回滚本地事务，视为支付方也回滚"),
                ],
                answer: 1,
            },
            explanation: t("B. A mistakes “don't know” for “definitely not executed” and may refund too much; C turns the same intent into a new request; D: a local rollback does not undo a committed remote operation.",
                           "正确答案：B。A 会把“不知道”误作“确定未执行”，可能超额退款；C 把同一意图变成新请求；D 的本地回滚不撤销已提交的远端操作。"),
            show: "?s=unknown-outcome&v=mark-failed-new-key&p=000020&t=6",
        },
        Question {
            id: "c2",
            prompt: t("Resuming a node that performs an external write: which design is most reliable?",
                      "恢复一个包含外部写操作的节点时，哪项设计最可靠？"),
            kind: Kind::Choice {
                options: [
                    t("Assume a node that ran successfully will not run again", "假设节点成功执行过就不会再执行"),
                    t("Once the checkpointer has persisted, the remote side is executed exactly once", "只要 checkpointer 落盘，远端也一定只执行一次"),
                    t("A stable business operation ID, persisted state, and a side effect that can be queried or is idempotent under the same key", "用稳定业务 operation ID，持久化状态，并使副作用可查询或按同键幂等"),
                    t("Call the model again for a fresh set of parameters", "重新调用模型生成一组新参数"),
                ],
                answer: 2,
            },
            explanation: t("C. A ignores recovery and retries; B mistakes workflow persistence for a distributed transaction; D changes the request's content or identity and cannot replace checking the facts.",
                           "正确答案：C。A 忽略恢复和重试；B 把工作流持久化误当分布式事务；D 会改变请求内容或身份，不能替代核对事实。"),
            show: "?s=checkpoint-replay&v=operation-id&p=0001&t=6",
        },
        Question {
            id: "c3",
            prompt: t("An outbox relay publishes a message, then crashes before updating published_at. What should consumers expect?",
                      "Outbox relay 发布消息后，在更新 published_at 前崩溃。消费者应预期什么？"),
            kind: Kind::Choice {
                options: [
                    t("The message is never duplicated, because the database transaction committed", "消息绝不会重复，因为数据库事务已提交"),
                    t("The message may be duplicated; consumers apply the local effect idempotently by event ID", "消息可能重复，消费者按 event ID 幂等应用本地效果"),
                    t("The whole database transaction rolls back automatically", "整个数据库事务会自动回滚"),
                    t("It is enough to order the queue by timestamp", "只需让队列按时间戳排序"),
                ],
                answer: 1,
            },
            explanation: t("B. A ignores that the database and the queue commit separately; C: nothing rolls back across systems; D: ordering neither removes duplicates nor validates state transitions.",
                           "正确答案：B。A 忽略数据库与队列是不同提交；C 不会跨系统回滚；D 保序也不能消除重复或验证业务状态转移。"),
            show: "?s=outbox-relay&v=no-dedup&p=00003&t=17",
        },
        Question {
            id: "c4",
            prompt: t("A Node service reads the stock before awaiting a database call. Why can it still oversell?",
                      "Node 服务用 await 调用数据库之前读取库存，为什么仍可能超卖？"),
            kind: Kind::Choice {
                options: [
                    t("await makes all requests write at the same time", "await 会自动让所有请求同时写入"),
                    t("The single thread still serves other requests while waiting, and each later writes from a stale read", "单线程仍可在等待期间处理其它请求，后续按过期读数写入"),
                    t("A Promise opens a distributed transaction in the database", "Promise 会在数据库端开启分布式事务"),
                    t("Switching to a semaphore makes database writes atomic", "只要改用 Semaphore，数据库写入自然原子"),
                ],
                answer: 1,
            },
            explanation: t("B. A is inaccurate: interleaving happens at the await boundaries; C is false; D limits concurrency but does not replace a conditional update or a transaction constraint.",
                           "正确答案：B。A 不准确，交错发生在等待边界；C 不成立；D 限制并发数但不能替代库存条件更新或事务约束。"),
            show: "?s=refund-cap&v=read-then-write&t=8",
        },
        Question {
            id: "c5",
            prompt: t("Several instances claim jobs together. Does a limit of 10 concurrent jobs per instance guarantee at most 10 globally?",
                      "多个服务实例共同领取任务，限制每实例并发 10 个能否保证全局最多 10 个？"),
            kind: Kind::Choice {
                options: [
                    t("Yes: a semaphore is naturally shared across processes", "能，Semaphore 天然跨进程共享"),
                    t("Yes, as long as it runs on Node.js", "能，只要请求运行在 Node.js"),
                    t("No: global concurrency can approach instances × 10; use a shared budget or a central limit", "不能，全局并发可能接近实例数乘 10，需共享预算或集中限额"),
                    t("No: semaphores are not meant for limiting concurrency", "不能，Semaphore 不适合限制并发"),
                ],
                answer: 2,
            },
            explanation: t("C. A and B mistake a process-local mechanism for distributed coordination; D is wrong: a semaphore is exactly for limiting work in flight within a scope, but its scope must be stated.",
                           "正确答案：C。A、B 把进程本地机制误作分布式协调；D 错，Semaphore 正适合限制某作用域内在途任务，但其作用范围必须说明。"),
            show: "?s=refund-cap&v=mutex-two-instances&t=8",
        },
        Question {
            id: "c6",
            prompt: t("Which sentence best describes the relation between a checkpoint and a refund?",
                      "以下哪句话最准确地描述 checkpoint 与退款之间的关系？"),
            kind: Kind::Choice {
                options: [
                    t("Saving a checkpoint atomically commits the payment's success", "保存 checkpoint 等于支付成功结果已原子提交"),
                    t("A checkpoint restores workflow state; whether the refund happened is confirmed by the provider's state and business records", "Checkpoint 能恢复工作流状态；退款是否发生要由支付方状态和业务记录确认"),
                    t("With Temporal, an activity never runs again", "只要使用 Temporal，Activity 就永不重跑"),
                    t("Receiving a cancellation signal reverses a committed refund automatically", "只要收到取消信号，已提交退款会自动冲销"),
                ],
                answer: 1,
            },
            explanation: t("B. A confuses two systems; C ignores activity retries; D mistakes cooperative cancellation for business compensation.",
                           "正确答案：B。A 混淆两个系统；C 忽略 Activity 重试；D 把协作取消误作业务补偿。"),
            show: "?s=checkpoint-replay&v=rerun-node&p=0001&t=7",
        },
        Question {
            id: "s1",
            prompt: t("An operation is PROCESSING; the payment channel succeeded but the response was lost, and the worker exits before writing the local success. On recovery, what does each side know, and what is the safe next step?",
                      "操作为 PROCESSING，支付通道已成功但响应丢失，worker 在写本地成功状态前退出。请说明恢复时本地和外部各自掌握什么，以及安全的下一步。"),
            kind: Kind::Short {
                points: [
                    t("Tells local facts from remote ones: locally only that the operation started", "区分本地事实与远端事实：本地只能证明操作已开始"),
                    t("Reuses the stable identity: the original operation ID and downstream key", "复用稳定身份：原 operation ID 与下游幂等键"),
                    t("Queries the status, accepts a verified callback, or retries with the same key", "查询状态、接收经验证的回调或同键重试，三者之一"),
                    t("While unknown: keeps the reservation, never a new key", "结果未知时不释放预留、不换键"),
                ],
            },
            explanation: t("Locally it is only proven that the operation started; a timeout does not prove the payment failed. With the original operation ID and downstream key, query the status or accept a verified callback; on success update status and amounts in one local transaction. While still unknown, keep the reservation and reconcile or escalate; never create a new key.",
                           "本地只能证明 operation 已开始，不能从超时推断支付失败；支付方可能已完成。使用原 operation ID 和下游幂等键，查状态或接收经验证的回调；确认成功后在本地事务中更新状态与额度。结果仍未知时保留预留并对账或转人工，不创建新键。"),
            show: "?s=unknown-outcome&v=unknown-same-key&p=0002&t=5",
        },
        Question {
            id: "s2",
            prompt: t("What are an operation ID, an invocation ID and an idempotency key each for, and why should a retry not create a new business operation?",
                      "解释 operation ID、invocation ID 与幂等键分别用于什么，并说明为什么一次重试不应生成新的业务 operation。"),
            kind: Kind::Short {
                points: [
                    t("Names two of the three identities correctly", "准确说明三种身份中的两种"),
                    t("Says what the idempotency key does: ties retries of one intent to the existing result", "说明幂等键的作用：把同一意图的重试关联到既有结果"),
                    t("A retry is an attempt of the same operation, not a new intent", "指出重试不等于新意图"),
                    t("Same key with other parameters is rejected or checked", "指出同键异参要拒绝或校验"),
                ],
            },
            explanation: t("The operation ID identifies one business intent; an invocation ID one attempt of a tool or model call; the idempotency key lets the server relate retries of the same intent to the existing result. A retry is an execution attempt of the same operation, not a new intent from the user; check that the parameters' digest matches. Only a new intent gets a new operation and a new key.",
                           "Operation ID 识别一次业务意图；invocation ID 识别某次工具或模型调用尝试；幂等键让服务端把同一意图的重试关联到既有结果。重试只是同一操作的执行尝试，不代表用户提出新意图；应校验同键参数摘要一致。新业务意图才创建新 operation 和新键。"),
            show: "?s=unknown-outcome&v=changed-parameters&t=2",
        },
        Question {
            id: "s3",
            prompt: t("What do the outbox and the inbox each solve? When the consumer also calls a payment API, why can't the inbox be called an exactly-once guarantee?",
                      "Outbox 与 Inbox 各自解决什么问题？消费者还要调用支付 API 时，为什么不能把 Inbox 说成 exactly-once 保障？"),
            kind: Kind::Short {
                points: [
                    t("The outbox: business update and event in one local transaction", "说明 Outbox：业务更新与待发布事件在同一本地事务"),
                    t("The inbox: event ID and local effect committed together, duplicates recognised", "说明 Inbox 的本地原子去重"),
                    t("The payment API is another commit boundary", "指出支付属于另一个提交边界"),
                    t("Downstream recovery: operation identity, idempotency, status queries, reconciliation", "给出下游恢复办法：operation 身份、幂等、查状态、对账"),
                ],
            },
            explanation: t("The outbox puts the business update and the event to publish in one local transaction: no dual-write gap. The inbox lets the consumer record the event ID and apply the local effect in one local transaction, so duplicates are recognised. A payment API is a new external commit boundary that the inbox's local commit cannot be atomic with: it still needs an operation identity, downstream idempotency, status queries and reconciliation.",
                           "Outbox 把业务更新和待发布事件放在同一个本地事务，避免双写空洞。Inbox 让消费者在本地事务中记录 event ID 并应用本地业务效果，重复消息可被识别。支付 API 是新的外部提交边界，Inbox 的本地提交不能与支付原子化，因此仍需 operation 身份、下游幂等、查状态和对账。"),
            show: "?s=outbox-relay&v=inbox&p=00003&t=17",
        },
        Question {
            id: "s4",
            prompt: t("A Node service runs several replicas. It must protect the payment channel's concurrency and prevent over-refunding a payment. How do you handle each, and what are the limits of cancelling a request?",
                      "一个 Node 服务在多副本部署，既要保护支付通道并发，又要防止单笔支付超额退款。应如何分别处理？取消请求有什么限制？"),
            kind: Kind::Short {
                points: [
                    t("Separates resource concurrency from business consistency", "区分资源并发和业务一致性"),
                    t("Uses a shared or global limit for the channel", "使用共享/全局限额概念"),
                    t("Atomic constraints in the authoritative database for the amount", "金额不变量用权威数据库的原子约束"),
                    t("Cancellation cannot undo an external effect already done", "说明取消不能撤销既成外部效果"),
                ],
            },
            explanation: t("Channel concurrency: a semaphore with a stated scope, a shared limit, or a consumption quota. The amount invariant lives in the authoritative database: conditional updates, versions or an atomic reservation in a transaction; an in-process lock does not cover several replicas. Cancellation stops work not yet started and signals cancellable calls; a payment request already sent still needs a query or reconciliation.",
                           "通道并发用有作用域说明的 Semaphore、共享限额或队列消费配额；每笔支付的金额不变量放在权威数据库，用条件更新、版本或事务原子预留。进程内锁不够覆盖多个副本。取消信号停止尚未开始的工作并通知可取消调用；已发出的支付请求仍需查询或对账，不能由取消自动撤销。"),
            show: "?s=refund-cap&v=conditional-update&t=4",
        },
    ]
}

/// Saved progress: question id → the option chosen (`c*`) or the points checked (`s*`, a bit
/// mask). Read from untrusted storage: anything malformed is skipped, never an error.
pub fn parse_progress(raw: &str) -> Vec<(String, u8)> {
    raw.split(',')
        .filter_map(|pair| {
            let (id, v) = pair.split_once('=')?;
            let v: u8 = v.parse().ok()?;
            let known = questions().iter().any(|q| q.id == id);
            (known && v < 16).then(|| (id.to_string(), v))
        })
        .take(32)
        .collect()
}

pub fn encode_progress(p: &[(String, u8)]) -> String {
    p.iter()
        .map(|(id, v)| format!("{id}={v}"))
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::resolve;

    #[test]
    fn every_show_me_lands_on_a_valid_state_without_a_notice() {
        for q in questions() {
            let start = resolve(q.show, None);
            assert!(start.notices.is_empty(), "{}: {:?}", q.id, start.notices);
        }
    }

    #[test]
    fn progress_survives_garbage() {
        assert_eq!(
            parse_progress("c1=1,s2=5"),
            [("c1".into(), 1), ("s2".into(), 5)]
        );
        for junk in [
            "", "=", "c1=", "c1=300", "zz=1", "c1=1=2", "\u{0}", "c1=-1,,,",
        ] {
            let p = parse_progress(junk);
            assert!(p.iter().all(|(id, v)| id == "c1" && *v < 16), "{junk:?}");
        }
        assert_eq!(
            parse_progress(&encode_progress(&[("c3".into(), 2)])),
            [("c3".into(), 2)]
        );
    }
}
