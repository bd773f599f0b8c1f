//! Generated from each scenario's `meta()` by `UPDATE_CONTENT=1 cargo test --test it content::`.
use super::{Blurb, Card};

#[rustfmt::skip]
pub const CARDS: &[Card] = &[
    Card {
        slug: "dual-write",
        theme: ["Dual writes and messaging", "双写与消息"],
        title: ["Dual write vs transactional outbox", "双写与事务发件箱"],
        knobs: &[],
    },
    Card {
        slug: "outbox-relay",
        theme: ["Dual writes and messaging", "双写与消息"],
        title: ["Outbox relay, duplicates and the inbox", "发件箱中继、重复投递与收件箱"],
        knobs: &[],
    },
    Card {
        slug: "duplicate-charge",
        theme: ["Dual writes and messaging", "双写与消息"],
        title: ["Duplicate charge: a redelivered payment command", "重复扣款：再次投递的支付命令"],
        knobs: &[],
    },
    Card {
        slug: "order-api",
        theme: ["Dual writes and messaging", "双写与消息"],
        title: ["The order API: accept fast, finish later, never create twice", "下单 API：快速受理、异步完成、绝不重复创建"],
        knobs: &[],
    },
    Card {
        slug: "event-order",
        theme: ["Dual writes and messaging", "双写与消息"],
        title: ["Events are a state machine: late, twice, out of order", "事件是状态机：晚到、重复、乱序"],
        knobs: &[],
    },
    Card {
        slug: "refund-cap",
        theme: ["Concurrency", "并发"],
        title: ["Refund cap: await interleaving in Node", "退款上限：Node 中 await 的交错"],
        knobs: &["cap", "amount-a", "amount-b", "amount-c"],
    },
    Card {
        slug: "semaphore-scope",
        theme: ["Concurrency", "并发"],
        title: ["Semaphore scope: 10 per instance is not 10 in total", "信号量的作用域：每实例 10 个 ≠ 全局 10 个"],
        knobs: &["instances", "local"],
    },
    Card {
        slug: "lease-fencing",
        theme: ["Concurrency", "并发"],
        title: ["Leases and fencing: a stale worker wakes up", "租约与防护令牌：过期的 worker 醒来了"],
        knobs: &[],
    },
    Card {
        slug: "backpressure",
        theme: ["Capacity and backpressure", "容量与背压"],
        title: ["Backpressure: 9,600 queued, 40 s waited", "背压：积压 9,600 条，等待 40 秒"],
        knobs: &["in-peak", "peak", "in-after", "slots", "service", "promise", "admit", "channel", "tries"],
    },
    Card {
        slug: "retry-layers",
        theme: ["Retries, timeouts and recovery", "重试、超时与恢复"],
        title: ["Retry layering: 3 × 3 × 3 = 27", "重试叠加：3 × 3 × 3 = 27"],
        knobs: &["layers", "attempts", "downstream", "fail-k", "deadline", "seed"],
    },
    Card {
        slug: "unknown-outcome",
        theme: ["Retries, timeouts and recovery", "重试、超时与恢复"],
        title: ["Unknown outcomes: the refund-timeout drill", "未知结果：退款超时演练"],
        knobs: &[],
    },
    Card {
        slug: "cancellation",
        theme: ["Retries, timeouts and recovery", "重试、超时与恢复"],
        title: ["Cancellation: an aborted request is not an undone refund", "取消：中止请求 ≠ 撤销退款"],
        knobs: &[],
    },
    Card {
        slug: "checkpoint-replay",
        theme: ["Retries, timeouts and recovery", "重试、超时与恢复"],
        title: ["Checkpoint replay: saved state is not a refund done once", "检查点重放：状态已保存 ≠ 退款只做一次"],
        knobs: &[],
    },
    Card {
        slug: "dead-letter",
        theme: ["Retries, timeouts and recovery", "重试、超时与恢复"],
        title: ["Dead letters: give up with a record, replay with a check", "死信：放弃要留记录，重放要先核对"],
        knobs: &[],
    },
    Card {
        slug: "approval",
        theme: ["Agents and human approval", "Agent 与人工审批"],
        title: ["Human approval: approve a proposal, not a chat message", "人工审批：批准提案，而不是一句聊天"],
        knobs: &[],
    },
];

/// Read by the home page only (see `Blurb`).
#[rustfmt::skip]
pub const BLURBS: &[Blurb] = &[
    Blurb {
        summary: "Commit an order and publish its event without a shared transaction: a crash in between loses the event or invents one.\n没有共同事务时提交订单并发布事件：两步之间一次崩溃，要么丢事件，要么凭空多出一个事件。",
        variants: 3,
    },
    Blurb {
        summary: "A relay that crashes between publishing and marking sent publishes again: delivery is at-least-once, so consumers must deduplicate.\n中继在发布与标记已发送之间崩溃就会再次发布：投递是至少一次，消费者必须去重。",
        variants: 6,
    },
    Blurb {
        summary: "The consumer charges, saves, and dies before acknowledging; the broker delivers again. Only a stable payment intent keeps it to one charge.\n消费者扣款、保存结果后在确认消息之前退出；消息再次投递。只有稳定的支付意图才能保证只扣一次。",
        variants: 3,
    },
    Blurb {
        summary: "Waiting for the order inside the request times out and doubles it; a 202 without a request key doubles it too; a key, a 202 and a status URL do not.\n在请求里等订单做完会超时并重复下单；没有请求键的 202 同样会重复；请求键、202 加状态地址则不会。",
        variants: 3,
    },
    Blurb {
        summary: "The order of arrival is not the order of events: a late event takes a status back, a duplicate counts twice, a gap loses a payment.\n到达顺序不是事件顺序：晚到的事件让状态倒退，重复的事件被记两次，缺口让一笔支付丢失。",
        variants: 3,
    },
    Blurb {
        summary: "Node runs one callback at a time, yet two refunds of 80 both pass a check against 100: every await lets another request in.\nNode 一次只运行一个回调，但两笔 80 的退款都能通过 100 的额度检查：每个 await 都让别的请求插进来。",
        variants: 7,
    },
    Blurb {
        summary: "Three instances, each with a semaphore of 10, put 30 calls on a channel that takes 10; a shared budget needs to survive a crash.\n三个实例各有一个大小为 10 的信号量，却让只能承受 10 个的通道收到 30 个调用；共享预算还得扛得住崩溃。",
        variants: 3,
    },
    Blurb {
        summary: "A lease decides who works; a fencing token stops a stale write; neither can recall a refund already sent — an idempotency key can.\n租约决定谁来干活；防护令牌挡住过期的写入；两者都收不回已经发出的退款——幂等键可以。",
        variants: 3,
    },
    Blurb {
        summary: "400 orders/s arrive for 60 s, consumers finish 240/s: the queue absorbs the peak, and the oldest order pays for it. Judge by age and expected wait, not length.\n60 秒内每秒到达 400 条，消费者每秒完成 240 条：队列缓冲了高峰，代价由最老的订单承担。要看消息年龄和预计等待，而不只是长度。",
        variants: 4,
    },
    Blurb {
        summary: "A workflow engine, a graph framework and an agent SDK each retry three times: one refund becomes 27 calls, and on a slow provider, 27 refunds.\n工作流引擎、图框架和 Agent SDK 各重试三次：一次退款变成 27 次调用；支付方慢时，就是 27 笔退款。",
        variants: 5,
    },
    Blurb {
        summary: "A timeout proves nothing about the other side: the refund may have happened. Mark it FAILED and retry with a new key, and the customer is refunded twice.\n超时不能证明对方没做：退款可能已经发生。标记失败再换新键重试，客户就会被退两次。",
        variants: 7,
    },
    Blurb {
        summary: "AbortSignal stops the waiting, not the provider: cancel a batch of refunds mid-flight and the screen says “cancelled” while the ledger says refunded.\nAbortSignal 停止的是等待，而不是支付方：在途中取消一批退款，屏幕说“已取消”，账本却说已退款。",
        variants: 3,
    },
    Blurb {
        summary: "A checkpoint restores the workflow, not the payment provider: a node re-run after a crash calls its tool again.\n检查点恢复的是工作流，而不是支付方：崩溃后重跑的节点会再次调用它的工具。",
        variants: 3,
    },
    Blurb {
        summary: "Retrying a poison message for ever stops the partition; giving up without a record loses it; replaying it blindly charges a cancelled order.\n永远重试毒消息会堵死分区；放弃而不留记录会丢消息；盲目重放会给已取消的订单扣款。",
        variants: 5,
    },
    Blurb {
        summary: "A “yes” in the chat lets through whatever the agent runs next. Approve an immutable proposal and re-check it atomically when executing.\n聊天里的一句“可以”会放行 Agent 接下来执行的任何东西。要批准不可变的提案，并在执行时原子地重新校验。",
        variants: 2,
    },
];
