//! Two views built on the explorer and the player: the compare view (a second variant side by
//! side on the same fault schedule, driven by the one player, differences marked in words) and
//! the "break it" challenge (the learner plays the adversary against the explorer's best).

use super::app::use_ctx;
use super::cmd::Cmd;
use super::dom::{drawn, Node};
use super::explore::{use_explore, Run};
use super::i18n::{self, Ui};
use super::panels::invariants;
use super::tables::table;
use super::timeline;
use crate::sim::{Lang, Status, Step, TableView, Trace};
use leptos::prelude::*;

#[component]
pub fn Compare() -> impl IntoView {
    let ctx = use_ctx();
    let other = Memo::new(move |_| {
        let c = ctx.compare.get()?;
        let keys = ctx.trace.with(Trace::keys);
        let scenario = ctx.scenario_ref()?;
        let knobs = ctx.knobs.get();
        let path = scenario.follow_with(c, &knobs, &keys);
        Some(scenario.trace_with(c, &knobs, &path))
    });
    let width = RwSignal::new(0);
    let draw = move || {
        let (lang, t, step) = (ctx.lang.get(), ctx.t(), ctx.cursor.get().step);
        let meta = ctx.meta();
        let (Some(c), Some(v)) = (ctx.compare.get(), meta.variants.get(ctx.variant.get())) else {
            return Vec::new();
        };
        let Some(w) = meta.variants.get(c) else {
            return Vec::new();
        };
        let width = match width.get() {
            0 => timeline::DEFAULT_WIDTH,
            w => w,
        };
        ctx.trace.with(|a| {
            other.with(|b| {
                let (Some(_), Some(b)) = (a.steps.get(step), b.as_ref()) else {
                    return Vec::new();
                };
                vec![
                    timelines(
                        [(v.name.get(lang), a), (w.name.get(lang), b)],
                        step,
                        width,
                        lang,
                    ),
                    Node::el("div")
                        .attr("class", "cmp-cols")
                        .child(column(v.name.get(lang), (a, b), step, lang, t))
                        .child(column(w.name.get(lang), (b, a), step, lang, t)),
                ]
            })
        })
    };
    let measure = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        if let Some(el) = measure.get() {
            super::browser::observe_width(&el, move |w| width.set(w));
        }
    });
    let close = move |_| {
        ctx.compare.set(None);
        super::browser::focus_after_render(".explorer h2");
    };
    let title = move || {
        let meta = ctx.meta();
        ctx.compare
            .get()
            .and_then(|c| meta.variants.get(c))
            .map(|w| format!("{} {}", ctx.t().compare_with, w.name.get(ctx.lang.get())))
            .unwrap_or_default()
    };
    view! {
        <section class="card compare" aria-labelledby="cmp-h" hidden=move || ctx.compare.get().is_none()>
            <div class="cmp-head">
                <h2 id="cmp-h" tabindex="-1">{title}</h2>
                <button type="button" class="btn" on:click=close>{move || i18n::compare_words(ctx.lang.get()).close}</button>
            </div>
            <p class="muted">{move || i18n::compare_words(ctx.lang.get()).same_schedule}</p>
            <div class="cmp-measure" node_ref=measure></div>
            {drawn("cmp-body", draw)}
        </section>
    }
}

/// The two runs' timelines, one above the other on one grid of columns, with the steps where
/// they differ tinted on both: what happened differently is seen before it is read.
fn timelines(runs: [(&str, &Trace); 2], step: usize, width: i32, lang: Lang) -> Node {
    let [(_, a), (_, b)] = runs;
    let n = a.steps.len().max(b.steps.len());
    // Up to the current step: the future is not drawn, and neither is how it differs.
    let differs: Vec<bool> = (0..n)
        .map(|k| k <= step)
        .zip(0..n)
        .map(|(now, k)| {
            now && match (a.steps.get(k), b.steps.get(k)) {
                (Some(x), Some(y)) => {
                    x.info.title != y.info.title
                        || x.verdicts
                            .iter()
                            .map(|v| v.status)
                            .ne(y.verdicts.iter().map(|v| v.status))
                }
                _ => true,
            }
        })
        .collect();
    let names_w = 120;
    let mut out = Node::el("div").attr("class", "cmp-timelines");
    for (name, t) in runs {
        let at = step.min(t.last());
        let lay = timeline::Layout::aligned(t, n, width - names_w, at, differs.clone());
        let mut lanes = Node::el("ul").attr("class", "lanes");
        for l in &t.view(at).lanes {
            lanes.push(
                Node::el("li")
                    .attr(
                        "class",
                        if l.down {
                            "lane-name down"
                        } else {
                            "lane-name"
                        },
                    )
                    .child(Node::el("span").text(l.name.get(lang))),
            );
        }
        let drawing = Node::el("div")
            .attr("class", "tl-stack")
            .child(timeline::base(t, at, lang, &lay))
            .child(
                Node::el("div")
                    .attr("class", "tl-move")
                    .child(timeline::moving(t, at, 1.0, lang, &lay)),
            );
        out.push(
            Node::el("figure")
                .attr("class", "cmp-run")
                .attr("aria-label", name)
                .child(Node::el("figcaption").text(name))
                .child(
                    Node::el("div")
                        .attr("class", "tl")
                        .child(lanes)
                        .child(Node::el("div").attr("class", "tl-scroll").child(drawing)),
                ),
        );
    }
    out
}

/// A run's step `step` (past its end: its last).
fn at(run: &Trace, step: usize) -> &Step {
    &run.steps[step.min(run.last())]
}

/// One side of the comparison: its verdicts and tables, each marked where it differs from
/// `other`'s.
pub fn column(name: &str, runs: (&Trace, &Trace), step: usize, lang: Lang, t: &Ui) -> Node {
    let w = super::i18n::compare_words(lang);
    let (this, other) = (at(runs.0, step), at(runs.1, step));
    let (this_view, other_view) = (runs.0.view(step), runs.1.view(step));
    let differs: Vec<bool> = this
        .verdicts
        .iter()
        .map(|v| {
            other
                .verdicts
                .iter()
                .find(|o| o.name == v.name)
                .is_none_or(|o| o.status != v.status)
        })
        .collect();
    let mut col = Node::el("div")
        .attr("class", "cmp-col")
        .child(Node::el("h3").text(name));
    col.push(invariants(&this.verdicts, usize::MAX, lang, t, &differs));
    let mut grid = Node::el("div").attr("class", "tables");
    for tv in &this_view.tables {
        let note = match other_view.tables.iter().find(|o| o.key == tv.key) {
            None => Some(w.only_here),
            Some(o) if !same_rows(tv, o) => Some(t.differs),
            Some(_) => None,
        };
        grid.push(table(tv, lang, t, note, Some(name)));
    }
    col.child(grid)
}

fn same_rows(a: &TableView, b: &TableView) -> bool {
    a.lost == b.lost
        && a.rows.len() == b.rows.len()
        && a.rows.iter().zip(&b.rows).all(|(x, y)| x.cells == y.cells)
}

#[component]
pub fn BreakIt() -> impl IntoView {
    let ctx = use_ctx();
    let ex = use_explore();
    // The best possible comes from the explorer: start it whenever the challenge needs it.
    Effect::new(move |_| {
        if ctx.breaking.get() && ex.panel.with(|p| p.mine == Run::Idle) {
            ex.run(ctx.variant.get_untracked(), false);
        }
    });
    let on_click = move |ev: leptos::ev::MouseEvent| match Cmd::of(&ev) {
        Some(Cmd::ChallengeRestart) => {
            ctx.load(ctx.variant.get_untracked(), Vec::new());
            super::browser::focus_after_render("#step-forward");
        }
        Some(Cmd::ChallengeLeave) => {
            ctx.set_breaking(false);
            Cmd::Break.refocus();
        }
        _ => {}
    };
    let draw = move || {
        if !ctx.breaking.get() {
            return Vec::new();
        }
        let (lang, t, step) = (ctx.lang.get(), ctx.t(), ctx.cursor.get().step);
        let run = ex.panel.with(|p| p.mine.clone());
        ctx.trace
            .with(|tr| {
                tr.steps
                    .get(step)
                    .map(|s| challenge(s, step, &run, lang, t))
            })
            .unwrap_or_default()
    };
    view! {
        <section class="card challenge" aria-labelledby="brk-h" hidden=move || !ctx.breaking.get() on:click=on_click>
            <h2 id="brk-h">{move || ctx.t().break_it}</h2>
            <div aria-live="polite">{drawn("brk-body", draw)}</div>
        </section>
    }
}

/// The challenge's card: the goal, the move counter, the best possible, and the outcome.
pub fn challenge(s: &Step, step: usize, run: &Run, lang: Lang, t: &Ui) -> Vec<Node> {
    let w = super::i18n::compare_words(lang);
    let mut out = vec![Node::el("p").attr("class", "muted").text(w.break_goal)];
    // The explorer's shortest counterexample over all invariants.
    let best = match run {
        Run::Done(sum) => sum
            .invariants
            .iter()
            .filter_map(|i| {
                i.counterexample
                    .as_ref()
                    .map(|p| (p.len(), i.name.get(lang)))
            })
            .min_by_key(|b| b.0)
            .map(|(n, name)| (n, name.to_string())),
        _ => None,
    };
    let best_line = match (run, &best) {
        (Run::Done(_), Some((n, name))) => i18n::best_possible(lang, *n, name),
        (Run::Done(_), None) => w.break_fixed.to_string(),
        (Run::Running { .. }, _) => w.best_pending.to_string(),
        _ => String::new(),
    };
    out.push(
        Node::el("p")
            .attr("class", "brk-score")
            .child(
                Node::el("strong")
                    .attr("class", "brk-moves")
                    .text(i18n::moves(lang, step)),
            )
            .text(" · ")
            .text(best_line),
    );
    let broken = s
        .verdicts
        .iter()
        .filter(|v| v.status == Status::Violated)
        .filter_map(|v| v.since.map(|k| (k, v.name.get(lang))))
        .min_by_key(|b| b.0);
    if let Some((k, name)) = broken {
        out.push(
            Node::el("p")
                .attr("class", "brk-won")
                .attr("role", "status")
                .text(i18n::broke(lang, name, k, best.as_ref().map(|b| b.0))),
        );
    }
    let button = |cmd: Cmd, text: &str| {
        Node::el("button")
            .attr("type", "button")
            .attr("class", "btn")
            .cmd(cmd)
            .text(text)
    };
    out.push(
        Node::el("div")
            .attr("class", "exp-bar")
            .child(button(Cmd::ChallengeRestart, t.start_over))
            .child(button(Cmd::ChallengeLeave, w.leave_break)),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios;
    use crate::ui::dom::html;
    use crate::ui::i18n::{EN, ZH};

    fn done(scenario: usize, variant: usize) -> Run {
        Run::Done(crate::explorer::summary_of(scenario, variant))
    }

    #[test]
    fn the_challenge_counts_moves_and_compares_with_the_explorer() {
        let sc = scenarios::all()[1];
        // Two relays: relay B takes relay A's row at step 4, the shortest possible is 3.
        let trace = sc.trace(4, &[]);
        let run = done(1, 4);
        let out = html(&challenge(&trace.steps[4], 4, &run, Lang::En, &EN));
        assert!(out.contains("Moves: 4"), "{out}");
        assert!(out.contains("Best possible: 3 moves (each row published by one relay at a time)"));
        assert!(
            out.contains("You broke “each row published by one relay at a time” in 4 moves. The explorer's shortest run does it in 3."),
            "{out}"
        );
        let before = html(&challenge(&trace.steps[3], 3, &run, Lang::Zh, &ZH));
        assert!(
            before.contains("步数：3") && !before.contains("你用"),
            "{before}"
        );
        // A fix: nobody can win.
        let fixed = sc.trace(5, &[]);
        let out = html(&challenge(&fixed.steps[2], 2, &done(1, 5), Lang::En, &EN));
        assert!(out.contains("Nobody can win here"));
    }

    #[test]
    fn compare_marks_the_differing_tables_and_verdicts_in_words() {
        let sc = scenarios::all()[1];
        let naive = sc.trace(0, &[0, 0, 0, 0, 3]);
        let fixed = sc.trace(1, &sc.follow(1, &naive.keys()));
        let step = 17;
        let out = html(&[column("naive", (&naive, &fixed), step, Lang::En, &EN)]);
        assert!(out.contains("inv violated differs"), "{out}");
        assert!(out.contains("≠ differs"));
        let out = html(&[column("fixed", (&fixed, &naive), step, Lang::En, &EN)]);
        assert!(
            out.contains("≠ only here"),
            "processed_messages exists only with the inbox: {out}"
        );
        // The same table on both sides is two regions: their names tell them apart.
        for tv in &fixed.view(step).tables {
            let name = format!("aria-label=\"{} — fixed\"", tv.title.get(Lang::En));
            assert!(out.contains(&name), "{out}");
        }
    }
}
