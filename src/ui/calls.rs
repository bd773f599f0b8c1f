//! The call tree and the time axis: attempts nested in the attempts that made them, and when
//! each one ran, waited and ended. Drawn for any `StateView` that carries a tree or a chart.
//!
//! The bars are SVG stretched to the width of their row (no text inside, so stretching is
//! harmless); names, ticks and the summary are HTML, readable at any width. The tree says in
//! words what the colours say.

use super::dom::Node;
use super::i18n::Ui;
use crate::sim::{Lang, SpanChart, Tone, TreeItem};

/// Width of the bars' coordinate system: one unit per thousandth of the axis.
const W: u64 = 1000;

/// The CSS class of a tone (`ui::plot` colours its lines with the same classes).
pub(super) fn tone(t: Tone) -> &'static str {
    match t {
        Tone::Active => "active",
        Tone::Good => "good",
        Tone::Bad => "bad",
        Tone::Quiet => "quiet",
    }
}

/// The card: the time axis, then the tree. Nothing when the view has neither.
pub fn calls(tree: &[TreeItem], chart: Option<&SpanChart>, lang: Lang, ui: &Ui) -> Vec<Node> {
    if tree.is_empty() && chart.is_none() {
        return Vec::new();
    }
    let mut card = Node::el("section")
        .attr("class", "calls")
        .attr("aria-labelledby", "calls-h")
        .child(Node::el("h3").attr("id", "calls-h").text(ui.calls));
    if let Some(c) = chart {
        card.push(axis_chart(c, lang, ui));
    }
    if !tree.is_empty() {
        card.push(Node::el("h4").text(ui.call_tree));
        card.push(nested(tree, &mut 0, 0, lang));
    }
    vec![card]
}

/// The end of the axis: the time now, stretched to the deadline when it is close, at least 10 s.
/// The axis ends at a round time (1, 2 or 5 × a power of ten, in ms) past now and, when it is
/// near, the deadline: the bars stay where they are while the run grows into the axis, and are
/// redrawn only when it steps up (a few times over a 625-call run).
fn axis_end(c: &SpanChart) -> u32 {
    let mut end = c.now.max(10_000);
    if let Some(d) = c.deadline {
        if d as u64 * 2 <= end as u64 * 3 {
            end = end.max(d);
        }
    }
    round_up(end as u64 + end as u64 / 20)
}

fn round_up(ms: u64) -> u32 {
    let mut unit = 1_000u64;
    loop {
        for k in [1, 2, 5] {
            if k * unit >= ms {
                return (k * unit).min(u32::MAX as u64) as u32;
            }
        }
        if unit > u32::MAX as u64 {
            return u32::MAX;
        }
        unit *= 10;
    }
}

fn x(t: u32, end: u32) -> u64 {
    (t as u64 * W / end.max(1) as u64).min(W)
}

/// A whole number of seconds or one decimal.
fn secs(ms: u32) -> String {
    if ms.is_multiple_of(1000) || ms >= 100_000 {
        format!("{} s", ms / 1000)
    } else {
        format!("{}.{} s", ms / 1000, (ms % 1000) / 100)
    }
}

/// A span's class: a backoff, or a call in its tone (no allocation: hundreds per drawing).
fn span_class(wait: bool, t: Tone) -> &'static str {
    match (wait, t) {
        (true, _) => "span wait",
        (false, Tone::Active) => "span active",
        (false, Tone::Good) => "span good",
        (false, Tone::Bad) => "span bad",
        (false, Tone::Quiet) => "span quiet",
    }
}

pub fn axis_chart(c: &SpanChart, lang: Lang, ui: &Ui) -> Node {
    let end = axis_end(c);
    let mut grid = Node::el("div").attr("class", "span-grid");
    for (r, name) in c.rows.iter().enumerate() {
        let mut svg = Node::svg("svg")
            .attr("class", "span-track")
            .attr("viewBox", format!("0 0 {W} 10"))
            .attr("preserveAspectRatio", "none")
            .attr("aria-hidden", "true");
        // One path per class, in the order the classes first appear.
        let mut paths: Vec<(&str, Vec<[u64; 4]>)> = Vec::new();
        for s in c.spans.iter().filter(|s| s.row as usize == r) {
            let (x0, x1) = (x(s.start, end), x(s.end, end));
            // Every span shows, however short: at least two thousandths wide.
            let w = (x1.saturating_sub(x0)).max(2);
            let (y, h) = if s.wait { (4, 2) } else { (1, 8) };
            let class = span_class(s.wait, s.tone);
            let i = paths
                .iter()
                .position(|(c, _)| *c == class)
                .unwrap_or_else(|| {
                    paths.push((class, Vec::new()));
                    paths.len() - 1
                });
            paths[i].1.push([x0, y, w, h]);
        }
        for (class, rects) in paths {
            svg.push(Node::boxes(class, rects));
        }
        if let Some(d) = c.deadline.filter(|&d| d <= end) {
            let dx = x(d, end);
            svg.push(
                Node::svg("line")
                    .attr("x1", dx)
                    .attr("x2", dx)
                    .attr("y1", 0)
                    .attr("y2", 10)
                    .attr("class", "deadline"),
            );
        }
        let now = x(c.now, end);
        svg.push(
            Node::svg("line")
                .attr("x1", now)
                .attr("x2", now)
                .attr("y1", 0)
                .attr("y2", 10)
                .attr("class", "now"),
        );
        grid.push(
            Node::el("span")
                .attr("class", "span-name")
                .text(name.get(lang)),
        );
        grid.push(svg);
    }
    // The axis: 0, the middle and the end, and where the deadline is.
    let mut ticks = Node::el("div")
        .attr("class", "span-axis")
        .attr("aria-hidden", "true");
    for t in [0, end / 2, end] {
        ticks.push(Node::el("span").text(secs(t)));
    }
    grid.push(Node::el("span"));
    grid.push(ticks);
    let deadline = c.deadline.map(|d| {
        let where_ = if d <= end {
            ui.deadline_line
        } else {
            ui.deadline_later
        };
        format!(" {} {} {}", ui.deadline, secs(d), where_)
    });
    let legend = Node::el("p")
        .attr("class", "span-legend muted")
        .child(Node::el("span").attr("class", "key good").text(ui.span_ok))
        .child(
            Node::el("span")
                .attr("class", "key bad")
                .text(ui.span_failed),
        )
        .child(
            Node::el("span")
                .attr("class", "key quiet")
                .text(ui.span_no_answer),
        )
        .child(
            Node::el("span")
                .attr("class", "key wait")
                .text(ui.span_backoff),
        )
        .child(
            Node::el("span")
                .attr("class", "key active")
                .text(ui.span_running),
        )
        .text(deadline.unwrap_or_default());
    Node::el("figure")
        .attr("class", "spans")
        .child(Node::el("figcaption").text(c.summary.get(lang)))
        .child(grid)
        .child(legend)
}

/// Items from `*i` at `depth` and deeper, as a list whose items hold their children's lists.
fn nested(items: &[TreeItem], i: &mut usize, depth: u8, lang: Lang) -> Node {
    let mut list = if depth == 0 {
        Node::el("ul").attr("class", "calltree")
    } else {
        Node::el("ul")
    };
    while let Some(it) = items.get(*i) {
        if it.depth < depth {
            break;
        }
        *i += 1;
        let mut li = Node::el("li")
            .attr("class", format!("tone-{}", tone(it.tone)))
            .child(
                Node::el("span")
                    .attr("class", "ct-label")
                    .text(it.label.get(lang)),
            )
            .text(" · ")
            .child(
                Node::el("span")
                    .attr("class", "ct-status")
                    .text(it.status.get(lang)),
            );
        if items.get(*i).is_some_and(|n| n.depth > it.depth) {
            li.push(nested(items, i, it.depth + 1, lang));
        }
        list.push(li);
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios;
    use crate::ui::dom::html;
    use crate::ui::i18n::{EN, ZH};

    fn retry() -> usize {
        scenarios::index_of("retry-layers").expect("registered")
    }

    #[test]
    fn the_tree_nests_attempts_and_says_how_each_ended() {
        let t = scenarios::all()[retry()].trace(0, &[]);
        let last = &t.view(t.last());
        let out = html(&calls(&last.tree, last.chart.as_ref(), Lang::En, &EN));
        assert!(out.contains("Workflow engine · attempt 3 of 3"), "{out}");
        assert!(out.contains("✕ failed (9 calls)"), "{out}");
        assert!(out.contains("Payment API call #27"), "{out}");
        // Nested: the graph framework's attempts are inside the engine's item.
        let engine = out.find("Workflow engine · attempt 3").unwrap_or(0);
        let graph = out.find("Graph framework · attempt 3").unwrap_or(0);
        assert!(engine < graph && out[engine..graph].contains("<ul"));
        assert!(out.contains("27 calls and 27 refunds"), "{out}");
        let zh = html(&calls(&last.tree, last.chart.as_ref(), Lang::Zh, &ZH));
        assert!(zh.contains("工作流引擎 · 第 3/3 次尝试"), "{zh}");
    }

    #[test]
    fn every_span_is_inside_the_axis_and_visible() {
        let t = scenarios::all()[retry()].trace(3, &[]);
        for step in 0..t.steps.len() {
            let view = t.view(step);
            let c = view.chart.as_ref().expect("a chart");
            let end = axis_end(c);
            assert!(c.now <= end);
            for s in &c.spans {
                assert!(s.start <= s.end && s.end <= end, "{s:?} beyond {end}");
            }
        }
        let last = t.view(t.last());
        let c = last.chart.as_ref().expect("a chart");
        let out = html(&[axis_chart(c, Lang::En, &EN)]);
        assert!(
            out.contains("class=\"deadline\""),
            "the deadline is on the axis"
        );
    }

    #[test]
    fn the_axis_ends_at_a_round_time_and_steps_up_rarely() {
        assert_eq!(round_up(10_500), 20_000);
        assert_eq!(round_up(20_000), 20_000);
        assert_eq!(round_up(20_001), 50_000);
        assert_eq!(round_up(630_000), 1_000_000);
        assert_eq!(round_up(u64::MAX), u32::MAX);
        let t = scenarios::all()[retry()].trace_with(0, &[4, 5, 0, 2, 600, 7], &[]);
        let ends: std::collections::BTreeSet<u32> = (0..t.steps.len())
            .filter_map(|s| t.view(s).chart.as_ref().map(axis_end))
            .collect();
        // 625 calls over about 10,000 s: nine axes (20 s … 10,000 s), one per 1-2-5 step.
        assert!(t.last() > 600 && ends.len() <= 10, "{ends:?}");
    }

    #[test]
    fn nothing_for_a_view_without_calls() {
        let t = scenarios::all()[0].trace(0, &[]);
        let v = &t.view(0);
        assert!(calls(&v.tree, v.chart.as_ref(), Lang::En, &EN).is_empty());
    }
}
