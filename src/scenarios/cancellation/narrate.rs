//! Labels and narration of the cancellation scenario, in English and Chinese.

use super::{
    amount, list, money, op_id, CaAct, CaState, CaVariant, CancellationModel, Msg, OpStatus,
    Screen, DB, PSP, SCREEN, SERVICE,
};
use crate::sim::{arrow, Arrow, ArrowKind, MarkKind, StepInfo, Text};
use crate::tx;

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
        CaVariant::CancelThenAskOnce => Text::new(
            "This service stops new work on a cancel, keeps the operation that was in flight and asks the provider once; “not found” becomes NOT_EXECUTED. Click Cancel before the provider commits op-1, then let the query overtake the refund.",
            "这个服务在取消时停止新工作，保留在途的操作，只向支付方查询一次；“没有”就记为 NOT_EXECUTED。在支付方提交 op-1 之前点“取消”，再让查询抢在退款前面。",
        ),
        CaVariant::CancelThenReconcile => Text::new(
            "This service keeps an outcome unknown until the provider can no longer run the request: after a cancel it voids the request by its key, after a timeout it sends it again with the same key. (Waiting out the provider's processing window would settle it too.) It reports partial completion. Cancel anywhere, and let any request overtake another.",
            "这个服务在支付方再也不能执行请求之前，一直把结果当作未知：取消后按键作废请求，超时后用同一个键重发。（等过支付方的处理时限也能有定论。）它报告部分完成。在任何时候取消，让任何请求抢先都行。",
        ),
    };
    base.then(&how).then(&cite())
}

pub(super) fn label(m: &CancellationModel, s: &CaState, a: CaAct) -> Text {
    let cur = op_id(s.next);
    match a {
        CaAct::Start => Text::new("Agent: click “Refund 3 items”", "客服：点击“退 3 件”"),
        CaAct::Send => tx!(
            "Service: send {cur} to the provider",
            "服务：把 {cur} 发给支付方"
        ),
        CaAct::Provider => match s.inbox.first() {
            Some(&m) => provider_label(s, m),
            None => Text::new("Provider: idle", "支付方：空闲"),
        },
        CaAct::Overtake => overtake_label(s),
        CaAct::Receive => match s.wait {
            Some(Msg::Query(o) | Msg::Void(o)) => tx!(
                "Service: read the answer about {}",
                "服务：读取关于 {} 的应答",
                op_id(o)
            ),
            _ => tx!(
                "Service: read the answer for {cur}",
                "服务：读取 {cur} 的应答"
            ),
        },
        CaAct::Abort => Text::new(
            "Service: fetch rejects with AbortError",
            "服务：fetch 以 AbortError 拒绝",
        ),
        CaAct::Timeout => Text::new("Service: fetch times out (5 s)", "服务：fetch 超时（5 秒）"),
        CaAct::Query => tx!(
            "Service: ask the provider about {cur}",
            "服务：向支付方查询 {cur}"
        ),
        CaAct::Void => tx!("Service: void {cur} by its key", "服务：按键作废 {cur}"),
        CaAct::Retry => tx!(
            "Service: send {cur} again, same key",
            "服务：用同一个键再发 {cur}"
        ),
        CaAct::AskTimeout => Text::new(
            "Service: no answer in time; ask again",
            "服务：没有及时应答，再问一次",
        ),
        CaAct::Finish => finish_label(m, s),
        CaAct::Cancel => Text::new("Agent: click Cancel", "客服：点击“取消”"),
        CaAct::LoseAnswer => Text::new("Lose the provider's answer", "丢失支付方的应答"),
    }
}

/// The provider handling the second request first, as a fault's label.
fn overtake_label(s: &CaState) -> Text {
    match s.inbox.get(1) {
        Some(&m) => {
            let what = provider_label(s, m);
            Text::new(
                format!("⚡ Overtake: {}", what.en.trim_start_matches("Provider: ")),
                format!("⚡ 抢先：{}", what.zh.trim_start_matches("支付方：")),
            )
        }
        None => Text::new("⚡ Overtake", "⚡ 抢先"),
    }
}

/// What finishing means: the report, or (after a cancel) stopping new work.
fn finish_label(m: &CancellationModel, s: &CaState) -> Text {
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

/// What the provider does with request `m`, as a move.
fn provider_label(s: &CaState, m: Msg) -> Text {
    let id = op_id(m.op());
    match m {
        Msg::Refund(o) if s.voided.contains(&o) => tx!(
            "Provider: refuse the refund for {id} (key voided)",
            "支付方：拒绝 {id} 的退款（键已作废）"
        ),
        Msg::Refund(_) => tx!(
            "Provider: commit the refund for {id}",
            "支付方：提交 {id} 的退款"
        ),
        Msg::Query(_) => tx!(
            "Provider: answer the query for {id}",
            "支付方：回答 {id} 的查询"
        ),
        Msg::Void(_) => tx!("Provider: void the key {id}", "支付方：作废键 {id}"),
    }
}

/// The provider handles request `m`: commits or refuses a refund, answers a query, voids a key.
fn provider_step(info: &mut StepInfo, b: &CaState, s: &CaState, m: Msg) {
    info.lane = PSP;
    let rid = op_id(m.op());
    let heard = s.answers.len() > b.answers.len();
    match m {
        Msg::Refund(o) => refund_step(info, b, s, o, &rid, heard),
        Msg::Query(o) => query_step(info, s, o, &rid, heard),
        Msg::Void(o) => void_step(info, b, s, o, &rid, heard),
    }
}

/// The provider's answer to the service: an arrow that arrives, or is lost if nobody listens.
fn back(heard: bool, label: Text) -> Arrow {
    let kind = if heard {
        ArrowKind::Message
    } else {
        ArrowKind::Lost
    };
    arrow(PSP, SERVICE, label, kind)
}

/// The provider handles refund `o`: refused (voided), replayed (same key), or committed.
fn refund_step(info: &mut StepInfo, b: &CaState, s: &CaState, o: u8, rid: &str, heard: bool) {
    if b.voided.contains(&o) {
        info.title = tx!("{rid} refused: voided", "{rid} 被拒：已作废");
        info.mark(PSP, MarkKind::Dedup, "refused", "已拒绝");
        info.arrows.push(back(heard, Text::same("409")));
        info.narration = tx!(
            "The refund for {rid} arrives after its key was voided: the provider refuses it. Nothing is refunded, which is what the service recorded.",
            "{rid} 的退款在它的键被作废之后才到：支付方拒绝它。什么都没退，与服务记下的一致。"
        );
    } else if b.ledger.contains(&o) {
        info.title = tx!("replay {rid}", "重放 {rid}");
        info.mark(PSP, MarkKind::Dedup, "replayed", "重放");
        info.arrows.push(back(heard, Text::same("200")));
        info.narration = tx!(
            "The provider already has a refund under the key {rid}: it replays the saved result instead of refunding again.",
            "支付方在键 {rid} 下已经有一笔退款：它重放保存的结果，不会再退一次。"
        );
    } else {
        let re = format!("re_{}", s.ledger.len());
        info.title = tx!("provider commits {rid}", "支付方提交 {rid}");
        info.mark(PSP, MarkKind::Commit, "refunded", "已退款");
        info.arrows.push(back(heard, Text::same("200")));
        info.narration = if heard {
            tx!(
                "The provider commits refund {re} of {} for {rid} and answers 200.",
                "支付方提交 {rid} 的退款 {re}（{}），应答 200。",
                money(amount(o))
            )
        } else {
            tx!(
                "The request was already on its way, so the cancel did not stop it: the provider commits refund {re} of {} for {rid}. Its 200 goes to a connection nobody is reading any more.",
                "请求早已在路上，取消拦不住它：支付方提交 {rid} 的退款 {re}（{}）。它的 200 发往一个已经没人读的连接。",
                money(amount(o))
            )
        };
    }
}

/// The provider answers a query about `o` by its key: found, or not (yet).
fn query_step(info: &mut StepInfo, s: &CaState, o: u8, rid: &str, heard: bool) {
    let found = s.ledger.contains(&o);
    info.title = tx!("provider answers about {rid}", "支付方回答 {rid}");
    info.arrows.push(back(
        heard,
        if found {
            Text::new("found", "找到")
        } else {
            Text::new("not found", "未找到")
        },
    ));
    info.narration = if found {
        tx!(
            "The provider looks up the Idempotency-Key {rid}: refund found, succeeded.",
            "支付方按 Idempotency-Key {rid} 查找：找到了退款，已成功。"
        )
    } else {
        tx!(
            "The provider looks up the Idempotency-Key {rid}: no refund, yet. “Not found” says nothing about a request still on its way.",
            "支付方按 Idempotency-Key {rid} 查找：还没有退款。“没有”说明不了仍在路上的请求。"
        )
    };
}

/// The provider voids `o`'s key, unless it has already refunded under it.
fn void_step(info: &mut StepInfo, b: &CaState, s: &CaState, o: u8, rid: &str, heard: bool) {
    if s.ledger.contains(&o) {
        info.title = tx!("{rid} already refunded", "{rid} 已经退款");
        info.arrows
            .push(back(heard, Text::new("already refunded", "已经退款")));
        info.narration = tx!(
            "The provider cannot void {rid}: it has already refunded under that key, and says so. That settles it: SUCCEEDED.",
            "支付方无法作废 {rid}：它已经在这个键下退了款，并如实回答。结论已定：SUCCEEDED。"
        );
    } else {
        info.title = tx!("provider voids {rid}", "支付方作废 {rid}");
        info.mark(PSP, MarkKind::Write, "voided", "已作废");
        info.arrows.push(back(heard, Text::new("voided", "已作废")));
        let late = b.inbox.contains(&Msg::Refund(o));
        info.narration = Text::new(
            format!("The provider has no refund under {rid} and voids the key: from now on a refund under it is refused{}. That settles it: NOT_EXECUTED, for certain.", if late { ", including the one still on its way" } else { "" }),
            format!("支付方在 {rid} 下没有退款，于是作废这个键：此后这个键下的退款一律拒绝{}。结论已定：肯定没执行，NOT_EXECUTED。", if late { "，包括还在路上的那一笔" } else { "" }),
        );
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
    let id = op_id(b.next);
    let cx = Cx {
        m,
        b,
        s,
        naive: m.variant == CaVariant::CancelMeansUndone,
        cur: b.next,
        id: &id,
    };
    match a {
        CaAct::Start => cx.start(&mut info),
        CaAct::Send => cx.send(&mut info),
        CaAct::Provider => cx.provider(&mut info),
        CaAct::Overtake => cx.overtake(&mut info),
        CaAct::Receive => cx.receive(&mut info),
        CaAct::Abort => cx.abort(&mut info),
        CaAct::Timeout => cx.timeout(&mut info),
        CaAct::Query => cx.query(&mut info),
        CaAct::Void => cx.void(&mut info),
        CaAct::Retry => cx.retry(&mut info),
        CaAct::AskTimeout => cx.ask_timeout(&mut info),
        CaAct::Finish => cx.finish(&mut info),
        CaAct::Cancel => cx.cancel(&mut info),
        CaAct::LoseAnswer => cx.lose_answer(&mut info),
    }
    if let Screen::Told { .. } = s.screen {
        if !matches!(b.screen, Screen::Told { .. }) && info.arrows.iter().all(|x| x.to != SCREEN) {
            info.arrow(
                SERVICE,
                SCREEN,
                Text::new("shown", "已显示"),
                ArrowKind::Message,
            );
        }
    }
    info
}

/// What every step's narration reads: the model, the states before and after, and the
/// operation the service was on before the step.
#[derive(Clone, Copy)]
struct Cx<'a> {
    m: &'a CancellationModel,
    b: &'a CaState,
    s: &'a CaState,
    naive: bool,
    cur: u8,
    id: &'a str,
}

impl Cx<'_> {
    fn start(&self, info: &mut StepInfo) {
        info.lane = SCREEN;
        info.title = Text::new("start batch b-9", "开始批次 b-9");
        info.arrow(SCREEN, SERVICE, "POST /batches", ArrowKind::Message);
        info.mark(DB, MarkKind::Write, "3 × PENDING", "3 × PENDING");
        info.code = Some(
            "INSERT INTO refund_operations (operation_id, batch_id, amount, status)\nVALUES ('op-1','b-9',40.00,'PENDING'), ('op-2','b-9',25.00,'PENDING'),\n       ('op-3','b-9',35.00,'PENDING');".into(),
        );
        info.narration = Text::new(
            "The agent clicks “Refund 3 items”. The service records op-1, op-2 and op-3 as PENDING and starts the batch with a new AbortController.",
            "客服点击“退 3 件”。服务把 op-1、op-2、op-3 记为 PENDING，并用一个新的 AbortController 开始这批退款。",
        );
    }

    fn send(&self, info: &mut StepInfo) {
        let Cx { cur, id, .. } = *self;
        info.lane = SERVICE;
        info.title = tx!("send {id}", "发送 {id}");
        info.arrow(SERVICE, PSP, id, ArrowKind::Message);
        info.mark(DB, MarkKind::Write, "SENT", "SENT");
        info.code = Some(format!(
            "{}\nfetch(`${{PROVIDER}}/refunds`, {{ method: 'POST',\n  headers: {{ 'Idempotency-Key': '{id}' }}, signal }})",
            set_status(cur, OpStatus::Sent)
        ));
        info.narration = tx!(
            "The service marks {id} SENT and sends its refund of {} with the batch's signal. From here on the request belongs to the network and the provider.",
            "服务把 {id} 标为 SENT，带着这批的信号发出 {} 的退款请求。从这一刻起，请求就交给了网络和支付方。",
            money(amount(cur))
        );
    }

    fn provider(&self, info: &mut StepInfo) {
        let Cx { b, s, .. } = *self;
        if let Some(&m) = b.inbox.first() {
            provider_step(info, b, s, m);
        }
    }

    fn overtake(&self, info: &mut StepInfo) {
        let Cx { b, s, .. } = *self;
        if let Some(&m) = b.inbox.get(1) {
            provider_step(info, b, s, m);
            let first = op_id(b.inbox[0].op());
            info.mark(PSP, MarkKind::Crash, "overtakes", "抢先");
            info.narration = tx!(
                "⚡ This request came on a new connection and reaches the provider before the refund for {first} still on the old one; nothing orders two connections.",
                "⚡ 这个请求走的是新连接，比还在旧连接上的 {first} 退款先到支付方；两条连接之间没有先后顺序。"
            )
            .then(&info.narration);
        }
    }

    fn receive(&self, info: &mut StepInfo) {
        let Cx { b, s, cur, id, .. } = *self;
        info.lane = SERVICE;
        let st = s.ops.get(cur as usize).copied();
        info.mark(
            DB,
            MarkKind::Write,
            st.map(|x| x.sql()).unwrap_or(""),
            st.map(|x| x.sql()).unwrap_or(""),
        );
        if let Some(st) = st {
            info.code = Some(set_status(cur, st));
        }
        info.title = tx!("{id} {}", "{id} 记为 {}", st.map(|x| x.sql()).unwrap_or(""));
        info.narration = match b.wait {
            Some(Msg::Query(_) | Msg::Void(_)) if st == Some(OpStatus::Succeeded) => tx!(
                "The provider's answer settles it: {id} was refunded. The service records SUCCEEDED, the fact the screen must report.",
                "支付方的应答给出了结论：{id} 已经退款。服务记下 SUCCEEDED，这是屏幕必须报告的事实。"
            ),
            Some(Msg::Void(_)) => tx!(
                "The key {id} is voided: the provider will never refund under it. The service records NOT_EXECUTED, and it is true.",
                "键 {id} 已作废：支付方永远不会在这个键下退款。服务记下 NOT_EXECUTED，这是真的。"
            ),
            Some(Msg::Query(o)) if s.may_run(o) => tx!(
                "The provider had no refund for {id} when it looked, and the service records NOT_EXECUTED. But the refund request is still at the provider, and nothing stops it from running.",
                "支付方查的时候没有 {id} 的退款，服务就记下 NOT_EXECUTED。可退款请求还在支付方手里，没有什么能拦住它执行。"
            ),
            Some(Msg::Query(_)) => tx!(
                "The provider has no refund for {id}: the service records NOT_EXECUTED.",
                "支付方没有 {id} 的退款：服务记下 NOT_EXECUTED。"
            ),
            _ => tx!(
                "The answer arrives in time: {id} SUCCEEDED, and the screen counts it.",
                "应答及时到达：{id} SUCCEEDED，屏幕把它计入。"
            ),
        };
    }

    fn abort(&self, info: &mut StepInfo) {
        let Cx {
            m,
            b,
            s,
            naive,
            cur,
            id,
        } = *self;
        info.lane = SERVICE;
        info.title = tx!("{id}: AbortError", "{id}：AbortError");
        info.mark(SERVICE, MarkKind::Fail, "AbortError", "AbortError");
        let fate = if b.ledger.contains(&cur) {
            tx!(
                "The provider has already committed {id}; only the answer was still on its way.",
                "支付方已经提交了 {id}，只是应答还在路上。"
            )
        } else {
            tx!(
                "The request for {id} is already at the provider, which will still process it.",
                "{id} 的请求已经到了支付方，支付方照样会处理它。"
            )
        };
        let head = Text::new(
            "The aborted signal makes the awaited fetch reject with AbortError: the service stops waiting.",
            "信号已中止，正在等待的 fetch 以 AbortError 拒绝：服务停止等待。",
        )
        .then(&fate);
        if naive {
            info.code = Some(deleted_sql());
            info.mark(DB, MarkKind::Rollback, "deleted", "已删除");
            info.arrow(
                SERVICE,
                SCREEN,
                Text::new("shown", "已显示"),
                ArrowKind::Message,
            );
            info.narration = head.then(&gave_up(b, s));
        } else {
            info.code = Some(set_status(cur, OpStatus::CancelRequested));
            info.mark(DB, MarkKind::Write, "CANCEL_REQUESTED", "CANCEL_REQUESTED");
            let then = if m.variant.settles() {
                tx!(
                    "So the service keeps {id} as CANCEL_REQUESTED: its outcome is not known yet, and it will void the request by its key.",
                    "所以服务保留 {id}，标为 CANCEL_REQUESTED：结果还不知道，它会按键作废这个请求。"
                )
            } else {
                tx!(
                    "So the service keeps {id} as CANCEL_REQUESTED: its outcome is not known yet, and it will ask.",
                    "所以服务保留 {id}，标为 CANCEL_REQUESTED：结果还不知道，它会去查询。"
                )
            };
            info.narration = head.then(&then);
        }
    }

    fn timeout(&self, info: &mut StepInfo) {
        let Cx {
            m,
            b,
            s,
            naive,
            cur,
            id,
        } = *self;
        info.lane = SERVICE;
        info.title = tx!("{id}: timeout", "{id}：超时");
        info.mark(SERVICE, MarkKind::Fail, "TimeoutError", "TimeoutError");
        let head = tx!(
            "No answer for {id}: AbortSignal.timeout(5000) fires and the fetch rejects with TimeoutError. A timeout is an abort too; it says nothing about the provider.",
            "{id} 没有应答：AbortSignal.timeout(5000) 触发，fetch 以 TimeoutError 拒绝。超时也是一种中止，它说明不了支付方做了什么。"
        );
        if naive {
            info.code = Some(deleted_sql());
            info.mark(DB, MarkKind::Rollback, "deleted", "已删除");
            info.narration = head.then(&gave_up(b, s));
        } else {
            info.code = Some(set_status(cur, OpStatus::Unknown));
            info.mark(DB, MarkKind::Write, "UNKNOWN", "UNKNOWN");
            info.narration = head.then(&if m.variant.settles() {
                tx!(
                    "The service records {id} as UNKNOWN and will send it again with the same key.",
                    "服务把 {id} 记为 UNKNOWN，并会用同一个键再发一次。"
                )
            } else {
                tx!(
                    "The service records {id} as UNKNOWN and will ask the provider.",
                    "服务把 {id} 记为 UNKNOWN，并会去问支付方。"
                )
            });
        }
    }

    fn query(&self, info: &mut StepInfo) {
        let Cx { b, cur, id, .. } = *self;
        info.lane = SERVICE;
        info.title = tx!("ask about {id}", "查询 {id}");
        info.arrow(SERVICE, PSP, format!("? {id}"), ArrowKind::Message);
        info.code = Some(format!(
            "provider.findRefund('{id}', {{ signal: AbortSignal.timeout(5000) }})"
        ));
        let behind = b.inbox.contains(&Msg::Refund(cur));
        info.narration = tx!(
            "The service asks the provider for the refund with Idempotency-Key {id}. The query is not tied to the agent's signal: cancelling must not stop the service from finding out.",
            "服务向支付方查询 Idempotency-Key 为 {id} 的退款。这个查询不挂在客服的信号上：取消不能让服务连结果都不查。"
        )
        .then(&if behind {
            Text::new(
                "The refund request is still at the provider. This service counts on the provider answering after it has handled the refund, as it would on one connection; but the aborted fetch's connection is gone, and the query goes out on a new one.",
                "退款请求还在支付方手里。这个服务指望支付方先处理退款再回答查询，同一条连接上确实如此；可中止的 fetch 的连接已经没了，查询走的是一条新连接。",
            )
        } else {
            Text::default()
        });
    }

    fn void(&self, info: &mut StepInfo) {
        let Cx { id, .. } = *self;
        info.lane = SERVICE;
        info.title = tx!("void {id}", "作废 {id}");
        info.arrow(
            SERVICE,
            PSP,
            tx!("void {id}", "作废 {id}"),
            ArrowKind::Message,
        );
        info.code = Some(format!(
            "provider.voidRefund('{id}', {{ signal: AbortSignal.timeout(5000) }})"
        ));
        info.narration = tx!(
            "The service asks the provider to void the key {id}. Whatever order the two requests arrive in, the answer is final: “already refunded”, or “voided”, after which a refund under {id} is refused. The call is not tied to the agent's signal.",
            "服务请支付方作废键 {id}。两个请求无论谁先到，回答都是定论：要么“已经退款”，要么“已作废”，此后 {id} 下的退款一律拒绝。这个调用不挂在客服的信号上。"
        );
    }

    fn retry(&self, info: &mut StepInfo) {
        let Cx { id, .. } = *self;
        info.lane = SERVICE;
        info.title = tx!("send {id} again", "再发 {id}");
        info.arrow(SERVICE, PSP, id, ArrowKind::Duplicate);
        info.code = Some(format!(
            "fetch(`${{PROVIDER}}/refunds`, {{ method: 'POST',\n  headers: {{ 'Idempotency-Key': '{id}' }}, signal }})"
        ));
        info.narration = tx!(
            "The service sends {id} again under the same Idempotency-Key: if the provider refunded, it replays the saved result; if not, it refunds now. Either way once, and the answer is final.",
            "服务用同一个 Idempotency-Key 再发一次 {id}：支付方若已退款，就重放保存的结果；若没有，现在才退。无论哪种只退一次，应答就是定论。"
        );
    }

    fn ask_timeout(&self, info: &mut StepInfo) {
        let Cx { id, .. } = *self;
        info.lane = SERVICE;
        info.title = Text::new("no answer: ask again", "没有应答：再问");
        info.mark(SERVICE, MarkKind::Fail, "timeout", "超时");
        info.narration = tx!(
            "The answer was lost. The outcome of {id} is still unknown, so the service asks again rather than guess.",
            "应答丢了。{id} 的结果仍然未知，所以服务再问一次，而不是去猜。"
        );
    }

    fn finish(&self, info: &mut StepInfo) {
        let Cx {
            b, s, naive, id, ..
        } = *self;
        info.lane = SERVICE;
        let msg = CancellationModel::message(s);
        info.arrow(
            SERVICE,
            SCREEN,
            Text::new("shown", "已显示"),
            ArrowKind::Message,
        );
        info.title = Text::new("report to the screen", "向屏幕报告");
        if (b.next as usize) >= b.ops.len() {
            info.code = Some("screen.show('Done: 3 of 3 refunded')".into());
            info.narration = Text::new(
                format!("Every operation is settled; the screen says “{}”.", msg.en),
                format!("每个操作都有了结论；屏幕显示“{}”。", msg.zh),
            );
        } else if naive {
            info.code = Some(deleted_sql());
            info.mark(DB, MarkKind::Rollback, "deleted", "已删除");
            info.narration = tx!(
                "The next fetch, for {id}, is called with an aborted signal and rejects at once; nothing is sent.",
                "下一次 fetch（{id}）带着已中止的信号调用，立即拒绝；什么也没发出去。"
            )
            .then(&gave_up(b, s));
        } else {
            info.code = Some("UPDATE refund_operations SET status = 'NOT_EXECUTED'\n WHERE batch_id = 'b-9' AND status = 'PENDING';".into());
            info.mark(DB, MarkKind::Write, "NOT_EXECUTED", "NOT_EXECUTED");
            info.narration = Text::new(
                format!("The loop sees signal.aborted and sends nothing more: what was never sent is NOT_EXECUTED, certainly. The screen reports partial completion: “{}”.", msg.en),
                format!("循环看到 signal.aborted，不再发送：从没发出的操作肯定没执行，记为 NOT_EXECUTED。屏幕报告部分完成：“{}”。", msg.zh),
            );
        }
    }

    fn cancel(&self, info: &mut StepInfo) {
        let Cx { b, .. } = *self;
        info.lane = SCREEN;
        info.title = Text::new("agent cancels", "客服取消");
        info.mark(SCREEN, MarkKind::Crash, "Cancel", "取消");
        info.arrow(
            SCREEN,
            SERVICE,
            Text::new("cancel", "取消"),
            ArrowKind::Message,
        );
        info.code = Some("controllers.get('b-9').abort()".into());
        let where_ = match b.wait {
            Some(Msg::Refund(o)) if b.ledger.contains(&o) => tx!(
                "{} is already committed at the provider; its answer is on the way.",
                "{} 在支付方已经提交，应答正在路上。",
                op_id(o)
            ),
            Some(Msg::Refund(o)) => tx!(
                "The request for {} is in flight, not yet committed.",
                "{} 的请求在途中，还没有提交。",
                op_id(o)
            ),
            _ => Text::new("No request is in flight right now.", "此刻没有在途的请求。"),
        };
        info.narration = Text::new(
            "The agent clicks Cancel; the service calls controller.abort(). The signal only tells the code that is waiting to stop waiting.",
            "客服点击“取消”；服务调用 controller.abort()。这个信号只是告诉正在等待的代码：别等了。",
        )
        .then(&where_);
    }

    fn lose_answer(&self, info: &mut StepInfo) {
        let Cx { b, .. } = *self;
        info.lane = PSP;
        info.title = Text::new("answer lost", "应答丢失");
        info.mark(PSP, MarkKind::Crash, "answer lost", "应答丢失");
        let what = match b.answers.first() {
            Some((Msg::Refund(o), _)) => tx!(
                "The provider's 200 for {} is lost on the way back; the refund itself is committed.",
                "支付方给 {} 的 200 在回程中丢了；退款本身已经提交。",
                op_id(*o)
            ),
            Some((Msg::Query(o) | Msg::Void(o), _)) => tx!(
                "The provider's answer about {} is lost.",
                "支付方关于 {} 的应答丢了。",
                op_id(*o)
            ),
            None => Text::default(),
        };
        info.narration = what;
    }
}
