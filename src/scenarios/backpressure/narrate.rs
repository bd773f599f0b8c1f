//! Step narration: one interval's flows, its numbers and the moments worth a sentence.
use super::*;
use crate::tx;

pub(super) fn describe(m: &BackpressureModel, b: &BpState, a: BpAct, s: &BpState) -> StepInfo {
    if a == BpAct::LoseConsumers {
        return consumers_lost(m, s);
    }
    let mut info = StepInfo::default();
    flows(m, b, s, &mut info);
    let mut text = interval(m, s);
    text.add(&moments(m, b, s));
    info.narration = text;
    info
}

/// A consumer host dies: a quarter of the capacity, and what it does to the wait.
fn consumers_lost(m: &BackpressureModel, s: &BpState) -> StepInfo {
    let (before, after) = (m.throughput(false), m.throughput(true));
    StepInfo {
        lane: CONSUMERS,
        title: Text::new("a consumer host dies", "一台消费者主机宕机"),
        marks: vec![Mark {
            lane: CONSUMERS,
            kind: MarkKind::Crash,
            label: Text::new("¼ capacity lost", "失去 ¼ 容量"),
        }],
        narration: tx!(
            "A consumer host dies: throughput falls from {before}/s to {after}/s. Messages already queued now wait longer; a new order would wait about {} s.",
            "一台消费者主机宕机：吞吐从每秒 {before} 降到每秒 {after}。已在排队的消息要等更久；新订单预计要等约 {} 秒。",
            m.wait(s)
        ),
        ..StepInfo::default()
    }
}

/// What moved in one interval: arrows for orders admitted, processed and sent to the channel,
/// marks for refusals, the queue and throttling.
fn flows(m: &BackpressureModel, b: &BpState, s: &BpState, info: &mut StepInfo) {
    let (v, f) = (m.variant, &s.step);
    info.lane = API;
    info.title = tx!("{}–{} s", "{}–{} 秒", b.t, s.t);
    info.arrow(API, QUEUE, grouped(f.admitted), ArrowKind::Message);
    if f.processed > 0 || f.calls > 0 {
        let n = grouped(f.calls.max(f.processed));
        info.arrow(QUEUE, CONSUMERS, n, ArrowKind::Message);
    }
    // Calls over the channel's limit are refused (429, a Fail mark), not copies of anything.
    if v.channel() && f.calls > 0 {
        info.arrow(CONSUMERS, CHANNEL, grouped(f.calls), ArrowKind::Message);
    }
    if f.refused > 0 {
        info.marks.push(Mark {
            lane: API,
            kind: MarkKind::Fail,
            label: tx!("503 × {}", "503 × {}", grouped(f.refused)),
        });
    }
    info.marks.push(Mark {
        lane: QUEUE,
        kind: MarkKind::Write,
        label: tx!("{} queued", "排队 {}", grouped(s.queued)),
    });
    if f.throttled > 0 {
        info.marks.push(Mark {
            lane: CHANNEL,
            kind: MarkKind::Fail,
            label: Text::same(format!("429 × {}", grouped(f.throttled))),
        });
    }
}

/// The interval in numbers: arrivals, processing, the queue, the wait, and what was refused.
fn interval(m: &BackpressureModel, s: &BpState) -> Text {
    let f = &s.step;
    let (age, wait) = (s.oldest_age(), m.wait(s));
    let en = format!(
        "{} orders arrived ({}/s); {} processed ({}/s). Queue: {}; the oldest has waited {age} s; a new order would wait about {wait} s.",
        grouped(f.arrived),
        grouped(f.arrived / STEP_S),
        grouped(f.processed),
        grouped(f.processed / STEP_S),
        grouped(s.queued),
    );
    let zh = format!(
        "到达 {} 条订单（每秒 {}）；处理完成 {} 条（每秒 {}）。队列：{} 条；最老的已等 {age} 秒；新订单预计要等约 {wait} 秒。",
        grouped(f.arrived),
        grouped(f.arrived / STEP_S),
        grouped(f.processed),
        grouped(f.processed / STEP_S),
        grouped(s.queued),
    );
    let mut out = Text::new(en, zh);
    if f.refused > 0 {
        out.add(&tx!(
            "{} orders were refused with 503 and Retry-After: they learn it now instead of waiting silently.",
            "{} 条订单被 503 拒绝并带 Retry-After：调用方立刻知道，而不是默默排队。",
            grouped(f.refused)
        ));
    }
    if f.throttled > 0 {
        out.add(&tx!(
            "Consumers made {} calls; the channel accepted {} and throttled {} with 429. Retrying them adds calls, not throughput.",
            "消费者发起 {} 次调用；通道接受 {} 次，{} 次被 429 限流。重试只增加调用，不增加吞吐。",
            grouped(f.calls),
            grouped(f.processed),
            grouped(f.throttled)
        ));
    }
    out
}

/// The moments worth a sentence: the peak ends, the promise is broken, the queue drains (or
/// never does).
fn moments(m: &BackpressureModel, b: &BpState, s: &BpState) -> Text {
    let r = &m.rates;
    let mut out = Text::default();
    if b.t < r.peak_s && s.t >= r.peak_s {
        let net = m.throughput(s.lost).saturating_sub(r.after_in);
        out.add(&tx!(
            "The peak is over: arrivals fall to {}/s. The backlog drains at the net {} − {} = {net}/s, not at {}/s: new orders keep arriving.",
            "高峰结束：到达降到每秒 {}。积压按净速率 {} − {} = 每秒 {net} 消化，而不是每秒 {}：新订单还在进来。",
            r.after_in,
            m.throughput(s.lost),
            r.after_in,
            m.throughput(s.lost)
        ));
    }
    if b.total.worst_age <= r.age_limit && s.total.worst_age > r.age_limit {
        out.add(&tx!(
            "The oldest order has now waited longer than the {} s promised, while the API still answers every request in milliseconds.",
            "最老的订单已经等得比承诺的 {} 秒更久，而 API 仍在几毫秒内回应每个请求。",
            r.age_limit
        ));
    }
    if b.queued > 0 && s.queued == 0 && s.t >= r.peak_s {
        let after = s.t - r.peak_s;
        out.add(&tx!(
            "The queue is empty at {} s, {after} s after the peak ended.",
            "第 {} 秒队列清空，距高峰结束 {after} 秒。",
            s.t
        ));
    }
    if m.quiet(s) && s.queued > 0 {
        out.add(&tx!(
            "At {} s the queue has still not drained: arrivals outpace what is processed.",
            "到第 {} 秒队列仍未清空：到达速度超过处理速度。",
            s.t
        ));
    }
    out
}
