//! The primary figure: the one quantity that decides a scenario, drawn large and moving with the
//! steps — a value against its limit, a multiplication of attempts, intended against executed
//! effects, or the scenario's curves. The scenario declares it as data (`sim::Figure`); this
//! draws any of them and names none.
//!
//! The figure is one element with role `img` whose accessible name is the scenario's sentence
//! with every number; the numbers on screen are HTML, the bars SVG stretched to their row. When
//! an invariant it shows is violated, the card turns to the violation style and says so in
//! words.

use super::app::use_ctx;
use super::dom::{patched, Node};
use super::i18n::Ui;
use crate::sim::{FigureBody, Lang, LedgerRow, Level, Meter, StateView, Status, Verdict};
use leptos::prelude::*;

/// Ledgers of at most this many things are drawn as one token each; more, as bars.
const TOKENS_MAX: u32 = 12;

/// The figure's card: `plots` picks the figures drawn in the timeline's place (curves) or the
/// others, beside the invariants.
#[component]
pub fn FigureCard(plots: bool) -> impl IntoView {
    let ctx = use_ctx();
    let draw = move || {
        let (step, lang, t) = (ctx.cursor.get().step, ctx.lang.get(), ctx.t());
        ctx.trace.with(|tr| {
            let view = tr.view(step);
            tr.steps
                .get(step)
                .filter(|_| is_plots(&view) == Some(plots))
                .map(|s| card(&view, &s.verdicts, lang, t))
                .unwrap_or_default()
        })
    };
    let class = if plots {
        "figure-slot curves"
    } else {
        "figure-slot"
    };
    // Patched, not redrawn: a step lights one box of a 625-box tree or moves one bar.
    view! { {patched(class, draw)} }
}

/// Whether the view's figure is its curves (`None`: it has no figure).
pub fn is_plots(view: &StateView) -> Option<bool> {
    view.figure
        .as_ref()
        .map(|f| matches!(f.body, FigureBody::Plots))
}

/// The figure's card: title, drawing, and which of its invariants hold, in words.
pub fn card(view: &StateView, verdicts: &[Verdict], lang: Lang, t: &Ui) -> Vec<Node> {
    let Some(f) = &view.figure else {
        return Vec::new();
    };
    let shown: Vec<&Verdict> = f.shows.iter().filter_map(|&i| verdicts.get(i)).collect();
    let broken = shown.iter().any(|v| v.status == Status::Violated);
    let class = if broken {
        "card figure violated"
    } else {
        "card figure"
    };
    let drawing = match &f.body {
        FigureBody::Meter(m) => meter(m, broken, lang),
        FigureBody::Tree(levels) => tree(levels, lang),
        FigureBody::Ledger(rows) => ledger(rows, lang, t),
        FigureBody::Plots => Node::el("div")
            .attr("class", "fig-plots")
            .children(super::plot::plots(&view.plots, lang)),
    };
    vec![Node::el("section")
        .attr("class", class)
        .attr("aria-labelledby", "figure-h")
        .child(
            Node::el("h2")
                .attr("id", "figure-h")
                .text(f.title.get(lang)),
        )
        .child(
            Node::el("div")
                .attr("class", "fig-body")
                .attr("role", "img")
                .attr("aria-label", f.name.get(lang))
                .child(drawing),
        )
        .child(verdict_line(&shown, lang, t))]
}

/// "✗ refunds within the cap — violated", one per invariant the figure shows.
fn verdict_line(shown: &[&Verdict], lang: Lang, t: &Ui) -> Node {
    let mut ul = Node::el("ul").attr("class", "fig-verdicts");
    for v in shown {
        let (class, icon, word) = match v.status {
            Status::Violated => ("violated", "✗", t.violated),
            Status::Pending => ("pending", "⏳", t.pending),
            Status::Holds => ("holds", "✓", t.holds),
        };
        ul.push(
            Node::el("li")
                .attr("class", class)
                .child(
                    Node::el("span")
                        .attr("aria-hidden", "true")
                        .text(format!("{icon} ")),
                )
                .text(format!("{} — {word}", v.name.get(lang))),
        );
    }
    ul
}

fn big(number: String, rest: String, bad: bool) -> Node {
    Node::el("p")
        .attr("class", if bad { "fig-big bad" } else { "fig-big" })
        .child(Node::el("span").attr("class", "fig-num").text(number))
        .text(" ")
        .child(Node::el("span").attr("class", "fig-of").text(rest))
}

fn rect(x: u32, w: u32, class: String) -> Node {
    Node::svg("rect")
        .attr("x", x)
        .attr("y", 0)
        .attr("width", w)
        .attr("height", 10)
        .attr("class", class)
}

fn bar_svg(children: Vec<Node>) -> Node {
    Node::svg("svg")
        .attr("class", "fig-bar")
        .attr("viewBox", "0 0 1000 10")
        .attr("preserveAspectRatio", "none")
        .attr("aria-hidden", "true")
        .children(children)
}

/// A value against its limit: one bar split by who contributed, the part over the limit
/// hatched in the violation colour, the limit drawn across.
fn meter(m: &Meter, broken: bool, lang: Lang) -> Node {
    let scale = m.value.max(m.limit).max(1) as u64 * 5 / 4;
    let at = |v: u32| (v as u64 * 1000 / scale) as u32;
    let mut bars = vec![rect(0, 1000, "bg".into())];
    let mut legend = Node::el("ul").attr("class", "fig-parts");
    let mut from = 0;
    let parts: Vec<(String, u32)> = if m.parts.is_empty() {
        vec![(String::new(), m.value)]
    } else {
        m.parts
            .iter()
            .map(|(n, v)| (n.get(lang).to_string(), *v))
            .collect()
    };
    for (i, (name, v)) in parts.iter().enumerate() {
        bars.push(rect(
            at(from),
            at(from + v) - at(from),
            format!("part p{}", i % 4),
        ));
        from += v;
        if !name.is_empty() {
            legend.push(
                Node::el("li")
                    .child(
                        Node::el("span")
                            .attr("class", format!("sw p{}", i % 4))
                            .attr("aria-hidden", "true"),
                    )
                    .text(format!("{name} {}", m.unit.format(*v))),
            );
        }
    }
    if m.value > m.limit {
        bars.push(rect(at(m.limit), at(m.value) - at(m.limit), "over".into()));
    }
    bars.push(rect(at(m.limit).saturating_sub(3), 6, "limit".into()));
    let rest = format!("/ {} {}", m.unit.format(m.limit), m.limit_name.get(lang));
    Node::el("div")
        .attr("class", "fig-meter")
        .child(big(
            m.unit.format(m.value),
            rest,
            broken || m.value > m.limit,
        ))
        .child(bar_svg(bars))
        .child(legend)
}

/// Attempts per level, each a row of boxes lit as they happen; the big number is the last
/// level's, written as the product of the levels' factors.
fn tree(levels: &[Level], lang: Lang) -> Node {
    let Some(last) = levels.last() else {
        return Node::el("div");
    };
    let mut factors = Vec::new();
    let mut above = 1;
    for l in levels {
        factors.push((l.total / above.max(1)).to_string());
        above = l.total;
    }
    let product = format!("{} = {}", factors.join(" × "), last.total);
    let mut rows = Node::el("div").attr("class", "fig-tree");
    for l in levels {
        let total = l.total.max(1) as u64;
        let lit = (l.done as u64).min(total);
        let at = |i: u64| [i * 10 + 1, 0, 8, 10];
        let boxes = [
            Node::boxes("box", (lit..total).map(at)),
            Node::boxes("box lit", (0..lit).map(at)),
        ];
        let svg = Node::svg("svg")
            .attr("class", "fig-boxes")
            .attr("viewBox", format!("0 0 {} 10", total * 10))
            .attr("preserveAspectRatio", "none")
            .attr("aria-hidden", "true")
            .children(boxes);
        rows.push(
            Node::el("div")
                .attr("class", "fig-level")
                .child(
                    Node::el("span")
                        .attr("class", "fig-name")
                        .text(l.name.get(lang)),
                )
                .child(svg)
                .child(
                    Node::el("span")
                        .attr("class", "fig-count")
                        .text(format!("{}/{}", l.done, l.total)),
                ),
        );
    }
    Node::el("div")
        .child(big(
            last.done.to_string(),
            product,
            last.done > levels[0].total,
        ))
        .child(rows)
}

/// Intended against executed, one row per kind of effect: tokens for a few things (an extra
/// one in the violation colour, a missing one hollow), two bars for amounts.
fn ledger(rows: &[LedgerRow], lang: Lang, t: &Ui) -> Node {
    let mut out = Node::el("div").attr("class", "fig-ledger");
    for r in rows {
        let bad = r.executed != r.intended;
        let rest = format!("{} {} {}", t.executed, "/", r.unit.format(r.intended))
            + &format!(" {}", t.intended);
        let mut row = Node::el("div")
            .attr("class", if bad { "fig-row bad" } else { "fig-row" })
            .child(
                Node::el("span")
                    .attr("class", "fig-name")
                    .text(r.name.get(lang)),
            )
            .child(big(r.unit.format(r.executed), rest, bad));
        let (n, m) = (r.intended, r.executed);
        if r.unit == crate::sim::Unit::Count && n.max(m) <= TOKENS_MAX {
            row.push(tokens(n, m, t));
        } else {
            let scale = n.max(m).max(1) as u64;
            let w = |v: u32| (v as u64 * 1000 / scale) as u32;
            row.push(bar_svg(vec![rect(0, w(n), "intended".into())]));
            row.push(bar_svg(vec![rect(
                0,
                w(m),
                if bad { "over".into() } else { "part p0".into() },
            )]));
        }
        out.push(row);
    }
    out
}

/// One token per thing: done as intended (●), extra (✚, violation colour), missing (○, dashed).
fn tokens(intended: u32, executed: u32, t: &Ui) -> Node {
    let mut ul = Node::el("ul").attr("class", "fig-tokens");
    for i in 0..intended.max(executed) {
        let (class, glyph, word) = if i < intended.min(executed) {
            ("tok ok", "●", "")
        } else if i >= intended {
            ("tok extra", "✚", t.extra)
        } else {
            ("tok missing", "○", t.missing)
        };
        let mut li = Node::el("li").attr("class", class).text(glyph);
        if !word.is_empty() {
            li.push(Node::el("span").attr("class", "tok-word").text(word));
        }
        ul.push(li);
    }
    ul
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios;
    use crate::ui::dom::html;
    use crate::ui::i18n::{EN, ZH};

    #[test]
    fn a_figure_is_an_image_named_with_its_numbers_and_turns_when_its_invariant_breaks() {
        // Dual write, commit then publish: commit order 17, crash before the publish.
        let t = scenarios::all()[0].trace(0, &[0, 0, 1]);
        let end = t.last();
        let (s, view) = (&t.steps[end], t.view(end));
        let out = html(&card(&view, &s.verdicts, Lang::En, &EN));
        assert!(out.contains("role=\"img\""), "{out}");
        let name = &view.figure.as_ref().unwrap().name.en;
        assert!(out.contains(&format!("aria-label=\"{name}\"")));
        assert!(out.contains("card figure violated"), "{out}");
        assert!(
            out.contains("tok missing"),
            "the event that never went out: {out}"
        );
        let first = &t.steps[1];
        let calm = html(&card(&t.view(1), &first.verdicts, Lang::Zh, &ZH));
        assert!(!calm.contains("violated") && calm.contains("✓"), "{calm}");
    }

    #[test]
    fn a_meter_hatches_what_is_over_its_limit() {
        let m = Meter {
            value: 160,
            limit: 100,
            limit_name: crate::sim::Text::new("cap", "上限"),
            unit: crate::sim::Unit::Count,
            parts: vec![("A".into(), 80), ("B".into(), 80)],
        };
        let out = html(&[meter(&m, true, Lang::En)]);
        assert!(out.contains(">160<") && out.contains("/ 100 cap"), "{out}");
        assert!(
            out.contains("class=\"over\"") && out.contains("B 80"),
            "{out}"
        );
        let ok = html(&[meter(&Meter { value: 80, ..m }, false, Lang::En)]);
        assert!(!ok.contains("class=\"over\""));
    }

    #[test]
    fn a_tree_writes_its_product_and_lights_what_happened() {
        let level = |done, total| Level {
            name: crate::sim::Text::same("x"),
            done,
            total,
        };
        let out = html(&[tree(&[level(3, 3), level(9, 9), level(27, 27)], Lang::En)]);
        assert!(
            out.contains("3 × 3 × 3 = 27") && out.contains(">27<"),
            "{out}"
        );
        // Each level's lit boxes are one path: 3 + 9 + 27 of them.
        let lit: usize = out
            .split("class=\"box lit\"")
            .skip(1)
            .map(|rest| rest.split('>').next().unwrap_or("").matches('M').count())
            .sum();
        assert_eq!(lit, 39, "{out}");
    }
}
