//! The notes' quiz: nine multiple-choice questions (the two on dead letters are ours) with
//! their explanations, eight short-answer questions with their scoring points (the notes' own,
//! the outbox rubric, the order API's self-test) and ten interview questions in full, in Chinese (as in the notes) and English, each
//! with a "show me" link to the scenario state that demonstrates the answer. Pure data; progress is
//! kept by the page (`ui::quiz`) as a short string this module parses without trusting it.

use crate::sim::Text;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An interview follow-up: the model oral answer is the explanation; how to take the
    /// follow-up questions, and what not to say.
    Oral { follow_up: Text, avoid: Text },
    /// Four options and the index of the right one.
    Choice { options: [Text; 4], answer: u8 },
    /// The points a good answer makes (one mark each).
    Short { points: [Text; 4] },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    pub id: String,
    pub prompt: Text,
    pub kind: Kind,
    /// Why the answer is right (and the others wrong), or a model answer.
    pub explanation: Text,
    /// The query string of the state that shows it.
    pub show: String,
}

fn t(en: &str, zh: &str) -> Text {
    Text::new(en, zh)
}

/// Every question, in the notes' order.
pub fn questions() -> Vec<Question> {
    vec![
        Question {
            id: "c1".into(),
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
            show: "?s=unknown-outcome&v=mark-failed-new-key&p=000020&t=6".into(),
        },
        Question {
            id: "c2".into(),
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
            show: "?s=checkpoint-replay&v=operation-id&p=0001&t=6".into(),
        },
        Question {
            id: "c3".into(),
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
            show: "?s=outbox-relay&v=no-dedup&p=00003&t=17".into(),
        },
        Question {
            id: "c4".into(),
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
            show: "?s=refund-cap&v=read-then-write&t=8".into(),
        },
        Question {
            id: "c5".into(),
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
            show: "?s=semaphore-scope&v=per-instance-semaphore&t=6".into(),
        },
        Question {
            id: "c6".into(),
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
            show: "?s=checkpoint-replay&v=rerun-node&p=0001&t=7".into(),
        },
        Question {
            id: "c7".into(),
            prompt: t("Orders arrive at 400/s for a 60 s peak, then at 80/s; consumers complete 240/s (48 busy slots, 0.2 s per order). How many orders are queued when the peak ends, and how long until the queue is empty?",
                      "订单在 60 秒高峰内每秒到达 400 个，之后每秒 80 个；消费者每秒完成 240 个（48 个忙碌槽位，每单 0.2 秒）。高峰结束时积压多少？之后多久清空？"),
            kind: Kind::Choice {
                options: [
                    t("9,600 queued; 40 s to drain (9,600 ÷ 240)", "积压 9,600；40 秒清空（9,600 ÷ 240）"),
                    t("9,600 queued; 60 s to drain (net 160/s)", "积压 9,600；60 秒清空（净速率每秒 160）"),
                    t("24,000 queued; 100 s to drain (24,000 ÷ 240)", "积压 24,000；100 秒清空（24,000 ÷ 240）"),
                    t("Nothing queues: 48 slots always keep up", "不会积压：48 个槽位总能跟上"),
                ],
                answer: 1,
            },
            explanation: t("B. (400 − 240) × 60 s = 9,600 queued. After the peak new orders keep arriving, so the queue drains at the net 240 − 80 = 160/s: 60 s, not 9,600 ÷ 240 = 40 s (A). C counts every arrival as backlog; D: 48 slots × 1 / 0.2 s = 240/s is an upper bound that connections and channel limits only lower. Meanwhile the oldest order waits 40 s while the API answers in milliseconds: watch the oldest message's age, not the queue length.",
                           "正确答案：B。(400 − 240) × 60 秒 = 9,600 条积压。高峰后新订单还在进入，所以按净速率 240 − 80 = 每秒 160 消化：要 60 秒，而不是 9,600 ÷ 240 = 40 秒（A）。C 把所有到达都算成积压；D：48 个槽位 × 1 / 0.2 秒 = 每秒 240 只是上限，连接数和通道限流只会拉低它。与此同时最老的订单已等了 40 秒，而 API 几毫秒就应答：要看最老消息年龄，而不是队列长度。"),
            show: "?s=backpressure&v=unbounded-queue&t=12".into(),
        },
        Question {
            id: "c8".into(),
            prompt: t("A payment consumer meets m-2, a message in a schema it cannot read, at the head of its partition. What should it do?",
                      "支付消费者在分区队头遇到 m-2，一条它读不懂的 schema 的消息。它该怎么做？"),
            kind: Kind::Choice {
                options: [
                    t("Retry it in place with exponential backoff until it succeeds", "原地指数退避重试，直到成功"),
                    t("Log the error and acknowledge it, so the partition moves on", "记录错误日志并确认，让分区继续前进"),
                    t("Park it in a dead-letter store with its reason, attempts and owner, alert on its age, then acknowledge it", "连同原因、尝试次数和负责人写入死信存储，按停放时长告警，然后再确认"),
                    t("Re-publish it at the back of the partition and take the next message", "把它重新发布到分区末尾，先处理下一条"),
                ],
                answer: 2,
            },
            explanation: t("C. An unreadable schema is not a transient error: retrying in place (A) blocks the partition behind it for ever, and re-publishing (D) retries it for ever at the back. Logging and acknowledging (B) loses it: a log line has no owner and cannot be replayed. Retry only what may recover (a 503), at most a few attempts counting the first; park the rest with a record someone owns.",
                           "正确答案：C。读不懂的 schema 不是暂时性错误：原地重试（A）会让后面的消息永远堵着，重新发布（D）等于在队尾永远重试。记日志后确认（B）会丢消息：日志没有负责人，也不能重放。只重试可能恢复的错误（如 503），次数有上限且包含首次；其余的带着记录停放，由人负责。"),
            show: "?s=dead-letter&v=dead-letter&t=2".into(),
        },
        Question {
            id: "c9".into(),
            prompt: t("The consumer is fixed and reads schema v3 now. The on-call engineer wants to replay every dead letter. What must the replay do?",
                      "消费者修好了，现在能读 schema v3。值班工程师想把所有死信都重放一遍。重放必须做什么？"),
            kind: Kind::Choice {
                options: [
                    t("Nothing more: the messages were valid when they were published", "不需要额外处理：消息发布时是有效的"),
                    t("Re-check each command against the order's current state, its payments and how long the operation stays valid, and refuse a stale one", "按订单当前状态、已有支付和操作有效期逐条核对，拒绝过期命令"),
                    t("Replay each under a new message id, so the inbox does not skip it", "用新的消息标识重放，免得收件箱把它跳过"),
                    t("Replay them twice to be sure each one went through", "重放两次，确保每条都执行了"),
                ],
                answer: 1,
            },
            explanation: t("B. A parked command was right when it was written; the world moved on while it waited. A cancelled order's old charge must be refused, and a command another replay already carried out must not run again. A new message id (C) only hides a second replay from an inbox of message ids.",
                           "正确答案：B。停放的命令写下时是对的，但等待期间情况变了。已取消订单的旧扣款命令必须拒绝，另一次重放已完成的命令也不能再执行。换新的消息标识（C）只会让按消息标识去重的收件箱看不出第二次重放。"),
            show: "?s=dead-letter&v=blind-replay&p=000100&t=6".into(),
        },
        Question {
            id: "s1".into(),
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
            show: "?s=unknown-outcome&v=unknown-same-key&p=0002&t=5".into(),
        },
        Question {
            id: "s2".into(),
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
            show: "?s=unknown-outcome&v=changed-parameters&t=2".into(),
        },
        Question {
            id: "s3".into(),
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
            show: "?s=outbox-relay&v=inbox&p=00003&t=17".into(),
        },
        Question {
            id: "s4".into(),
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
            show: "?s=refund-cap&v=conditional-update&t=4".into(),
        },
        Question {
            id: "s5".into(),
            prompt: t("Design a transactional outbox for OrderCreated. What must your answer cover to score full marks?",
                      "为 OrderCreated 设计一个事务发件箱。答案要覆盖哪些内容才能拿满分？"),
            kind: Kind::Short {
                points: [
                    t("Locates the dual-write gap: the database commit and the broker send cannot commit in one local transaction, so the order change and the outbox row go in the same transaction", "准确定位双写窗口：数据库提交与消息代理发送无法由普通本地事务同时提交，把订单变更和发件箱记录放入同一事务"),
                    t("Explains at-least-once and idempotency: the relay crashing after sending and before marking sends again, so the consumer dedupes by event ID in the same transaction as its update", "解释至少一次与幂等：中继发送后、标记前崩溃会重复发送，消费者以事件 ID 去重，且与业务更新共用事务"),
                    t("Handles order and concurrency: per-aggregate order versus global order; partition keys, versions, locks or leases limit concurrent claiming", "处理顺序和并发：区分单聚合顺序与全局顺序，说明分区键、版本号、锁或租约如何限制并发领取"),
                    t("Covers operations: retry backoff, dead letters, backlog alerts, archiving and cleanup, schema evolution, not just a table", "覆盖运营边界：重试退避、死信、积压告警、归档清理和 schema 演进，而不是只给出一张表结构"),
                ],
            },
            explanation: t("Write the order and an outbox row for OrderCreated in one local transaction; a relay (polling or CDC) publishes and then marks the row. A relay that crashes after publishing and before marking publishes again, so consumers record the event ID in their own transaction with the effect. Order holds per aggregate (a partition key, a version), and claims are limited by locks or leases. Then the operations: bounded retries with backoff, dead letters with an owner, alerts on the oldest pending row, archiving, and compatible schema changes.",
                           "在同一本地事务里写订单和 OrderCreated 的发件箱记录；中继（轮询或 CDC）发布后再标记。中继发布后、标记前崩溃会再发一次，所以消费者在自己的事务里随业务效果一起记下事件 ID。顺序按聚合保证（分区键、版本号），领取用锁或租约限制并发。再加上运营：有上限的退避重试、有负责人的死信、最老待发记录的告警、归档，以及兼容的 schema 演进。"),
            show: "?s=dual-write&v=outbox&t=7".into(),
        },
        Question {
            id: "s6".into(),
            prompt: t("The order API's self-test, 1 of 3: why does a publish acknowledgement not mean the order succeeded?",
                      "订单 API 一课的自测 1/3：发布确认为什么不代表订单成功？"),
            kind: Kind::Short {
                points: [
                    t("The acknowledgement says the broker stored the message: the system accepted responsibility, nothing more", "确认只说明消息代理保存了消息：系统接下了处理责任，仅此而已"),
                    t("Success means the agreed conditions hold: stock reserved and payment confirmed", "成功意味着约定条件已满足：库存已预留、支付已确认"),
                    t("Consumers may still wait, retry, refuse (out of stock) or dead-letter the work", "消费者之后仍可能排队、重试、拒绝（库存不足）或进入死信"),
                    t("So the API answers 202 with an order id and a status URL; the order stays PROCESSING until a result", "所以 API 回 202、订单标识和查询地址；订单在有结果之前保持处理中"),
                ],
            },
            explanation: t("Accepted is not done. A publish acknowledgement means the broker holds the message; the order succeeds only when stock is reserved and payment confirmed, which consumers do later and may fail, retry or refuse. The client gets the order id and a status URL and follows the order, and the operator watches the oldest message's age: an API that answers in 200 ms can hide orders that wait 40 s.",
                           "受理不等于完成。发布确认说明消息代理拿到了消息；只有库存已预留、支付已确认，订单才算成功，而这些由消费者稍后完成，可能失败、重试或被拒绝。客户端拿到订单标识和查询地址去跟踪订单，运维盯着最老消息年龄：200 毫秒应答的 API 背后，订单可能等了 40 秒。"),
            show: "?s=order-api&v=accept-202&p=002&t=3".into(),
        },
        Question {
            id: "s7".into(),
            prompt: t("The order API's self-test, 2 of 3: why can a consumer that committed and then exited receive the message again?",
                      "订单 API 一课的自测 2/3：消费者提交后退出，为什么可能再次收到消息？"),
            kind: Kind::Short {
                points: [
                    t("It committed its effect but exited before acknowledging: the broker never heard back", "它提交了业务效果，却在确认之前退出：消息代理没有收到确认"),
                    t("At-least-once delivery redelivers an unacknowledged message", "至少一次投递会重投未确认的消息"),
                    t("So the consumer records the message or event ID with its effect, in one transaction", "所以消费者在同一事务里随业务效果记下消息或事件 ID"),
                    t("The redelivery is recognised and acknowledged without a second effect (an external call also needs a stable key)", "重投被识别后直接确认，不产生第二次效果（外部调用还需要稳定的键）"),
                ],
            },
            explanation: t("The commit and the acknowledgement are two steps: a consumer that commits and exits before acknowledging leaves the broker with an unacknowledged message, which at-least-once delivery sends again. Record the message or event ID in the same transaction as the effect, and a redelivery finds it and is acknowledged without repeating the effect; a payment call outside that transaction still needs a stable key at the provider.",
                           "提交和确认是两步：消费者提交后、确认前退出，消息代理手里就是一条未确认的消息，至少一次投递会再发一次。在同一事务里随业务效果记下消息或事件 ID，重投时查到它，直接确认，不重复效果；事务之外的支付调用，还需要支付方那边的稳定键。"),
            show: "?s=duplicate-charge&v=message-id-dedup&p=0000020&t=9".into(),
        },
        Question {
            id: "s8".into(),
            prompt: t("The order API's self-test, 3 of 3: after a payment timeout, why not charge again under a new operation key?",
                      "订单 API 一课的自测 3/3：支付超时后，为什么不能直接换个操作键重扣？"),
            kind: Kind::Short {
                points: [
                    t("A timeout is an unknown outcome: the first charge may have succeeded", "超时是结果未知：第一次扣款可能已经成功"),
                    t("A new key is a new request to the provider: it charges again", "新键对支付方就是新请求：它会再扣一次"),
                    t("Keep the payment pending and the order processing; query the original intent or retry with the same key", "支付保持待确认、订单保持处理中；查询原支付意图或用同一个键重试"),
                    t("If it cannot be queried or replayed: reconcile or hand it to a person, never a new key", "既查不到也不能重放时：对账或转人工，绝不换新键"),
                ],
            },
            explanation: t("The timeout says only that the answer did not come. The provider deduplicates by the key, so a new key is a second payment in its eyes; the first may already have succeeded. Keep the payment pending, query the original payment intent or retry under the same key (the provider replays the saved result), and reconcile before releasing anything.",
                           "超时只说明应答没来。支付方按键去重，新键在它眼里就是第二笔支付；而第一笔可能已经成功。让支付保持待确认，查询原支付意图，或用同一个键重试（支付方重放保存的结果），对账之前什么都不释放。"),
            show: "?s=unknown-outcome&v=mark-failed-new-key&p=0001&t=9".into(),
        },
        Question {
            id: "ag19".into(),
            prompt: t("AG19: After a checkpoint is saved, can an agent resume exactly where it stopped?", "AG19｜Checkpoint 保存后，Agent 能从断点精确继续吗？"),
            kind: Kind::Oral {
                follow_up: t("“And Temporal?” Workflows replay history and must be deterministic; network and model calls go into activities, which may be retried and must still be idempotent. “The node succeeded but the process died before the checkpoint?” It may run again: a success flag in memory is not a commit.", "“Temporal 呢？”工作流按历史重放，要求工作流代码确定性；网络调用、模型调用等放到 Activity。外部调用可能重试，仍要幂等。“节点成功但 checkpoint 前崩溃呢？”可能重复执行，所以不能把成功返回的内存标记当成事务提交。"),
                avoid: t("“A checkpoint is exactly-once.” “Resume continues right after the interrupt.”", "“checkpoint 就是 exactly-once”“恢复时从 interrupt 后面那一行直接接着执行”。"),
            },
            explanation: t("Say what a checkpoint's granularity is: the graph's or workflow's state at a boundary, not the process at an arbitrary instruction. On resume a node may be entered again, so code before the interrupt and its external side effects can run again; an in-memory checkpointer does not survive the process. Make the irreversible operation its own step with a stable business identity, and save the intent, the known result and what still needs checking: “workflow state saved” and “the refund happened once” are different guarantees.", "要先说明断点的粒度。Checkpoint 通常保存图或工作流的某个状态边界，不是保存整个进程的任意机器指令位置。中断恢复可能重新进入节点，所以节点前半段的代码和外部副作用可能再执行。内存里的 checkpointer 也不抗进程退出。生产上把不可逆操作做成有稳定业务身份的独立步骤；保存调用意图、已知结果和待核查状态。“工作流状态已经保存”与“外部退款只发生一次”是两个不同保证。"),
            show: "?s=checkpoint-replay&v=rerun-node&p=0001&t=7".into(),
        },
        Question {
            id: "ag20".into(),
            prompt: t("AG20: A tool call timed out, but the refund may have completed. What now?", "AG20｜工具超时，但退款可能已完成，怎么办？"),
            kind: Kind::Oral {
                follow_up: t("“Can't a database transaction solve it?” A local transaction does not cover the provider's commit; holding one open across the network settles nothing. “Call a different model and try again?” That is a new request identity; recover the original operation's facts first: reasoning again is no substitute for reconciliation.", "“有数据库事务不能解决吗？”本地事务覆盖不了独立支付系统的提交；一直持有数据库事务等网络也不解决不确定性。“换一个模型重新调用？”会制造新请求身份；先恢复原业务操作的事实，不能用重新推理代替对账。"),
                avoid: t("“Retry three times on a timeout.” “Catch the error and roll back locally, and the remote refund is undone.”", "“超时重试三次就行”“捕获异常后回滚本地事务，就等于远端退款撤销了”。"),
            },
            explanation: t("Mark it UNKNOWN, not failed. Query the provider with the stable business idempotency key and the saved request; retry with the same key only where the contract allows. Verify, deduplicate and match callbacks. If the downstream is neither idempotent nor queryable, local state cannot make an automatic retry safe: reconcile or hand it to a person. Distinguish never sent, definitely refused, known success, and sent with an unknown outcome; releasing the refundable amount while unknown lets another operation refund again.", "将结果标为 UNKNOWN，而不是直接标失败。应用用稳定的业务幂等键和已保存的请求内容，查询支付方状态；只有在契约允许时才以相同键重试。收到回调后也要验签、去重并核对请求目标。如果下游既不支持幂等也无法查询，那么不能凭本地状态保证安全自动重试，需对账或人工处理。必须区分“没发出去”“确定拒绝”“已知成功”“发出后结果未知”。在未知时提前释放可退款额度，可能让另一个操作再退款，造成累计超额。"),
            show: "?s=unknown-outcome&v=reconcile-first&p=0001003&t=7".into(),
        },
        Question {
            id: "ag21".into(),
            prompt: t("AG21: How should human approval work so that it really constrains execution?", "AG21｜人工审批怎么做，才能真的约束执行？"),
            kind: Kind::Oral {
                follow_up: t("“May the agent change parameters after approval?” Not silently: execution parameters come from the approved proposal. “The approval link is clicked twice?” Approval and execution are each idempotent; a state machine and unique constraints stop a double advance.", "“批了以后 Agent 可以修改参数吗？”不能悄悄修改；执行参数应来自被批准提案。“审批链接被重复点两次？”批准操作与执行操作各自幂等；用状态机与唯一约束阻止重复推进。"),
                avoid: t("“A ‘yes’ from the user authorises the next refund call, whatever it is.” Holding a database lock while waiting for a reply.", "“用户回复 yes 就给下一次任意 refund 调用放行”，或持有数据库锁等人回复。"),
            },
            explanation: t("Approve an immutable or versioned proposal — merchant, order, action, amount, currency, key state version, expiry, requester — not chat text that may still change. Store who approved, when, with what authority, and the proposal's digest; at execution re-check identity, the latest business constraints and that the proposal still matches, atomically (reserve, or a versioned conditional update). A change of amount or target needs a new approval; while waiting, release workers and connections and persist the waiting state.", "审批对象应该是不可变或有版本的具体提案：商家、订单、动作、金额、币种、关键状态版本、有效期和请求者，而不是一段可能继续变化的聊天文本。批准后保存批准人、时间、权限和提案摘要；执行时重新校验身份、最新业务约束与提案一致性，并原子地校验并预留资源或用版本条件更新。金额或目标变化应重新审批。暂停期间释放工作线程/数据库连接，把等待状态持久化。"),
            show: "?s=approval&v=approve-chat-text&p=002&t=4".into(),
        },
        Question {
            id: "ag29".into(),
            prompt: t("AG29: How do you turn an agent loop into a scalable backend service?", "AG29｜如何把一个 Agent 循环做成可扩展后端服务？"),
            kind: Kind::Oral {
                follow_up: t("“The browser disconnects: does the task end?” The product contract decides; durable tasks usually continue, and the disconnect only ends the subscription. “Is cancel immediate?” Stop dispatching and propagate it; side effects in progress may complete — report partial completion and what needs checking rather than erasing it.", "“浏览器断开，任务结束吗？”由产品契约决定；持久任务通常继续，断开只影响订阅。“取消是不是立即终止？”停止派发并传播取消；进行中的副作用可能完成，返回部分完成和待核查状态。"),
                avoid: t("A never-persisted while loop per request, trusting the load balancer to recover it.", "每个用户请求开一个永不落盘的 while 循环，并认为负载均衡能负责恢复。"),
            },
            explanation: t("Separate accepting the request from running the long task: create a run, return its id, let workers claim work from a durable queue or table; keep state, events and tool results in durable storage; clients follow by polling or an event stream. Give runs tenant quotas, concurrency limits, deadlines and a cancellation state. Concurrent workers must not each run a job just because they read RUNNING: claim, renew and complete with a versioned protocol. A stale worker that comes back must not overwrite newer state; a lease coordinates execution but cannot by itself stop a request the worker already sent, so external writes still rely on stable business identity and downstream idempotency.", "把请求接入与长任务执行分离：创建 run 后返回标识，由 worker 从持久任务队列或数据库领取工作；状态、事件和工具操作结果保存到持久存储，客户端用查询或事件流跟踪。为运行设置租户配额、并发限额、deadline 和取消状态。并发 worker 不能仅凭“读到状态是 RUNNING”都执行，需要带版本的领取/续租/完成协议。过期 worker 恢复后不得覆盖新状态；租约能协调执行，但不能单独阻止它已发到外部的请求，外部写仍靠稳定业务身份与下游幂等。"),
            show: "?s=lease-fencing&v=fenced&p=0100011&t=7".into(),
        },
        Question {
            id: "ag30".into(),
            prompt: t("AG30: Hand-written loop, agent SDK, LangGraph or Temporal: how do you choose?", "AG30｜手写循环、Agent SDK、LangGraph、Temporal 怎么选？"),
            kind: Kind::Oral {
                follow_up: t("“Combine them all for completeness?” Three retry policies and three states. If you layer, name the one outer recovery authority — who owns the run, who retries the model or tool, who advances approval — and let the inner layers run controlled steps. “Must I know LangChain for the interview?” The execution contract matters more than remembering an API.", "“都组合起来最完整？”很容易出现三套重试、三套状态与重复恢复。真要分层时，明确外层唯一恢复权威：谁拥有 run、谁重试模型/工具、谁推进审批；下层只执行受控步骤。“面试是不是必须会 LangChain？”执行契约比记 API 更重要。"),
                avoid: t("“Temporal and LangGraph are equivalent.” “The more frameworks, the more production-grade.”", "“Temporal 和 LangGraph 完全等价”，或“框架越多，系统就越生产级”。"),
            },
            explanation: t("A direct API with a clear loop is a fine baseline for few tools and short tasks; an SDK packages tools, handoffs, sessions and tracing; LangGraph suits explicit graph state, interrupts and checkpoints; Temporal durable workflows, retries, long waits and external activities. They overlap and can be layered. Ask how long tasks run, whether they recover across processes, wait for people, how side effects stay idempotent, and how much infrastructure the team is willing to run. Even with a graph or workflow engine, the framework does not guarantee the business database or the payment state.", "少量工具、短任务时，直接 API 加清晰循环是合理基线；SDK 提供工具、handoff、会话和 tracing 等封装；LangGraph 适合显式图状态、中断、checkpoint 与可检查的执行流程；Temporal 更侧重持久工作流、重试、长时间等待与外部活动。它们有重叠，也可以分层组合。选择前问：任务多长，是否跨进程恢复，是否人工等待，副作用如何幂等，团队愿意承担多少基础设施。即使用图或工作流引擎，业务数据库与支付状态也不由框架自动保证。"),
            show: "?s=retry-layers&v=every-layer-retries&t=27".into(),
        },
        Question {
            id: "nc05".into(),
            prompt: t("NC05: Node.js is single-threaded; why are there still concurrency and races?", "NC05｜Node.js 单线程，为什么还有并发和竞态？"),
            kind: Kind::Oral {
                follow_up: t("“Does Promise.resolve().then move heavy work to the background?” No, it still occupies the JavaScript thread. “What order do nextTick, promises and timers run in?” First pin down CommonJS or ESM, the callback's context and the version; understand nextTick, microtasks and the loop's phases rather than reciting one sequence for every environment. “How do you fix the balance race?” An atomic conditional update in the business database.", "“Promise.resolve().then 能把大计算放后台吗？”不能，计算仍会占住执行 JS 的线程。“nextTick、Promise、timer 的顺序呢？”先明确 CommonJS/ESM、回调上下文与版本；理解 nextTick/microtasks 与事件阶段即可，不盲背一个跨环境序列。“解决余额竞态？”在业务数据库做原子条件更新。"),
                avoid: t("“Node is single-threaded, so it is thread-safe and has no business races.” “A loop in an async function doesn't block.”", "“Node 单线程所以线程安全，也就没有业务并发问题”“async 函数里的循环不会阻塞”。"),
            },
            explanation: t("JavaScript callbacks run on one event-loop thread, but while one request waits for I/O others proceed: that is concurrency, not CPU-heavy JavaScript running on several cores. The thread pool and worker_threads are separate matters: move CPU-heavy work to a worker or a separate service. Business races remain: A reads the balance and awaits, B changes it meanwhile, A resumes and writes back from the stale value, and an update is lost. Promise.all only aggregates; it cancels nothing on failure and gives no atomicity.", "普通 JS 回调在一个 event loop 线程上执行，但 I/O 等待期间可让别的请求继续，所以有并发；这不等于 CPU 密集 JS 自动在多个核上并行。线程池与 worker_threads 承担的工作要分别看，CPU 密集任务可转移到 worker 或独立执行服务。单线程也有业务竞态：请求 A 读余额后 await，请求 B 在此期间修改余额，A 恢复后按旧值写回，就会丢更新。Promise.all 只是聚合，失败时不会自动取消其他请求，更不会提供事务原子性。"),
            show: "?s=refund-cap&v=lost-update&t=8".into(),
        },
        Question {
            id: "nc06".into(),
            prompt: t("NC06: Mutex, semaphore, CAS, backpressure and cancellation: how do they differ?", "NC06｜Mutex、Semaphore、CAS、背压与取消怎么区分？"),
            kind: Kind::Oral {
                follow_up: t("“One semaphore protects the cluster's quota?” With a limit per instance, total concurrency multiplies by the instances; use a global or layered budget. “Conditions for deadlock?” Mutual exclusion, hold and wait, no preemption, circular wait; a fixed lock order, short critical sections and cancellable waits reduce the risk. Shared memory also follows the language's memory model: more than single instructions being atomic.", "“开一个 semaphore 就能保护整个集群配额？”每实例各有一个上限时，总并发仍乘实例数；需要全局或分层预算。“死锁有哪些条件？”互斥、占有且等待、不可抢占、循环等待；工程上用统一锁顺序、短临界区与可取消等待减少风险。共享内存读写还要遵守语言内存模型，不只保证单条指令原子。"),
                avoid: t("“Cancelling the HTTP request undoes the remote transaction.” “An in-process mutex protects every replica.”", "“取消 HTTP 请求就撤销远端事务”“进程内互斥锁能保护所有副本”。"),
            },
            explanation: t("A mutex protects a critical section; a semaphore limits how many enter at once; CAS updates atomically when the value is as expected (optimistic concurrency); backpressure makes the upstream follow the downstream's pace instead of piling up. Their scopes differ: an in-process lock does not protect another instance, a database version condition does. Cancellation is cooperative: the callee must observe the signal, and it does not undo a write already committed. Release resources on a reliable path such as finally; when shutting a worker down, stop claiming first, then finish or record what is left to recover.", "Mutex 保护互斥临界区；Semaphore 限制同时进入的任务数；CAS 在值符合预期时原子更新；背压是让上游发起速度服从下游处理能力。它们作用范围不同：进程内锁不能保护另一个服务实例，数据库版本条件可以约束多个实例竞争的业务状态。取消通常是协作式信号。调用方发出 AbortSignal/context cancellation，被调用逻辑必须观察并响应；它不自动撤销已经提交的写操作。释放资源用 finally 等可靠路径，关闭 worker 时先停止领取，再收尾或记录待恢复任务。"),
            show: "?s=refund-cap&v=mutex-two-instances&t=8".into(),
        },
        Question {
            id: "ds01".into(),
            prompt: t("DS01: How do you make a create/refund endpoint idempotent?", "DS01｜一个创建/退款接口如何实现幂等？"),
            kind: Kind::Oral {
                follow_up: t("“Why not use the parameters' hash as the key?” Two legitimate, identical intents should not merge; identity comes from the intent, the hash guards against key reuse. “When the record expires?” Match it to the longest retry and reconciliation window and the business's unique constraints; expiry must not allow a duplicate refund.", "“为什么不直接用参数哈希作 key？”两次合法、内容相同的独立业务意图可能不应合并；身份应来自业务意图，参数哈希用来防 key 复用冲突。“幂等记录过期呢？”要与最长重试/对账窗口和业务唯一约束匹配，不能让过期自动允许重复退款。"),
                avoid: t("“SELECT first, INSERT if absent: idempotent by nature.” “Generate a new random retry key.”", "“先 SELECT 没有记录再 INSERT，所以天然幂等”“随机生成新的 retry key”。"),
            },
            explanation: t("Define the identity of one business intent: a stable key, scoped by tenant or caller. Store a hash of the normalised request, the business operation_id and its status, with a unique constraint for concurrency; same key and same parameters return the original result or progress, same key with other parameters is refused. The idempotency record must share the transaction boundary with the business write, or be the unique business operation record itself — a short-TTL Redis flag is not enough — and across a payment system reuse a stable downstream key and handle unknown outcomes and the key's retention as its contract says.", "先定义“同一次业务意图”的身份，生成稳定 key，按租户/调用主体划定作用域。服务端保存规范化请求内容的哈希、业务 operation_id 与状态，使用唯一约束处理并发；相同 key、相同参数返回原操作结果或当前进度，相同 key、不同参数应拒绝。幂等记录必须与本地业务写处于同一事务边界，或本身就是唯一业务操作记录，不能先写一个短 TTL Redis 标记就认为安全。跨支付系统时，还要复用稳定下游键并按其契约处理未知结果和键保留期限。"),
            show: "?s=unknown-outcome&v=check-then-insert&t=9".into(),
        },
        Question {
            id: "ds02".into(),
            prompt: t("DS02: The database committed but the message was never sent. What do you do?", "DS02｜数据库已提交，但消息没有发出去，怎么办？"),
            kind: Kind::Oral {
                follow_up: t("“Why not send first, then commit?” The message may be consumed and the commit roll back. “Does the outbox deliver exactly once?” No: design for retried delivery. “Retry forever?” Tell recoverable from poison messages, watch backlog and retry counts, support manual handling and replay.", "“为什么不先发 MQ，再提交 DB？”消息可能被消费而 DB 最终回滚。“Outbox 能保证消息恰好一次到达？”不能，通常按可重试投递设计。“永久重试不怕吗？”要区分可恢复/毒消息，监控积压与重试次数，支持人工处理和重放。"),
                avoid: t("“Wrap the MQ send in the database transaction: a distributed transaction.” “An outbox needs no consumer deduplication.”", "“数据库事务包住 MQ send 就成了分布式事务”“Outbox 不需要消费者去重”。"),
            },
            explanation: t("A transactional outbox: write the business data and the outbox event in one local transaction, then a relay delivers by polling or CDC. No gap where the business commit has no recoverable event. A relay that crashes after delivering and before marking can deliver twice, so consumers are idempotent: an inbox record and the business effect in one transaction, keyed by event ID; an external API call is another side-effect boundary.", "使用 Transactional Outbox：在同一本地事务里写业务数据与 outbox 事件，提交后由 relay 通过轮询或 CDC 投递消息。这样不会出现业务已提交却没有任何可恢复事件记录的双写空洞。投递成功但 relay 来不及标记就崩溃，仍可能重复投递。因此消费者也要幂等：在同一事务中写 inbox 与业务效果，用唯一事件 ID 去重；如果还调用外部 API，就再面对外部副作用边界。"),
            show: "?s=dual-write&v=commit-then-publish&p=001&t=9".into(),
        },
        Question {
            id: "ds03".into(),
            prompt: t("DS03: Do ordered queues and exactly-once make the business correct?", "DS03｜MQ 保序和 exactly-once 能保证业务正确吗？"),
            kind: Kind::Oral {
                follow_up: t("“One partition for all orders: global order?” It limits throughput and does not constrain writes that bypass the queue. “The success callback arrives before the processing one?” Use versions and the real payment state; define conflict resolution rather than keeping the last value received.", "“所有订单用一个分区就全局有序？”会限制吞吐，而且不自动约束绕开队列的写入。“付款成功回调比处理中回调先到？”用版本与真实支付状态处理；状态机要定义冲突解决，而不是覆盖最后收到的值。"),
                avoid: t("“An exactly-once MQ means never charging twice.” “Messages are ordered, so no state checks are needed.”", "“用了 exactly-once MQ，所以绝不会重复扣款”“消息有序所以不需要状态校验”。"),
            },
            explanation: t("State the scope: Kafka orders per partition; its transactions coordinate Kafka's own outputs and offsets, not arbitrary payment or database side effects, which still need commit boundaries, deduplication, idempotency or reconciliation. Don't rely on arrival order alone: events carry event_id, aggregate_id and a version, and a state machine allows legal transitions; duplicates do not apply twice, stale events do not roll state back, and a version gap means looking up the authoritative state or waiting, as the business requires — never simply dropping every late message.", "必须说清范围。Kafka 的顺序通常以分区为单位；其事务能力可以协调 Kafka 内部的输出与 offset，但外部支付/数据库副作用不会自动获得同样保证。业务处理不要只依赖到达顺序：事件带 event_id、aggregate_id 和版本号，按状态机允许合法转移。重复不重复生效，旧事件不把状态倒退；发现版本缺口时按业务选择补查权威状态或等待，不能简单丢弃所有晚到消息。"),
            show: "?s=event-order&v=version-guard&p=200&t=3".into(),
        },
    ]
}

/// Saved progress: question id → the option chosen (`c*`) or the points checked (`s*`, a bit
/// mask), kept for the questions in `known`. Read from untrusted storage: anything malformed is
/// skipped, never an error.
pub fn parse_progress(raw: &str, known: &[Question]) -> Vec<(String, u8)> {
    raw.split(',')
        .filter_map(|pair| {
            let (id, v) = pair.split_once('=')?;
            let v: u8 = v.parse().ok()?;
            let known = known.iter().any(|q| q.id == id);
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
            let start = resolve(&q.show, None);
            assert!(start.notices.is_empty(), "{}: {:?}", q.id, start.notices);
        }
    }

    /// What interviewers probe next is in the answers, in both languages (the notes' wording),
    /// and the order API's self-test, the outbox rubric and the backpressure arithmetic are asked.
    #[test]
    fn the_interview_answers_are_whole_and_the_quiz_is_complete() {
        let qs = questions();
        assert!(qs.len() >= 27, "{}", qs.len());
        let text = |id: &str| {
            let q = qs.iter().find(|q| q.id == id).expect(id);
            let mut all = vec![&q.prompt, &q.explanation];
            if let Kind::Oral { follow_up, avoid } = &q.kind {
                all.extend([follow_up, avoid]);
            }
            let en: String = all.iter().map(|t| t.en.as_str()).collect();
            let zh: String = all.iter().map(|t| t.zh.as_str()).collect();
            (en, zh)
        };
        for (id, en, zh) in [
            (
                "ag20",
                "no substitute for reconciliation",
                "不能凭本地状态保证安全自动重试",
            ),
            (
                "ag20",
                "cannot make an automatic retry safe",
                "不能用重新推理代替对账",
            ),
            (
                "ag29",
                "cannot by itself stop a request the worker already sent",
                "不能单独阻止它已发到外部的请求",
            ),
            (
                "ag30",
                "how much infrastructure",
                "团队愿意承担多少基础设施",
            ),
            ("nc05", "worker_threads", "worker_threads"),
            ("nc05", "nextTick", "nextTick"),
            ("nc06", "stop claiming first", "先停止领取"),
            ("nc06", "finally", "finally"),
            (
                "ds03",
                "never simply dropping every late message",
                "不能简单丢弃所有晚到消息",
            ),
            ("c7", "9,600", "9,600"),
            ("c7", "160/s", "每秒 160"),
            ("c7", "0.2 s", "0.2 秒"),
            ("s5", "dead letters", "死信"),
            ("s6", "publish acknowledgement", "发布确认"),
            ("s7", "committed and then exited", "提交后退出"),
            ("s8", "new operation key", "换个操作键"),
        ] {
            let (e, z) = text(id);
            assert!(e.contains(en), "{id}: {en}");
            assert!(z.contains(zh), "{id}: {zh}");
        }
    }

    #[test]
    fn progress_survives_garbage() {
        let qs = questions();
        assert_eq!(
            parse_progress("c1=1,s2=5", &qs),
            [("c1".into(), 1), ("s2".into(), 5)]
        );
        for junk in [
            "", "=", "c1=", "c1=300", "zz=1", "c1=1=2", "\u{0}", "c1=-1,,,",
        ] {
            let p = parse_progress(junk, &qs);
            assert!(p.iter().all(|(id, v)| id == "c1" && *v < 16), "{junk:?}");
        }
        assert_eq!(
            parse_progress(&encode_progress(&[("c3".into(), 2)]), &qs),
            [("c3".into(), 2)]
        );
    }
}
