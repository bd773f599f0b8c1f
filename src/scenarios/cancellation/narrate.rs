//! Labels and narration of the cancellation scenario, in English and Chinese.

use super::{
    amount, list, money, op_id, CaAct, CaState, CaVariant, CancellationModel, Msg, OpStatus,
    Screen, Wait, DB, PSP, SCREEN, SERVICE,
};
use crate::sim::{arrow, mark, ArrowKind, MarkKind, StepInfo, Text};

/// The rule the scenario is about, with its source.
fn cite() -> Text {
    Text::new(
        "AbortSignal is cooperative: it stops the waiting, it cannot undo a write the remote side already committed (Node.js docs, nodejs.org/api/globals.html#class-abortsignal).",
        "AbortSignal 是协作式信号：它停止的是等待，撤销不了远端已经提交的写入（Node.js 文档，nodejs.org/api/globals.html#class-abortsignal）。",
    )
}

pub(super) fn intro(v: CaVariant) -> Text {
    let base = Text::new(
        "A support agent refunds three items of order ord-1701 as batch b-9: op-1 40.00, op-2 25.00, op-3 35.00. The Node service sends them to the provider one at a time, each a fetch with the batch's AbortSignal; the screen has a Cancel button that aborts it.",
        "客服为订单 ord-1701 的三件商品发起一批退款 b-9：op-1 40.00、op-2 25.00、op-3 35.00。Node 服务逐笔发给支付方，每笔都是带着这批的 AbortSignal 的 fetch；屏幕上的“取消”按钮会中止它。",
    );
    let how = match v {
        CaVariant::CancelMeansUndone => Text::new(
            "This service treats an aborted fetch as “nothing happened”: it deletes the unfinished rows and shows “Cancelled”. Let op-2 reach the provider, then click Cancel.",
            "这个服务把中止的 fetch 当作“什么都没发生”：删掉未完成的记录，显示“已取消”。让 op-2 到达支付方，再点“取消”。",
        ),
        CaVariant::CancelThenReconcile => Text::new(
            "This service stops new work on a cancel, keeps the operation that was in flight, asks the provider what became of it, and reports partial completion. Click Cancel at the same point.",
            "这个服务在取消时停止新工作，保留在途的操作，向支付方查询它的结果，并报告部分完成。在同一个位置点“取消”。",
        ),
    };
    base.then(&how).then(&cite())
}

pub(super) fn label(m: &CancellationModel, s: &CaState, a: CaAct) -> Text {
    let cur = op_id(s.next);
    match a {
        CaAct::Start => Text::new("Agent: click “Refund 3 items”", "客服：点击“退 3 件”"),
        CaAct::Send => Text::new(
            format!("Service: send {cur} to the provider"),
            format!("服务：把 {cur} 发给支付方"),
        ),
        CaAct::Provider => match s.inbox.first() {
            Some(Msg::Refund(o)) => Text::new(
                format!("Provider: commit the refund for {}", op_id(*o)),
                format!("支付方：提交 {} 的退款", op_id(*o)),
            ),
            Some(Msg::Query(o)) => Text::new(
                format!("Provider: answer the query for {}", op_id(*o)),
                format!("支付方：回答 {} 的查询", op_id(*o)),
            ),
            None => Text::new("Provider: idle", "支付方：空闲"),
        },
        CaAct::Receive => match s.wait {
            Some(Wait::Query(o)) => Text::new(
                format!("Service: read the answer about {}", op_id(o)),
                format!("服务：读取关于 {} 的应答", op_id(o)),
            ),
            _ => Text::new(
                format!("Service: read the answer for {cur}"),
                format!("服务：读取 {cur} 的应答"),
            ),
        },
        CaAct::Abort => Text::new(
            "Service: fetch rejects with AbortError",
            "服务：fetch 以 AbortError 拒绝",
        ),
        CaAct::Timeout => Text::new("Service: fetch times out (5 s)", "服务：fetch 超时（5 秒）"),
        CaAct::Query => Text::new(
            format!("Service: ask the provider about {cur}"),
            format!("服务：向支付方查询 {cur}"),
        ),
        CaAct::QueryTimeout => Text::new(
            "Service: the query times out; ask again",
            "服务：查询超时，再问一次",
        ),
        CaAct::Finish => {
            if (s.next as usize) >= s.ops.len() {
                Text::new("Service: report the batch", "服务：报告这批结果")
            } else if m.variant == CaVariant::CancelMeansUndone {
                Text::new(
                    "Service: next fetch rejects at once (signal aborted)",
                    "服务：下一次 fetch 立即拒绝（信号已中止）",
                )
            } else {
                Text::new(
                    "Service: stop new work (signal aborted)",
                    "服务：停止新工作（信号已中止）",
                )
            }
        }
        CaAct::Cancel => Text::new("Agent: click Cancel", "客服：点击“取消”"),
        CaAct::LoseAnswer => Text::new("Lose the provider's answer", "丢失支付方的应答"),
    }
}

fn deleted_sql() -> String {
    "DELETE FROM refund_operations\n WHERE batch_id = 'b-9' AND status <> 'SUCCEEDED';".into()
}

fn set_status(o: u8, st: OpStatus) -> String {
    format!(
        "UPDATE refund_operations SET status = '{}'\n WHERE operation_id = '{}';",
        st.sql(),
        op_id(o)
    )
}

/// What the naive catch did, in words: which rows it deleted, what the screen now says.
fn gave_up(b: &CaState, s: &CaState) -> Text {
    let deleted: Vec<u8> = (0..s.ops.len() as u8)
        .filter(|&o| {
            s.ops[o as usize] == OpStatus::Deleted && b.ops[o as usize] != OpStatus::Deleted
        })
        .collect();
    let d = list(&deleted);
    let msg = CancellationModel::message(s);
    Text::new(
        format!(
            "The catch assumes nothing happened: it deletes the rows of {} and the screen says “{}”.",
            d.en, msg.en
        ),
        format!(
            "catch 认定什么都没发生：删掉 {} 的记录，屏幕显示“{}”。",
            d.zh, msg.zh
        ),
    )
}

pub(super) fn describe(m: &CancellationModel, b: &CaState, a: CaAct, s: &CaState) -> StepInfo {
    let mut info = StepInfo::default();
    let naive = m.variant == CaVariant::CancelMeansUndone;
    let cur = b.next;
    let id = op_id(cur);
    match a {
        CaAct::Start => {
            info.lane = SCREEN;
            info.title = Text::new("start batch b-9", "开始批次 b-9");
            info.arrows
                .push(arrow(SCREEN, SERVICE, "POST /batches", ArrowKind::Message));
            info.marks
                .push(mark(DB, MarkKind::Write, "3 × PENDING", "3 × PENDING"));
            info.code = Some(
                "INSERT INTO refund_operations (operation_id, batch_id, amount, status)\nVALUES ('op-1','b-9',40.00,'PENDING'), ('op-2','b-9',25.00,'PENDING'),\n       ('op-3','b-9',35.00,'PENDING');".into(),
            );
            info.narration = Text::new(
                "The agent clicks “Refund 3 items”. The service records op-1, op-2 and op-3 as PENDING and starts the batch with a new AbortController.",
                "客服点击“退 3 件”。服务把 op-1、op-2、op-3 记为 PENDING，并用一个新的 AbortController 开始这批退款。",
            );
        }
        CaAct::Send => {
            info.lane = SERVICE;
            info.title = Text::new(format!("send {id}"), format!("发送 {id}"));
            info.arrows
                .push(arrow(SERVICE, PSP, id.clone(), ArrowKind::Message));
            info.marks.push(mark(DB, MarkKind::Write, "SENT", "SENT"));
            info.code = Some(format!(
                "{}\nfetch(`${{PROVIDER}}/refunds`, {{ method: 'POST',\n  headers: {{ 'Idempotency-Key': '{id}' }}, signal }})",
                set_status(cur, OpStatus::Sent)
            ));
            info.narration = Text::new(
                format!("The service marks {id} SENT and sends its refund of {} with the batch's signal. From here on the request belongs to the network and the provider.", money(amount(cur))),
                format!("服务把 {id} 标为 SENT，带着这批的信号发出 {} 的退款请求。从这一刻起，请求就交给了网络和支付方。", money(amount(cur))),
            );
        }
        CaAct::Provider => {
            info.lane = PSP;
            match b.inbox.first() {
                Some(Msg::Refund(o)) => {
                    let o = *o;
                    let rid = op_id(o);
                    let re = format!("re_{}", s.ledger.len());
                    let listening = s.answers.len() > b.answers.len();
                    info.title = Text::new(
                        format!("provider commits {rid}"),
                        format!("支付方提交 {rid}"),
                    );
                    info.marks
                        .push(mark(PSP, MarkKind::Commit, "refunded", "已退款"));
                    if listening {
                        info.arrows
                            .push(arrow(PSP, SERVICE, "200", ArrowKind::Message));
                        info.narration = Text::new(
                            format!(
                                "The provider commits refund {re} of {} for {rid} and answers 200.",
                                money(amount(o))
                            ),
                            format!(
                                "支付方提交 {rid} 的退款 {re}（{}），应答 200。",
                                money(amount(o))
                            ),
                        );
                    } else {
                        info.arrows
                            .push(arrow(PSP, SERVICE, "200", ArrowKind::Lost));
                        info.narration = Text::new(
                            format!("The request was already on its way, so the cancel did not stop it: the provider commits refund {re} of {} for {rid}. Its 200 goes to a connection nobody is reading any more.", money(amount(o))),
                            format!("请求早已在路上，取消拦不住它：支付方提交 {rid} 的退款 {re}（{}）。它的 200 发往一个已经没人读的连接。", money(amount(o))),
                        );
                    }
                }
                Some(Msg::Query(o)) => {
                    let rid = op_id(*o);
                    let found = s.ledger.contains(o);
                    info.title = Text::new(
                        format!("provider answers about {rid}"),
                        format!("支付方回答 {rid}"),
                    );
                    info.arrows.push(arrow(
                        PSP,
                        SERVICE,
                        if found {
                            Text::new("found", "找到")
                        } else {
                            Text::new("not found", "未找到")
                        },
                        ArrowKind::Message,
                    ));
                    info.narration = if found {
                        Text::new(
                            format!("The provider looks up the Idempotency-Key {rid}: refund found, succeeded."),
                            format!("支付方按 Idempotency-Key {rid} 查找：找到了退款，已成功。"),
                        )
                    } else {
                        Text::new(
                            format!("The provider looks up the Idempotency-Key {rid}: no refund."),
                            format!("支付方按 Idempotency-Key {rid} 查找：没有退款。"),
                        )
                    };
                }
                None => {}
            }
        }
        CaAct::Receive => {
            info.lane = SERVICE;
            let st = s.ops.get(cur as usize).copied();
            info.marks.push(mark(
                DB,
                MarkKind::Write,
                st.map(|x| x.sql()).unwrap_or(""),
                st.map(|x| x.sql()).unwrap_or(""),
            ));
            if let Some(st) = st {
                info.code = Some(set_status(cur, st));
            }
            info.title = Text::new(
                format!("{id} {}", st.map(|x| x.sql()).unwrap_or("")),
                format!("{id} 记为 {}", st.map(|x| x.sql()).unwrap_or("")),
            );
            info.narration = match b.wait {
                Some(Wait::Query(_)) if st == Some(OpStatus::Succeeded) => Text::new(
                    format!("The provider's answer settles it: {id} was refunded. The service records SUCCEEDED, the fact the screen must report."),
                    format!("支付方的应答给出了结论：{id} 已经退款。服务记下 SUCCEEDED，这是屏幕必须报告的事实。"),
                ),
                Some(Wait::Query(_)) => Text::new(
                    format!("The provider has no refund for {id}: the service records NOT_EXECUTED."),
                    format!("支付方没有 {id} 的退款：服务记下 NOT_EXECUTED。"),
                ),
                _ => Text::new(
                    format!("The answer arrives in time: {id} SUCCEEDED, and the screen counts it."),
                    format!("应答及时到达：{id} SUCCEEDED，屏幕把它计入。"),
                ),
            };
        }
        CaAct::Abort => {
            info.lane = SERVICE;
            info.title = Text::new(format!("{id}: AbortError"), format!("{id}：AbortError"));
            info.marks
                .push(mark(SERVICE, MarkKind::Fail, "AbortError", "AbortError"));
            let fate = if b.ledger.contains(&cur) {
                Text::new(
                    format!("The provider has already committed {id}; only the answer was still on its way."),
                    format!("支付方已经提交了 {id}，只是应答还在路上。"),
                )
            } else {
                Text::new(
                    format!("The request for {id} is already at the provider, which will still process it."),
                    format!("{id} 的请求已经到了支付方，支付方照样会处理它。"),
                )
            };
            let head = Text::new(
                "The aborted signal makes the awaited fetch reject with AbortError: the service stops waiting.",
                "信号已中止，正在等待的 fetch 以 AbortError 拒绝：服务停止等待。",
            )
            .then(&fate);
            if naive {
                info.code = Some(deleted_sql());
                info.marks
                    .push(mark(DB, MarkKind::Rollback, "deleted", "已删除"));
                info.arrows.push(arrow(
                    SERVICE,
                    SCREEN,
                    Text::new("shown", "已显示"),
                    ArrowKind::Message,
                ));
                info.narration = head.then(&gave_up(b, s));
            } else {
                info.code = Some(set_status(cur, OpStatus::CancelRequested));
                info.marks.push(mark(
                    DB,
                    MarkKind::Write,
                    "CANCEL_REQUESTED",
                    "CANCEL_REQUESTED",
                ));
                info.narration = head.then(&Text::new(
                    format!("So the service keeps {id} as CANCEL_REQUESTED: its outcome is not known yet, and it will ask."),
                    format!("所以服务保留 {id}，标为 CANCEL_REQUESTED：结果还不知道，它会去查询。"),
                ));
            }
        }
        CaAct::Timeout => {
            info.lane = SERVICE;
            info.title = Text::new(format!("{id}: timeout"), format!("{id}：超时"));
            info.marks.push(mark(
                SERVICE,
                MarkKind::Fail,
                "TimeoutError",
                "TimeoutError",
            ));
            let head = Text::new(
                format!("No answer for {id}: AbortSignal.timeout(5000) fires and the fetch rejects with TimeoutError. A timeout is an abort too; it says nothing about the provider."),
                format!("{id} 没有应答：AbortSignal.timeout(5000) 触发，fetch 以 TimeoutError 拒绝。超时也是一种中止，它说明不了支付方做了什么。"),
            );
            if naive {
                info.code = Some(deleted_sql());
                info.marks
                    .push(mark(DB, MarkKind::Rollback, "deleted", "已删除"));
                info.narration = head.then(&gave_up(b, s));
            } else {
                info.code = Some(set_status(cur, OpStatus::Unknown));
                info.marks
                    .push(mark(DB, MarkKind::Write, "UNKNOWN", "UNKNOWN"));
                info.narration = head.then(&Text::new(
                    format!("The service records {id} as UNKNOWN and will ask the provider."),
                    format!("服务把 {id} 记为 UNKNOWN，并会去问支付方。"),
                ));
            }
        }
        CaAct::Query => {
            info.lane = SERVICE;
            info.title = Text::new(format!("ask about {id}"), format!("查询 {id}"));
            info.arrows
                .push(arrow(SERVICE, PSP, format!("? {id}"), ArrowKind::Message));
            info.code = Some(format!(
                "provider.findRefund('{id}', {{ signal: AbortSignal.timeout(5000) }})"
            ));
            let behind = b.inbox.contains(&Msg::Refund(cur));
            info.narration = Text::new(
                format!("The service asks the provider for the refund with Idempotency-Key {id}. The query is not tied to the agent's signal: cancelling must not stop the service from finding out."),
                format!("服务向支付方查询 Idempotency-Key 为 {id} 的退款。这个查询不挂在客服的信号上：取消不能让服务连结果都不查。"),
            )
            .then(&if behind {
                Text::new(
                    "The provider handles the connection's requests in order: the refund request first, then the query.",
                    "支付方按顺序处理这条连接上的请求：先处理退款请求，再回答查询。",
                )
            } else {
                Text::default()
            });
        }
        CaAct::QueryTimeout => {
            info.lane = SERVICE;
            info.title = Text::new("query timed out", "查询超时");
            info.marks
                .push(mark(SERVICE, MarkKind::Fail, "timeout", "超时"));
            info.narration = Text::new(
                format!("The answer to the query was lost. The outcome of {id} is still unknown, so the service asks again rather than guess."),
                format!("查询的应答丢了。{id} 的结果仍然未知，所以服务再问一次，而不是去猜。"),
            );
        }
        CaAct::Finish => {
            info.lane = SERVICE;
            let msg = CancellationModel::message(s);
            info.arrows.push(arrow(
                SERVICE,
                SCREEN,
                Text::new("shown", "已显示"),
                ArrowKind::Message,
            ));
            info.title = Text::new("report to the screen", "向屏幕报告");
            if (b.next as usize) >= b.ops.len() {
                info.code = Some("screen.show('Done: 3 of 3 refunded')".into());
                info.narration = Text::new(
                    format!("Every operation is settled; the screen says “{}”.", msg.en),
                    format!("每个操作都有了结论；屏幕显示“{}”。", msg.zh),
                );
            } else if naive {
                info.code = Some(deleted_sql());
                info.marks
                    .push(mark(DB, MarkKind::Rollback, "deleted", "已删除"));
                info.narration = Text::new(
                    format!("The next fetch, for {id}, is called with an aborted signal and rejects at once; nothing is sent."),
                    format!("下一次 fetch（{id}）带着已中止的信号调用，立即拒绝；什么也没发出去。"),
                )
                .then(&gave_up(b, s));
            } else {
                info.code = Some("UPDATE refund_operations SET status = 'NOT_EXECUTED'\n WHERE batch_id = 'b-9' AND status = 'PENDING';".into());
                info.marks
                    .push(mark(DB, MarkKind::Write, "NOT_EXECUTED", "NOT_EXECUTED"));
                info.narration = Text::new(
                    format!("The loop sees signal.aborted and sends nothing more: what was never sent is NOT_EXECUTED, certainly. The screen reports partial completion: “{}”.", msg.en),
                    format!("循环看到 signal.aborted，不再发送：从没发出的操作肯定没执行，记为 NOT_EXECUTED。屏幕报告部分完成：“{}”。", msg.zh),
                );
            }
        }
        CaAct::Cancel => {
            info.lane = SCREEN;
            info.title = Text::new("agent cancels", "客服取消");
            info.marks
                .push(mark(SCREEN, MarkKind::Crash, "Cancel", "取消"));
            info.arrows.push(arrow(
                SCREEN,
                SERVICE,
                Text::new("cancel", "取消"),
                ArrowKind::Message,
            ));
            info.code = Some("controllers.get('b-9').abort()".into());
            let where_ = match b.wait {
                Some(Wait::Refund(o)) if b.ledger.contains(&o) => Text::new(
                    format!(
                        "{} is already committed at the provider; its answer is on the way.",
                        op_id(o)
                    ),
                    format!("{} 在支付方已经提交，应答正在路上。", op_id(o)),
                ),
                Some(Wait::Refund(o)) => Text::new(
                    format!(
                        "The request for {} is in flight, not yet committed.",
                        op_id(o)
                    ),
                    format!("{} 的请求在途中，还没有提交。", op_id(o)),
                ),
                _ => Text::new("No request is in flight right now.", "此刻没有在途的请求。"),
            };
            info.narration = Text::new(
                "The agent clicks Cancel; the service calls controller.abort(). The signal only tells the code that is waiting to stop waiting.",
                "客服点击“取消”；服务调用 controller.abort()。这个信号只是告诉正在等待的代码：别等了。",
            )
            .then(&where_);
        }
        CaAct::LoseAnswer => {
            info.lane = PSP;
            info.title = Text::new("answer lost", "应答丢失");
            info.marks
                .push(mark(PSP, MarkKind::Crash, "answer lost", "应答丢失"));
            let what = match b.answers.first() {
                Some((Msg::Refund(o), _)) => Text::new(
                    format!("The provider's 200 for {} is lost on the way back; the refund itself is committed.", op_id(*o)),
                    format!("支付方给 {} 的 200 在回程中丢了；退款本身已经提交。", op_id(*o)),
                ),
                Some((Msg::Query(o), _)) => Text::new(
                    format!("The provider's answer to the query about {} is lost.", op_id(*o)),
                    format!("支付方对 {} 查询的应答丢了。", op_id(*o)),
                ),
                None => Text::default(),
            };
            info.narration = what;
        }
    }
    if let Screen::Told { .. } = s.screen {
        if !matches!(b.screen, Screen::Told { .. }) && info.arrows.iter().all(|x| x.to != SCREEN) {
            info.arrows.push(arrow(
                SERVICE,
                SCREEN,
                Text::new("shown", "已显示"),
                ArrowKind::Message,
            ));
        }
    }
    info
}
