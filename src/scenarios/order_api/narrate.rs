//! Step narration for the order API: the request or statement that ran, and what the client,
//! the database and the broker each know afterwards.
use super::view::status_word;
use super::*;
use crate::sim::{ArrowKind, MarkKind};
use crate::tx;

fn t(en: impl Into<String>, zh: impl Into<String>) -> Text {
    Text::new(en, zh)
}

pub(super) fn intro(v: OaVariant) -> Text {
    let setting = t(
        "A client places one order: POST /orders with cart-A. Completing an order (stock, payment) takes the consumer about 4.2 s after its event is published; the ingress cuts a request at 3 s, and the client retries once when it gets no answer. The notes' targets: accept within 300 ms, complete within 5 s.",
        "客户端下一个订单：POST /orders，购物车 cart-A。订单事件发布后，消费者约需 4.2 秒完成订单（库存、支付）；入口在 3 秒时切断请求，客户端收不到应答会重试一次。笔记的目标：300 毫秒内受理，5 秒内完成。",
    );
    let what = match v {
        OaVariant::SyncWait => t(
            "This API creates the order and waits for the consumer to finish it before it answers. Let it run.",
            "这个 API 建好订单后要等消费者把它做完才应答。让它跑起来。",
        ),
        OaVariant::NoRequestKey => t(
            "This API saves the order with its outbox row and answers 202 at once, but the POST carries no request key. Try ⚡ losing the answer.",
            "这个 API 把订单和发件箱记录一起保存，立即回 202，但 POST 不带请求键。试试 ⚡ 让应答丢失。",
        ),
        OaVariant::Accept202 => t(
            "This API inserts the order by the client's request key req-1701 with its outbox row, in one transaction, and answers 202 with a status URL. Try every ⚡.",
            "这个 API 在一个事务里按客户端的请求键 req-1701 插入订单和发件箱记录，回 202 和状态地址。把每种 ⚡ 都试一试。",
        ),
    };
    setting.then(&what)
}

pub(super) fn describe(m: &OrderApiModel, b: &OaState, a: OaAct, s: &OaState) -> StepInfo {
    let mut info = StepInfo {
        lane: API,
        ..StepInfo::default()
    };
    match a {
        OaAct::Handle | OaAct::LoseReply => handle(&mut info, m, b, s, a == OaAct::LoseReply),
        OaAct::Timeout => timeout(&mut info, s),
        OaAct::Retry | OaAct::RetryOtherCart => retry(&mut info, m, s, a == OaAct::RetryOtherCart),
        OaAct::Publish => publish(&mut info, b, s),
        OaAct::Complete | OaAct::OutOfStock => finish(&mut info, b, s),
        OaAct::Poll => poll(&mut info, m, s),
    }
    info
}

/// The POST the API handled in this step.
fn handled(b: &OaState, s: &OaState) -> Option<(usize, Post)> {
    let i = b.posts.iter().position(|p| !p.handled)?;
    Some((i, s.posts[i]))
}

fn handle(info: &mut StepInfo, m: &OrderApiModel, b: &OaState, s: &OaState, lost: bool) {
    let Some((i, p)) = handled(b, s) else { return };
    let n = i + 1;
    let created = s.orders.len() > b.orders.len();
    let id = order_id(s.orders.len().saturating_sub(1) as u8);
    info.code = Some(listing(m, b, s, p, created));
    let kind = if i > 0 {
        ArrowKind::Duplicate
    } else {
        ArrowKind::Message
    };
    info.arrow(CLIENT, API, Text::same(format!("POST #{n}")), kind);
    if !created {
        info.mark(DB, MarkKind::Dedup, "same key", "同一个键");
    } else if s.orders.len() > 1 {
        info.mark(DB, MarkKind::Duplicate, &id, &id);
    } else {
        info.mark(DB, MarkKind::Commit, &id, &id);
    }
    let reply = match p.reply {
        Some(Reply::Conflict) => "409",
        None => "",
        _ => "202",
    };
    if !reply.is_empty() {
        let kind = if lost {
            ArrowKind::Lost
        } else {
            ArrowKind::Message
        };
        info.arrow(API, CLIENT, Text::same(reply), kind);
    }
    info.title = match p.reply {
        None => tx!("{id} created; the API waits", "{id} 已创建；API 在等"),
        Some(Reply::Conflict) => t(
            "409: req-1701 belongs to cart-A",
            "409：req-1701 属于 cart-A",
        ),
        Some(Reply::Lost) => tx!("{id} saved; the 202 is lost", "{id} 已保存；202 丢失"),
        _ if created => tx!("202: {id} accepted", "202：{id} 已受理"),
        _ => tx!("same key: 202 {id} again", "同一个键：再次 202 {id}"),
    };
    info.narration = handle_story(m, s, p, &id, created, n);
}

/// The request, the transaction the API runs for it, and its answer.
fn listing(m: &OrderApiModel, b: &OaState, s: &OaState, p: Post, created: bool) -> String {
    let cart = if p.cart_b { "cart-B" } else { "cart-A" };
    let id = order_id(s.orders.len().saturating_sub(1) as u8);
    let attempted = order_id(b.orders.len() as u8);
    let (header, insert) = if m.variant.keyed() {
        let said = u8::from(created);
        (
            format!("POST /orders  Idempotency-Key: req-1701  {{\"cart\": \"{cart}\"}}"),
            format!("INSERT INTO orders (order_id, request_key, cart, status)\n  VALUES ('{attempted}', 'req-1701', '{cart}', 'PROCESSING')\n  ON CONFLICT (request_key) DO NOTHING;  -- INSERT {said}"),
        )
    } else {
        (
            format!("POST /orders  {{\"cart\": \"{cart}\"}}"),
            format!("INSERT INTO orders (order_id, cart, status)\n  VALUES ('{attempted}', '{cart}', 'PROCESSING');"),
        )
    };
    let rest = if created {
        let e = s.orders.len();
        format!("INSERT INTO outbox (event_id, order_id, status) VALUES ('evt-{e}', '{id}', 'PENDING');")
    } else {
        "SELECT order_id, cart FROM orders WHERE request_key = 'req-1701';  -- 1 row".into()
    };
    let answer = match p.reply {
        Some(Reply::Accepted(o)) => format!(
            "202 Accepted  {{\"order_id\": \"{0}\", \"status_url\": \"/orders/{0}\"}}",
            order_id(o)
        ),
        Some(Reply::Conflict) => "409 Conflict  req-1701 was used for cart-A".into(),
        Some(Reply::Lost) => "202 Accepted  → lost on the way back".into(),
        _ => format!("waiting for {id} to complete…"),
    };
    format!("{header}\nBEGIN;\n{insert}\n{rest}\nCOMMIT;\n{answer}")
}

fn handle_story(
    m: &OrderApiModel,
    s: &OaState,
    p: Post,
    id: &str,
    created: bool,
    n: usize,
) -> Text {
    match p.reply {
        None => tx!(
            "The API saves {id} with its outbox row, then holds POST #{n} open until the consumer has made the order — about 4.3 s away, past the ingress's 3 s.",
            "API 保存 {id} 及其发件箱记录，然后一直占着第 {n} 个 POST，直到消费者把订单做完——大约还要 4.3 秒，超过了入口的 3 秒。"
        ),
        Some(Reply::Conflict) => t(
            "The insert finds req-1701 already taken, for cart-A; this POST carries cart-B. The API answers 409 rather than overwrite the order or make a second one: a key names one request, with one body.",
            "插入时发现 req-1701 已被 cart-A 占用；这个 POST 带的是 cart-B。API 回 409，既不覆盖原订单，也不新建订单：一个键只代表一个请求、一份内容。",
        ),
        Some(Reply::Lost) => tx!(
            "The API commits {id} with its outbox row and answers 202 — but the answer is lost on the way back. The client cannot tell this from a request that never arrived.",
            "API 提交了 {id} 及其发件箱记录并回 202——但应答在回程中丢了。客户端无法把这种情况和请求根本没到区分开。"
        ),
        _ if !created => tx!(
            "The insert finds req-1701 already there (ON CONFLICT DO NOTHING: INSERT 0), with the same cart: this is the same request again. The API answers 202 with {id}, the order it already made.",
            "插入时发现 req-1701 已存在（ON CONFLICT DO NOTHING：INSERT 0），购物车也相同：这是同一个请求的重试。API 回 202 和已经建好的 {id}。"
        ),
        _ if s.orders.len() > 1 => tx!(
            "Nothing in POST #{n} says it is a retry, so the API does what it does for any order: a new one, {id}. The client meant one order; there are now {}.",
            "第 {n} 个 POST 里没有任何东西表明它是重试，所以 API 像对待任何订单一样：新建 {id}。客户端只想要一个订单；现在有 {} 个。",
            s.orders.len()
        ),
        _ => {
            let key = if m.variant.keyed() {
                t(" The request key req-1701 is saved with it.", "请求键 req-1701 与它一起保存。")
            } else {
                Text::default()
            };
            tx!(
                "In one transaction the API saves {id} and its outbox row, and only then answers 202 with the order id and a status URL — in 40 ms, well inside the 300 ms target.",
                "API 在一个事务里保存 {id} 和它的发件箱记录，之后才回 202、订单号和状态地址——40 毫秒，远在 300 毫秒的目标之内。"
            )
            .then(&key)
        }
    }
}

fn timeout(info: &mut StepInfo, s: &OaState) {
    let Some(p) = s
        .posts
        .iter()
        .rev()
        .find(|p| p.reply == Some(Reply::GatewayTimeout))
    else {
        return;
    };
    let n = s.posts.iter().position(|q| q == p).map_or(1, |i| i + 1);
    info.code = Some(format!("504 Gateway Timeout  after {}", ms(TIMEOUT_MS)));
    info.arrow(API, CLIENT, Text::same("504"), ArrowKind::Message);
    info.mark(CLIENT, MarkKind::Fail, "504", "504");
    info.title = tx!(
        "504 for POST #{n} at 3 s",
        "第 {n} 个 POST 在 3 秒时得到 504"
    );
    info.narration = t(
        "The ingress gives up at 3 s and answers 504. The order is still being made behind it; the client holds no order id, only a failure that is not one.",
        "入口在 3 秒时放弃，回 504。订单仍在后面制作中；客户端手里没有订单号，只有一个其实并非失败的“失败”。",
    );
}

fn retry(info: &mut StepInfo, m: &OrderApiModel, s: &OaState, other: bool) {
    info.lane = CLIENT;
    let n = s.posts.len();
    let cart = if other { "cart-B" } else { "cart-A" };
    info.code = Some(if m.variant.keyed() {
        format!("POST /orders  Idempotency-Key: req-1701  {{\"cart\": \"{cart}\"}}")
    } else {
        format!("POST /orders  {{\"cart\": \"{cart}\"}}")
    });
    info.mark(CLIENT, MarkKind::Write, "retry", "重试");
    info.title = tx!("client sends POST #{n}", "客户端发出第 {n} 个 POST");
    info.narration = if other {
        t(
            "A client bug: it reuses the request key req-1701 for a different cart. The key must not silently stand for two requests.",
            "客户端的 bug：它把请求键 req-1701 用在了另一车商品上。一个键不能悄悄代表两个请求。",
        )
    } else if m.variant.keyed() {
        t(
            "No answer in 3 s, so the client sends the same POST again — with the same request key, req-1701, as a retry must.",
            "3 秒内没有应答，客户端再次发送同一个 POST——带着同一个请求键 req-1701，重试就该如此。",
        )
    } else {
        t(
            "No usable answer, so the client sends the same POST again. Nothing in it says “I am the same request”.",
            "没有拿到可用的应答，客户端再次发送同一个 POST。里面没有任何东西说“我是同一个请求”。",
        )
    };
}

fn publish(info: &mut StepInfo, b: &OaState, s: &OaState) {
    info.lane = RELAY;
    let Some(i) = b.orders.iter().position(|o| o.published.is_none()) else {
        return;
    };
    let (id, e) = (order_id(i as u8), i + 1);
    info.code = Some(format!(
        "publish OrderCreated evt-{e} ({id})  → broker: ack\nUPDATE outbox SET status = 'PUBLISHED' WHERE event_id = 'evt-{e}';  -- UPDATE 1"
    ));
    info.arrow(
        DB,
        RELAY,
        Text::same(format!("evt-{e}")),
        ArrowKind::Message,
    );
    info.mark(RELAY, MarkKind::Publish, "ack", "已确认");
    info.title = tx!("evt-{e} published", "evt-{e} 已发布");
    let status = status_word(s.orders[i].status);
    info.narration = tx!(
        "The relay publishes {id}'s event and the broker acknowledges it. That acknowledgement says the event is stored, not that the order succeeded: {id} is still {status}.",
        "中继发布 {id} 的事件，消息代理确认收到。这个确认只说明事件已存下，不说明订单成功：{id} 仍是 {status}。"
    );
}

fn finish(info: &mut StepInfo, b: &OaState, s: &OaState) {
    info.lane = CONSUMER;
    let Some(i) = (0..s.orders.len()).find(|&i| b.orders[i].status != s.orders[i].status) else {
        return;
    };
    let (id, o) = (order_id(i as u8), s.orders[i]);
    let word = status_word(o.status);
    let why = if o.status == Status::Completed {
        "reserve stock, charge pay-1701  → ok"
    } else {
        "reserve stock  → out of stock"
    };
    info.code = Some(format!(
        "{why}\nUPDATE orders SET status = '{word}' WHERE order_id = '{id}' AND status = 'PROCESSING';  -- UPDATE 1"
    ));
    info.arrow(CONSUMER, DB, Text::same(word), ArrowKind::Message);
    let kind = if i > 0 {
        MarkKind::Duplicate
    } else if o.status == Status::Completed {
        MarkKind::Commit
    } else {
        MarkKind::Fail
    };
    info.mark(DB, kind, word, word);
    info.title = tx!("{id} {word} at {}", "{id} 于 {} {word}", ms(o.done));
    info.narration = if i > 0 {
        tx!(
            "The consumer makes {id} too: a second reservation and a second charge, for the order the client placed once.",
            "消费者把 {id} 也做完了：第二次预留、第二次扣款，而客户端只下过一次单。"
        )
    } else if o.status == Status::Rejected {
        tx!(
            "Out of stock: the consumer rejects {id}. It was accepted (202) and its event acknowledged, and it still did not succeed — which is why the client follows the status URL.",
            "缺货：消费者拒绝了 {id}。它被受理了（202），事件也被确认了，却仍然没有成功——这就是客户端要跟进状态地址的原因。"
        )
    } else {
        let (en, zh) = if o.done <= COMPLETE_TARGET_MS {
            ("inside", "之内")
        } else {
            ("past", "之外")
        };
        tx!(
            "The consumer reserves the stock and charges pay-1701: {id} is COMPLETED, {} after the first POST — {en} the 5 s target.",
            "消费者预留库存并扣款 pay-1701：{id} 完成，距第一个 POST {}——在 5 秒目标{zh}。",
            ms(o.done)
        )
    };
}

fn poll(info: &mut StepInfo, m: &OrderApiModel, s: &OaState) {
    info.lane = API;
    let Some(o) = m.held(s) else { return };
    let id = order_id(o);
    let word = s.known.map_or("", status_word);
    let (get, filter) = if s.held().is_some() {
        (format!("/orders/{id}"), format!("order_id = '{id}'"))
    } else {
        (
            "/orders?request_key=req-1701".to_string(),
            "request_key = 'req-1701'".to_string(),
        )
    };
    info.code = Some(format!(
        "GET {get}\nSELECT order_id, status FROM orders WHERE {filter};  -- 1 row\n200 {{\"order_id\": \"{id}\", \"status\": \"{word}\"}}"
    ));
    info.arrow(CLIENT, API, Text::same("GET"), ArrowKind::Message);
    info.mark(CLIENT, MarkKind::Respond, word, word);
    info.title = tx!("status: {word}", "状态：{word}");
    let by_key = if s.held().is_none() {
        t(
            "No answer ever reached the client, but it has its request key: it looks its order up by req-1701. ",
            "客户端一个应答都没收到，但它有自己的请求键：按 req-1701 查到了订单。",
        )
    } else {
        Text::default()
    };
    info.narration = by_key.then(&match s.known {
        Some(Status::Processing) => tx!(
            "The client reads {id}: PROCESSING. Accepted is not done; it will ask again.",
            "客户端查询 {id}：处理中。受理不等于完成；它稍后再问。"
        ),
        _ => tx!(
            "The client reads {id}: {word}. Now it knows what became of its order.",
            "客户端查询 {id}：{word}。现在它知道订单的结果了。"
        ),
    });
}
