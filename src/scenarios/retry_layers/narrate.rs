//! Step narration for retry layering: what the provider did, what the caller saw, and which
//! layer retried because of it.
use super::*;
use crate::sim::{ArrowKind, Mark, MarkKind};
use crate::tx;

pub(super) fn intro(m: &RetryLayersModel) -> Text {
    let (a, n) = (m.attempts, m.layers);
    let stack = (0..n as usize)
        .map(|l| LAYERS[l][0])
        .collect::<Vec<_>>()
        .join(" → ");
    let stack_zh = (0..n as usize)
        .map(|l| LAYERS[l][1])
        .collect::<Vec<_>>()
        .join(" → ");
    let setting = tx!(
        "One refund of 80.00 for order ord-1701 goes down {stack} → Payment API. The innermost layer gives each call {}.",
        "订单 ord-1701 的一笔 80.00 退款依次经过 {stack_zh} → 支付 API。最内层给每次调用 {} 的超时。",
        secs(CALL_TIMEOUT_MS)
    );
    let what = match m.variant {
        RlVariant::EveryLayerRetries => tx!(
            "Each team configured {a} attempts for its own layer. Watch the call counter against attempts^layers = {a}^{n}, and the provider's ledger.",
            "每个团队都给自己这一层配置了 {a} 次尝试。对照 尝试次数^层数 = {a}^{n} 看调用计数，再看支付方的账本。"
        ),
        RlVariant::OneRetryAuthority => tx!(
            "Only the outermost layer retries: {a} attempts in all, exponential backoff with jitter, and a {} deadline. Inner layers fail fast. But no idempotency key is sent.",
            "只有最外层重试：总共 {a} 次尝试，带抖动的指数退避，截止时间 {}。内层快速失败。但请求里没有幂等键。",
            secs(m.deadline_ms)
        ),
        RlVariant::IdempotencyKey => tx!(
            "Every layer still retries {a} times, but every attempt sends the same Idempotency-Key: {KEY}. The provider executes once and replays its saved result.",
            "每一层仍然重试 {a} 次，但每次尝试都发送同一个 Idempotency-Key：{KEY}。支付方只执行一次，之后重放保存的结果。"
        ),
        RlVariant::TemporalDefaults => tx!(
            "The workflow engine uses Temporal's default activity retry policy: unlimited attempts, 1 s initial interval, coefficient 2.0, at most 100 s between attempts. Only the Schedule-To-Close timeout ({}) bounds it.",
            "工作流引擎使用 Temporal 默认的 Activity 重试策略：尝试次数不限，初始间隔 1 秒，系数 2.0，间隔最多 100 秒。只有 Schedule-To-Close 超时（{}）能约束它。",
            secs(m.deadline_ms)
        ),
        RlVariant::BothFixes => tx!(
            "Both fixes: only the outermost layer retries ({a} attempts, jittered backoff, {} deadline), and every attempt carries the same key {KEY}.",
            "两个修复一起：只有最外层重试（{a} 次尝试，带抖动的退避，截止时间 {}），且每次尝试都带同一个键 {KEY}。",
            secs(m.deadline_ms)
        ),
    };
    setting.then(&what)
}

/// Layer names inside a sentence.
const LAYER_LOWER: [&str; 4] = [
    "workflow engine",
    "graph framework",
    "agent SDK",
    "HTTP client",
];

fn mark(lane: usize, kind: MarkKind, label: Text) -> Mark {
    Mark { lane, kind, label }
}

pub(super) fn describe(m: &RetryLayersModel, b: &RlState, o: Outcome, s: &RlState) -> StepInfo {
    let mut info = StepInfo {
        lane: m.layers as usize - 1,
        ..StepInfo::default()
    };
    let Some(call) = s.log.last().copied() else {
        return info;
    };
    the_call(m, b, o, call, &mut info);
    climb(m, b, s, call, &mut info);
    ending(m, b, s, &mut info);
    info
}

/// The call itself: the request, its answer (or none), and what the provider did.
fn the_call(m: &RetryLayersModel, b: &RlState, o: Outcome, call: CallRec, info: &mut StepInfo) {
    let (caller, api) = (m.layers as usize - 1, m.api_lane());
    let k = b.calls;
    info.code = Some(format!(
        "POST /v1/refunds{}\n{{ \"charge\": \"ch_1701\", \"amount\": 8000 }}",
        if m.variant.keyed() {
            format!("\nIdempotency-Key: {KEY}")
        } else {
            String::new()
        }
    ));
    let sent = if o == Outcome::NoAnswer {
        ArrowKind::Lost
    } else {
        ArrowKind::Message
    };
    info.arrow(caller, api, format!("#{k}"), sent);
    let reply = match o {
        Outcome::Answer if call.answered => Some(("200", ArrowKind::Message)),
        Outcome::Refuse if call.end - call.start == FAIL_MS => Some(("503", ArrowKind::Message)),
        // Sent, but it arrives after the caller stopped listening.
        Outcome::Answer | Outcome::Late => Some(("200", ArrowKind::Lost)),
        _ => None,
    };
    if let Some((label, kind)) = reply {
        info.arrow(api, caller, label, kind);
    }
    let did = what_happened(k, o, call);
    match call.effect {
        Effect::Refunded(1) => info.marks.push(mark(
            api,
            MarkKind::Commit,
            Text::new("refund re_1", "退款 re_1"),
        )),
        Effect::Refunded(r) => info.marks.push(mark(
            api,
            MarkKind::Duplicate,
            tx!("refund re_{r} (again)", "退款 re_{r}（重复）"),
        )),
        Effect::Replayed => info.marks.push(mark(
            api,
            MarkKind::Dedup,
            Text::new("replayed, not refunded", "重放，未再退款"),
        )),
        Effect::Nothing => {}
    }
    info.narration = did;
    info.title = title(k, call);
    if !call.answered {
        info.marks.push(mark(
            caller,
            MarkKind::Fail,
            if o == Outcome::Refuse && call.end - call.start == FAIL_MS {
                Text::same("503")
            } else {
                Text::new("timeout", "超时")
            },
        ));
    }
}

/// The step's title: the call and how it ended for the caller.
fn title(k: u32, call: CallRec) -> Text {
    match (call.effect, call.answered) {
        (_, true) => tx!("#{k}: answered", "#{k}：已应答"),
        (Effect::Refunded(_), false) => tx!("#{k}: refunded, timed out", "#{k}：已退款，超时"),
        (Effect::Replayed, false) => tx!("#{k}: replayed, timed out", "#{k}：已重放，超时"),
        (Effect::Nothing, false) => tx!("#{k}: failed", "#{k}：失败"),
    }
}

/// What the provider did in call `k` and what the caller saw.
fn what_happened(k: u32, o: Outcome, call: CallRec) -> Text {
    let t = secs(call.end - call.start);
    match (call.effect, call.answered) {
        (Effect::Refunded(1), true) => tx!(
            "Call #{k}: the provider executes refund re_1 and answers in time.",
            "调用 #{k}：支付方执行退款 re_1 并及时应答。"
        ),
        (Effect::Refunded(r), true) => tx!(
            "Call #{k}: the provider executes refund re_{r} (one more) and answers in time.",
            "调用 #{k}：支付方又执行了一笔退款 re_{r}，并及时应答。"
        ),
        (Effect::Refunded(r), false) => tx!(
            "Call #{k}: the provider executes refund re_{r}, but its answer comes after the caller's {t} timeout: to the caller it is a timeout, not a failure.",
            "调用 #{k}：支付方执行了退款 re_{r}，但应答晚于调用方 {t} 的超时：对调用方来说这是超时，而不是失败。"
        ),
        (Effect::Replayed, true) => tx!(
            "Call #{k}: same key, same parameters: the provider replays its saved result (refund re_1 succeeded) without refunding again.",
            "调用 #{k}：同一个键、同样的参数：支付方重放保存的结果（退款 re_1 成功），不会再退一次。"
        ),
        (Effect::Replayed, false) => tx!(
            "Call #{k}: the provider recognises the key and replays its saved result, no new refund; the answer is late again, so the caller times out after {t}.",
            "调用 #{k}：支付方认出这个键，重放保存的结果，没有新退款；但应答又迟了，调用方 {t} 后超时。"
        ),
        (Effect::Nothing, _) if o == Outcome::Refuse && call.end - call.start == FAIL_MS => {
            tx!(
                "Call #{k}: the provider refuses with a 503 after {t}; nothing was done.",
                "调用 #{k}：支付方 {t} 后返回 503；什么都没做。"
            )
        }
        (Effect::Nothing, _) => tx!(
            "Call #{k}: no answer; the caller gives up after {t}. (Nothing was done this time, but the caller cannot know that.)",
            "调用 #{k}：没有应答；调用方 {t} 后放弃。（这次确实什么都没做，但调用方无从得知。）"
        ),
    }
}

/// Which layer retried, and which gave up on the way up.
fn climb(m: &RetryLayersModel, b: &RlState, s: &RlState, call: CallRec, info: &mut StepInfo) {
    let n = m.layers as usize;
    // Which layer retried, and which gave up on the way.
    let retried = (0..n).find(|&l| s.attempt[l] > b.attempt[l]);
    // The layers the failure climbed through: all out of attempts.
    let gave_up: Vec<usize> = match (retried, s.end) {
        (Some(l), _) => (l + 1..n).collect(),
        (None, Some(End::GaveUp)) => (0..n).collect(),
        _ => Vec::new(),
    };
    if !gave_up.is_empty() {
        let names = |lang: usize| {
            gave_up
                .iter()
                .rev()
                .map(|&j| LAYERS[j][lang])
                .collect::<Vec<_>>()
        };
        info.narration.add(&Text::new(
            format!(
                "{} used up {} attempts: the failure goes up.",
                names(0).join(", then "),
                if gave_up.len() == 1 { "its" } else { "their" }
            ),
            format!(
                "{}{}用完了尝试次数：失败继续向上传递。",
                names(1).join("、"),
                if gave_up.len() == 1 { " " } else { " 先后" }
            ),
        ));
        for &j in &gave_up {
            info.marks
                .push(mark(j, MarkKind::Fail, Text::new("gave up", "放弃")));
        }
    }
    if let Some(l) = retried {
        retry(m, s, call, l, info);
    }
}

/// Layer `l` retries: after how long, which attempt, and what it restarts below it.
fn retry(m: &RetryLayersModel, s: &RlState, call: CallRec, l: usize, info: &mut StepInfo) {
    let n = m.layers as usize;
    let wait = secs(s.now - call.end);
    let a = s.attempt[l];
    let of = match m.policies[l].retry.attempts_max {
        0 => String::new(),
        x => format!(" of {x}"),
    };
    let of_zh = match m.policies[l].retry.attempts_max {
        0 => String::new(),
        x => format!("/{x}"),
    };
    let inner = if l + 1 < n {
        Text::new(
            "Its new attempt starts every inner layer's attempts over.".to_string(),
            "它的新尝试让每个内层的尝试次数从头开始。".to_string(),
        )
    } else {
        Text::default()
    };
    info.narration.add(
        &Text::new(
            format!(
                "The {} retries after {wait}: attempt {a}{of}, call #{}.",
                LAYER_LOWER[l], s.calls
            ),
            format!(
                "{}等待 {wait} 后重试：第 {a}{of_zh} 次尝试，调用 #{}。",
                LAYERS[l][1], s.calls
            ),
        )
        .then(&inner),
    );
    info.marks.push(mark(
        l,
        MarkKind::Restart,
        tx!("retry {a}{of}", "重试 {a}{of_zh}"),
    ));
}

/// How the operation ended, if it did, and the moments worth a sentence.
fn ending(m: &RetryLayersModel, b: &RlState, s: &RlState, info: &mut StepInfo) {
    match s.end {
        Some(End::Succeeded) => {
            info.marks
                .push(mark(0, MarkKind::Respond, Text::new("succeeded", "成功")));
            info.narration.add(&tx!(
                "Every layer reports success after {} calls and {}.",
                "经过 {} 次调用、{}，每一层都报告成功。",
                s.calls,
                secs(s.now)
            ));
        }
        Some(End::GaveUp) => {
            let over = if s.now > m.deadline_ms {
                tx!(
                    " The user's {} deadline passed long ago; nobody enforced it.",
                    "用户的 {} 截止时间早已过去；没有任何一层去强制执行它。",
                    secs(m.deadline_ms)
                )
            } else {
                Text::default()
            };
            info.narration.add(
                &tx!(
                    "The outermost layer gives up: {} calls, {} refunds executed, {} elapsed.",
                    "最外层放弃：{} 次调用，执行了 {} 笔退款，用时 {}。",
                    s.calls,
                    s.refunds,
                    secs(s.now)
                )
                .then(&over),
            );
        }
        Some(End::Deadline) => {
            info.marks
                .push(mark(0, MarkKind::Fail, Text::new("deadline", "截止")));
            info.narration.add(&tx!(
                "The {} deadline stops the operation: {} calls, {} refunds executed. The outcome stays unknown until someone asks the provider.",
                "{} 的截止时间终止了这次操作：{} 次调用，执行了 {} 笔退款。在有人向支付方查询之前，结果仍是未知。",
                secs(m.deadline_ms),
                s.calls,
                s.refunds
            ));
        }
        None => {}
    }
    moments(b, s, info);
}

/// The moments worth a sentence: the first call over the budget, the second refund.
fn moments(b: &RlState, s: &RlState, info: &mut StepInfo) {
    if b.calls <= b.budget && s.calls > s.budget {
        info.narration.add(&tx!(
            "That is more calls than the {} attempts any one team configured.",
            "这已经超过任何一个团队配置的 {} 次尝试了。",
            s.budget
        ));
    }
    if b.refunds <= 1 && s.refunds > 1 {
        info.narration.add(&Text::new(
            "A second refund for the same order: without a stable key, the provider cannot tell a retry from a new request.",
            "同一订单的第二笔退款：没有稳定的键，支付方分不清重试和新请求。",
        ));
    }
}
