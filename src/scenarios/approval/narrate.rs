//! Step narration for the approval scenario: the message, SQL or tool call that ran, and what
//! Alice's approval does (or does not) cover at that moment.
use super::*;
use crate::tx;

fn t(en: impl Into<String>, zh: impl Into<String>) -> Text {
    Text::new(en, zh)
}

const PG_DOC: &str = "postgresql.org/docs/current/transaction-iso.html";
const LG_DOC: &str = "docs.langchain.com/oss/python/langgraph/interrupts";

pub(super) fn intro(v: ApVariant) -> Text {
    let setting = t(
        "Order ord-2042 of merchant m-88 was paid 1,000.00 and is at state version 3. Agent-7 proposes a refund of 80.00 USD for a late delivery, valid until 10:15, and waits for Alice to approve it.",
        "商家 m-88 的订单 ord-2042 已支付 1,000.00，状态版本为 3。Agent-7 因延迟发货提出退款 80.00 USD，10:15 前有效，然后等待 Alice 批准。",
    );
    let what = match v {
        ApVariant::ChatText => t(
            "Here the approval is Alice's “yes” in the chat: the agent's next refund call goes through, whatever it is. After the “yes”, inject a change: the agent edits the amount, support refunds meanwhile, the approval expires, or the “yes” arrives twice.",
            "这里的批准就是 Alice 在聊天里说的“可以”：Agent 的下一次退款调用都会放行，不管内容是什么。在“可以”之后注入一个变化：Agent 改了金额、客服同时退了款、批准过期，或者“可以”到了两次。",
        ),
        ApVariant::VersionedProposal => tx!(
            "Here the proposal is a row with a digest of all its fields; approving stores that digest, and executing re-checks status, digest, expiry and the order's version in one transaction of conditional UPDATEs (READ COMMITTED re-checks each WHERE on the newest row: {PG_DOC}). Inject the same changes.",
            "这里的提案是一行数据，带有全部字段的摘要；批准时保存这个摘要，执行时在一个由条件 UPDATE 组成的事务里重新校验状态、摘要、有效期和订单版本（READ COMMITTED 下每个 WHERE 都在最新的行版本上重新判断：{PG_DOC}）。注入同样的变化。"
        ),
    };
    setting.then(&what)
}

pub(super) fn refusal_text(r: Refusal) -> Text {
    match r {
        Refusal::AlreadyExecuted => t(
            "refused: pr-1 is already EXECUTED",
            "拒绝：pr-1 已是 EXECUTED",
        ),
        Refusal::DigestDiffers => t(
            "refused: not the approved digest; propose again",
            "拒绝：摘要与批准的不符；需重新提案",
        ),
        Refusal::Expired => t(
            "refused: expired at 10:15; ask again",
            "拒绝：10:15 已过期；需重新审批",
        ),
        Refusal::VersionChanged => t(
            "refused: order is at version 4, not 3; ask again",
            "拒绝：订单已是版本 4 而非 3；需重新审批",
        ),
    }
}

pub(super) fn describe(m: &ApprovalModel, b: &ApState, a: ApAct, s: &ApState) -> StepInfo {
    let mut info = StepInfo {
        lane: AGENT,
        ..StepInfo::default()
    };
    let d = digest(AMOUNT, VERSION);
    let cx = Cx {
        s,
        chat: !m.versioned(),
        d: &d,
    };
    let chat = cx.chat;
    match a {
        ApAct::Propose if chat => cx.propose_in_chat(&mut info),
        ApAct::Propose => cx.propose(&mut info),
        ApAct::Approve | ApAct::ApproveAgain => approve(m, &mut info, a == ApAct::ApproveAgain),
        ApAct::EditAmount => cx.edit_amount(&mut info),
        ApAct::SupportRefund => cx.support_refund(&mut info),
        ApAct::Expire => cx.expire(&mut info),
        ApAct::Execute if chat => execute_chat(&mut info, b, s),
        ApAct::Execute => execute_versioned(&mut info, b, s),
    }
    info
}

fn approve(m: &ApprovalModel, info: &mut StepInfo, again: bool) {
    info.lane = ALICE;
    let d = digest(AMOUNT, VERSION);
    if !m.versioned() {
        let kind = if again {
            ArrowKind::Duplicate
        } else {
            ArrowKind::Message
        };
        info.arrow(ALICE, AGENT, t("yes", "可以"), kind);
        info.code = Some("on_message(msg):\n  if msg.sender == \"alice\" and msg.text == \"yes\":\n    resume(run)   # the next tool call is allowed".into());
        if again {
            info.mark(ALICE, MarkKind::Duplicate, "yes again", "又一个“可以”");
            info.title = t("“yes” again", "又一个“可以”");
            info.narration = t(
                "Alice's “yes” arrives a second time (a double tap, the chat client resending). The handler resumes the run again: one more refund call is allowed.",
                "Alice 的“可以”又到了一次（连点两下、聊天客户端重发）。处理函数再次恢复运行：又放行一次退款调用。",
            );
        } else {
            info.title = t("Alice: “yes”", "Alice：“可以”");
            info.narration = t(
                "Alice reads the message and replies “yes”. The run resumes; to the agent, “yes” means its next refund call is allowed, whatever it turns out to be.",
                "Alice 看了消息，回复“可以”。运行恢复；对 Agent 来说，“可以”意味着它的下一次退款调用被放行，不管那次调用是什么。",
            );
        }
        return;
    }
    info.arrow(
        ALICE,
        DB,
        t("approve", "批准"),
        if again {
            ArrowKind::Duplicate
        } else {
            ArrowKind::Message
        },
    );
    info.code = Some(format!(
        "BEGIN;\nINSERT INTO approvals (proposal_id, digest, approver, permission, approved_at)\n  VALUES ('pr-1', '{d}', 'alice', '{PERMISSION}', now())\n  ON CONFLICT (proposal_id) DO NOTHING;\nUPDATE proposals SET status = 'APPROVED'\n WHERE id = 'pr-1' AND status = 'PENDING'\n   AND digest = '{d}' AND expires_at > now();\nCOMMIT;  -- then resume the waiting run"
    ));
    if again {
        info.mark(DB, MarkKind::Dedup, "0 rows", "0 行");
        info.title = t("second click: 0 rows", "第二次点击：0 行");
        info.narration = t(
            "Alice's approval link is clicked a second time. The INSERT hits the approval already stored for pr-1 (0 rows) and the UPDATE finds no PENDING proposal (0 rows): the approval is idempotent. The handler still resumes the run (a resume may be delivered twice); executing must be idempotent too.",
            "Alice 的审批链接被点了第二次。INSERT 撞上 pr-1 已保存的批准（0 行），UPDATE 也找不到 PENDING 的提案（0 行）：批准操作是幂等的。处理函数仍然恢复了运行（恢复可能被投递两次）；执行也必须幂等。",
        );
    } else {
        info.mark(DB, MarkKind::Commit, "APPROVED", "APPROVED");
        info.title = t("Alice approves pr-1", "Alice 批准 pr-1");
        info.narration = tx!(
            "Alice opens pr-1, reads every field and clicks Approve: the approval row stores who she is, the permission she approved under ({PERMISSION}), the time and the digest {d} she saw, and pr-1 becomes APPROVED. The run resumes.",
            "Alice 打开 pr-1，看过每个字段后点击“批准”：审批行记下她是谁、她凭哪项权限批准（{PERMISSION}）、时间和她看到的摘要 {d}，pr-1 变成 APPROVED。运行恢复。"
        );
    }
}

fn execute_chat(info: &mut StepInfo, b: &ApState, s: &ApState) {
    let amount = b.agent_amount;
    let r = s.ledger.len();
    // A second refund on the same approval is a copy of the call; a first one of another
    // amount is not a copy: it is a refund that was never approved (a Fail mark says so).
    info.arrow(
        AGENT,
        PSP,
        tx!("refund {}", "退款 {}", money(amount)),
        if b.calls.is_empty() {
            ArrowKind::Message
        } else {
            ArrowKind::Duplicate
        },
    );
    let amount_sql = money(amount).replace(',', "");
    info.code = Some(format!(
        "# the tool runner: a “yes” was seen, so run the call as it stands\nrefund_tool(order=\"ord-2042\", amount={amount_sql})\n# inside the tool: no state version, no expiry, no digest\nUPDATE orders SET refunded = refunded + {amount_sql}, version = version + 1\n WHERE order_id = 'ord-2042';"
    ));
    let bad = !b.calls.is_empty() || amount != AMOUNT || b.order_version != VERSION || b.expired;
    info.marks.push(if bad {
        mark(PSP, MarkKind::Fail, "not as approved", "与批准不符")
    } else {
        mark(PSP, MarkKind::Commit, "refunded", "已退款")
    });
    info.title = tx!("refund re_{r}: {}", "退款 re_{r}：{}", money(amount));
    let head = tx!(
        "The agent has a “yes”, so the refund tool runs with the arguments the agent has now: the provider refunds {} (re_{r}).",
        "Agent 手里有一个“可以”，于是退款工具按 Agent 此刻的参数运行：支付方退款 {}（re_{r}）。",
        money(amount)
    );
    let why = if !b.calls.is_empty() {
        t(
            "This is the second refund on one approval: the second “yes” let it through.",
            "这是同一次审批下的第二笔退款：第二个“可以”放行了它。",
        )
    } else if amount != AMOUNT {
        t(
            "Alice approved 80.00; nothing compared the call with what she saw.",
            "Alice 批准的是 80.00；没有任何东西把这次调用和她看到的内容比对。",
        )
    } else if b.order_version != VERSION {
        t(
            "Support had already refunded 50.00: the order is at version 4, not the version 3 Alice approved against. 130.00 refunded for one late delivery.",
            "客服已经退了 50.00：订单是版本 4，而不是 Alice 批准时的版本 3。一次延迟发货退了 130.00。",
        )
    } else if b.expired {
        t(
            "It is 10:20: the approval expired at 10:15, but a “yes” never expires.",
            "现在是 10:20：批准在 10:15 就过期了，可“可以”永远不会过期。",
        )
    } else {
        t(
            "This time it is what Alice approved, but only because nothing changed in between.",
            "这次恰好是 Alice 批准的内容，但只是因为中间什么都没变。",
        )
    };
    info.narration = head.then(&why);
}

fn execute_versioned(info: &mut StepInfo, b: &ApState, s: &ApState) {
    let asked = digest(b.agent_amount, VERSION);
    let now = if b.expired { "10:20" } else { "10:03" };
    info.arrow(
        AGENT,
        DB,
        t("execute pr-1", "执行 pr-1"),
        ArrowKind::Message,
    );
    info.code = Some(format!(
        "BEGIN;\nUPDATE proposals SET status = 'EXECUTED', executed_at = now()\n WHERE id = 'pr-1' AND status = 'APPROVED'\n   AND digest = '{asked}'     -- the call the agent asks to make\n   AND expires_at > now();    -- now() = {now}\nUPDATE orders SET refunded = refunded + 80.00, version = version + 1\n WHERE order_id = 'ord-2042' AND version = 3;   -- the approved state version\nCOMMIT;   -- only if both said UPDATE 1; otherwise ROLLBACK\n-- then POST /v1/refunds, Idempotency-Key: pr-1, amount from the row: 80.00\n-- ({PG_DOC})"
    ));
    match s.calls.last() {
        Some(Outcome::Refunded(r)) => {
            let id = format!("re_{}", r + 1);
            info.arrow(AGENT, PSP, "pr-1 80.00", ArrowKind::Message);
            info.mark(DB, MarkKind::Commit, "EXECUTED", "EXECUTED");
            info.mark(PSP, MarkKind::Commit, "refunded", "已退款");
            info.title = tx!("execute pr-1: refund {id}", "执行 pr-1：退款 {id}");
            info.narration = tx!(
                "Both conditional UPDATEs match one row: pr-1 was APPROVED, the agent's call has the approved digest, it is before 10:15 and the order is still at version 3. COMMIT, then the provider refunds 80.00 ({id}) under the key pr-1, the amount taken from the proposal row.",
                "两个条件 UPDATE 都命中一行：pr-1 处于 APPROVED，Agent 的调用摘要与批准的一致，还没到 10:15，订单仍是版本 3。COMMIT 之后，支付方以键 pr-1 退款 80.00（{id}），金额取自提案行。"
            );
        }
        Some(Outcome::Refused(r)) => {
            info.mark(DB, MarkKind::Rollback, "UPDATE 0", "UPDATE 0");
            let (title, why) = match r {
                Refusal::AlreadyExecuted => (
                    t("again: 0 rows, already executed", "再次执行：0 行，已执行过"),
                    t(
                        "The second resume runs the execute again. pr-1 is EXECUTED, not APPROVED: UPDATE 0, nothing is sent. The one refund stands.",
                        "第二次恢复又跑了一遍执行。pr-1 已是 EXECUTED 而不是 APPROVED：UPDATE 0，什么也不发送。那一笔退款照旧有效。",
                    ),
                ),
                Refusal::DigestDiffers => (
                    t("refused: digest differs", "拒绝：摘要不符"),
                    tx!(
                        "The agent asks to execute a call whose digest is {asked}; Alice approved {}. UPDATE 0, ROLLBACK: 800.00 is a new proposal and needs a new approval.",
                        "Agent 请求执行的调用摘要是 {asked}；Alice 批准的是 {}。UPDATE 0，ROLLBACK：800.00 是一个新提案，需要重新审批。",
                        digest(AMOUNT, VERSION)
                    ),
                ),
                Refusal::Expired => (
                    t("refused: expired", "拒绝：已过期"),
                    t(
                        "It is 10:20 and pr-1 expired at 10:15: UPDATE 0, ROLLBACK. Alice must look again at the order as it is now.",
                        "现在是 10:20，pr-1 在 10:15 已过期：UPDATE 0，ROLLBACK。Alice 需要按订单现在的样子重新审批。",
                    ),
                ),
                Refusal::VersionChanged => (
                    t("refused: order changed", "拒绝：订单已变"),
                    t(
                        "The proposal still matches, but the order is at version 4 (support refunded 50.00): the UPDATE of orders WHERE version = 3 matches 0 rows, and the whole transaction rolls back. Nothing is refunded on a state Alice never saw.",
                        "提案本身还对得上，但订单已是版本 4（客服退了 50.00）：UPDATE orders … WHERE version = 3 命中 0 行，整个事务回滚。不会在 Alice 没见过的状态上退款。",
                    ),
                ),
            };
            info.title = title;
            info.narration = why;
        }
        None => {}
    }
}

/// What every step's narration reads: the state after the step, whether the approval is a
/// chat message, and the digest of the proposal as Alice saw it.
#[derive(Clone, Copy)]
struct Cx<'a> {
    s: &'a ApState,
    chat: bool,
    d: &'a str,
}

impl Cx<'_> {
    fn propose_in_chat(&self, info: &mut StepInfo) {
        info.arrow(
            AGENT,
            ALICE,
            tx!("proposal {}", "提议 {}", money(AMOUNT)),
            ArrowKind::Message,
        );
        info.code = Some("send_message(to=\"alice\",\n  text=\"Refund 80.00 USD on ord-2042? Valid until 10:15.\")".into());
        info.title = t("agent asks in the chat", "Agent 在聊天里请示");
        info.narration = t(
            "Agent-7 asks Alice in the chat: refund 80.00 USD on ord-2042? The message is all there is: no row says what exactly is being approved.",
            "Agent-7 在聊天里问 Alice：为 ord-2042 退款 80.00 USD 可以吗？只有这条消息：没有任何一行数据记下到底批准的是什么。",
        );
    }

    fn propose(&self, info: &mut StepInfo) {
        let Cx { d, .. } = *self;
        info.arrow(AGENT, DB, "INSERT pr-1", ArrowKind::Message);
        info.mark(DB, MarkKind::Commit, "pr-1 PENDING", "pr-1 PENDING");
        info.code = Some(format!(
            "INSERT INTO proposals (id, merchant, order_id, action, amount, currency,\n    state_version, expires_at, requester, digest, status)\nVALUES ('pr-1', 'm-88', 'ord-2042', 'refund', 80.00, 'USD',\n    3, '10:15', 'agent-7', '{d}', 'PENDING');"
        ));
        info.title = t("proposal pr-1 saved", "提案 pr-1 已保存");
        info.narration = tx!(
            "Agent-7 writes proposal pr-1: m-88, ord-2042, refund, 80.00 USD, state version 3, valid until 10:15, requested by agent-7, with the digest {d} of all those fields. Alice gets a link to this row, and the run's wait is saved, so no worker or connection is held while she decides.",
            "Agent-7 写入提案 pr-1：m-88、ord-2042、退款、80.00 USD、状态版本 3、10:15 前有效、请求者 agent-7，以及这些字段的摘要 {d}。Alice 收到指向这一行的链接；等待状态已持久化，她考虑期间不占用任何工作线程或数据库连接。"
        );
    }

    fn edit_amount(&self, info: &mut StepInfo) {
        let Cx { chat, d, .. } = *self;
        info.mark(AGENT, MarkKind::Write, "800.00", "800.00");
        info.code = Some("refund_args = llm.generate_tool_call(...)   # now amount=800.00".into());
        info.title = t("agent edits: 800.00", "Agent 改成 800.00");
        let after = if chat {
            t(
                "Nobody tells Alice; her “yes” is still in the chat.",
                "没人告诉 Alice；她的“可以”还留在聊天里。",
            )
        } else {
            tx!(
                "The proposal row still says 80.00 with digest {d}; the agent's arguments now hash to {}.",
                "提案行仍是 80.00，摘要 {d}；Agent 参数的摘要现在是 {}。",
                digest(EDITED, VERSION)
            )
        };
        info.narration = tx!(
            "The agent generates its tool arguments again and gets 800.00 instead of 80.00 (on resume a graph node runs again from its beginning, so arguments generated before a pause can be generated anew: {LG_DOC}).",
            "Agent 重新生成工具参数，得到 800.00 而不是 80.00（恢复时图节点从头重新运行，暂停前生成的参数可能被重新生成：{LG_DOC}）。"
        )
        .then(&after);
    }

    fn support_refund(&self, info: &mut StepInfo) {
        let Cx { s, .. } = *self;
        info.lane = DB;
        info.arrow(DB, PSP, "sup-311", ArrowKind::Message);
        info.mark(DB, MarkKind::Write, "v3 → v4", "v3 → v4");
        info.mark(PSP, MarkKind::Commit, "50.00", "50.00");
        info.code = Some("UPDATE orders SET refunded = refunded + 50.00, version = version + 1\n WHERE order_id = 'ord-2042';   -- support desk, version 3 → 4".into());
        info.title = t("support refunds 50.00", "客服退款 50.00");
        info.narration = tx!(
            "Meanwhile the customer phoned support, who refunded 50.00 for the same late delivery: ord-2042 is now at version {} with {} refunded. Alice approved 80.00 looking at version 3, with nothing refunded.",
            "与此同时客户打了客服电话，客服为同一次延迟发货退了 50.00：ord-2042 现在是版本 {}，已退 {}。Alice 批准 80.00 时看到的是版本 3，还没有任何退款。",
            s.order_version,
            money(s.order_refunded)
        );
    }

    fn expire(&self, info: &mut StepInfo) {
        let Cx { chat, .. } = *self;
        info.lane = ALICE;
        info.mark(ALICE, MarkKind::Fail, "10:15", "10:15");
        info.title = t("the approval expires", "批准过期");
        let how = if chat {
            t(
                "A “yes” in a chat has no expiry: nothing will notice.",
                "聊天里的“可以”没有有效期：没有任何东西会察觉。",
            )
        } else {
            t(
                "expires_at is in the row, and the execute checks it against now().",
                "expires_at 在这一行里，执行时会拿它和 now() 比较。",
            )
        };
        info.narration = t(
            "The agent is busy elsewhere (a slow model call, a long queue) and 10:15 passes; it is 10:20. Alice approved a refund for the next 15 minutes, not for ever.",
            "Agent 在忙别的（模型调用慢、队列很长），10:15 过去了，现在是 10:20。Alice 批准的是接下来 15 分钟内的退款，不是永久授权。",
        )
        .then(&how);
    }
}
