//! State tables: databases and logs (solid border), process memory (dashed), rows changed by
//! the current step highlighted, a crashed process's memory shown as lost.
//!
//! Built by the pure [`tables`] as an element tree (see `ui::dom`): cheap to render, small in
//! the bundle, testable natively.

use super::app::use_ctx;
use super::dom::{drawn, patched, Node};
use super::i18n::Ui;
use crate::scenarios;
use crate::sim::{CodeView, Lang, Metric, RowRef, Status, TableView};
use leptos::prelude::*;

#[component]
pub fn Tables() -> impl IntoView {
    let ctx = use_ctx();
    let draw = move || {
        let (step, lang, t) = (ctx.cursor.get().step, ctx.lang.get(), ctx.t());
        let fold = ctx.cursor.get().playing;
        ctx.trace.with(|tr| {
            tr.steps
                .get(step)
                .map(|s| {
                    let view = tr.view(step);
                    let mut nodes = metrics(&view.metrics, step, lang);
                    // Curves that are the scenario's figure are drawn large, not here.
                    if super::figure::is_plots(&view) != Some(true) {
                        nodes.extend(super::plot::plots(&view.plots, lang));
                    }
                    nodes.extend(super::calls::calls(
                        &view.tree,
                        view.chart.as_ref(),
                        lang,
                        t,
                    ));
                    let hot: Vec<RowRef> = (s.verdicts.iter())
                        .filter(|v| v.status == Status::Violated)
                        .flat_map(|v| v.rows.iter().cloned())
                        .collect();
                    nodes.extend(stage_tables(&view.tables, lang, t, &hot, fold));
                    nodes
                })
                .unwrap_or_default()
        })
    };
    view! {
        <section class="card state" aria-labelledby="state-h">
            <h2 id="state-h">{move || ctx.t().state}</h2>
            {patched("tables", ctx.unless_embed(draw))}
        </section>
    }
}

/// The live numbers as a definition list; nothing when the scenario has none.
pub fn metrics(metrics: &[Metric], step: usize, lang: Lang) -> Vec<Node> {
    if metrics.is_empty() {
        return Vec::new();
    }
    let mut dl = Node::el("dl").attr("class", "metrics");
    for m in metrics {
        let value = m.value.at(step).map_or("–".to_string(), |n| n.to_string());
        dl.push(
            Node::el("div")
                .child(Node::el("dt").text(m.name.get(lang)))
                .child(Node::el("dd").text(value)),
        );
    }
    vec![dl]
}

/// The program card: shown only for scenarios whose actors run code (`StateView::code`).
#[component]
pub fn Program() -> impl IntoView {
    let ctx = use_ctx();
    let draw = move || {
        let (step, lang, t) = (ctx.cursor.get().step, ctx.lang.get(), ctx.t());
        let slug = ctx.meta().slug;
        ctx.trace.with(|tr| {
            let view = tr.view(step);
            (view.code.as_ref())
                .map(|c| {
                    let note =
                        scenarios::program_checked(slug).map(|k| t.program_checked[k as usize]);
                    program(c, note, lang, t)
                })
                .unwrap_or_default()
        })
    };
    view! { {drawn("program-card", ctx.unless_embed(draw))} }
}

/// The program the actors run, numbered, with each actor's letter in the gutter of its line
/// and, below, where each one is and what it is doing in words — never by colour alone — and
/// what the test suite checked it against (`note`).
pub fn program(c: &CodeView, note: Option<&str>, lang: Lang, ui: &Ui) -> Vec<Node> {
    let mut code = Node::el("code");
    let who_at = |i: usize| -> String {
        c.cursors
            .iter()
            .filter(|k| k.line == i)
            .map(|k| k.who.as_str())
            .collect()
    };
    // The gutter is as wide as the most names on one line ("A", "AB", "API", "12345"); the CSS
    // sizes it by the class `g2`–`g5`.
    let width = (0..c.text.lines().count())
        .map(|i| who_at(i).chars().count())
        .max()
        .unwrap_or(0)
        .clamp(2, 5);
    for (i, line) in c.text.lines().enumerate() {
        let who = who_at(i);
        let (class, gutter) = if who.is_empty() {
            ("ln", " ".repeat(width + 1))
        } else {
            ("ln here", format!("{who:>width$}▶"))
        };
        code.push(
            Node::el("span")
                .attr("class", class)
                .child(Node::el("span").attr("class", "ln-who").text(gutter))
                .child(
                    Node::el("span")
                        .attr("class", "ln-no")
                        .attr("aria-hidden", "true")
                        .text(format!("{:>2} ", i + 1)),
                )
                .text(line),
        );
    }
    let mut legend = Node::el("ul").attr("class", "cursors");
    for k in &c.cursors {
        legend.push(
            Node::el("li")
                .child(Node::el("b").text(k.who.as_str()))
                .text(format!(
                    " · {}{}{} · {}",
                    ui.line[0],
                    k.line + 1,
                    ui.line[1],
                    k.doing.get(lang)
                )),
        );
    }
    vec![Node::el("section")
        .attr("class", "card program")
        .attr("aria-labelledby", "program-h")
        .child(
            Node::el("h2")
                .attr("id", "program-h")
                .text(format!("{} ", ui.program))
                .child(Node::el("code").text(c.title)),
        )
        // Focusable: long lines scroll sideways on a phone.
        .child(
            Node::el("pre")
                .attr("class", format!("g{width}"))
                .attr("tabindex", "0")
                .attr("aria-label", c.title)
                .child(code),
        )
        .child(legend)
        .children(note.map(|n| Node::el("p").attr("class", "checked muted").text(n)))]
}

#[cfg(test)]
pub fn tables(views: &[TableView], lang: Lang, ui: &Ui) -> Vec<Node> {
    stage_tables(views, lang, ui, &[], false)
}

/// The tables on the stage: rows a violation is about (`hot`, table and row keys) marked, and
/// while playing (`fold`) a table that did not change folded to its title, so the eye goes to
/// what moved.
pub fn stage_tables(
    views: &[TableView],
    lang: Lang,
    ui: &Ui,
    hot: &[RowRef],
    fold: bool,
) -> Vec<Node> {
    views
        .iter()
        .map(|t| {
            let rows: Vec<&str> = (hot.iter())
                .filter(|(k, _)| *k == t.key)
                .map(|(_, r)| r.as_str())
                .collect();
            let quiet = fold && rows.is_empty() && !t.lost && t.rows.iter().all(|r| !r.changed);
            if quiet {
                folded(t, lang, ui)
            } else {
                table_with(t, lang, ui, None, None, &rows)
            }
        })
        .collect()
}

/// A table that did not change at this step, folded to its title row.
fn folded(t: &TableView, lang: Lang, ui: &Ui) -> Node {
    let kind = if t.durable { "durable" } else { "volatile" };
    Node::el("figure")
        .attr("class", format!("tbl {kind} folded"))
        .attr("aria-label", t.title.get(lang))
        .child(
            Node::el("span")
                .attr("class", "cap")
                .child(
                    Node::el("span")
                        .attr("class", "tbl-title")
                        .text(t.title.get(lang)),
                )
                .child(
                    Node::el("span")
                        .attr("class", "tbl-kind")
                        .text(ui.unchanged),
                ),
        )
}

/// One table; `note` ("differs") marks it in the compare view, in words and with a class, and
/// `side` (the variant's name there) tells its region from the same table on the other side.
pub fn table(t: &TableView, lang: Lang, ui: &Ui, note: Option<&str>, side: Option<&str>) -> Node {
    table_with(t, lang, ui, note, side, &[])
}

fn table_with(
    t: &TableView,
    lang: Lang,
    ui: &Ui,
    note: Option<&str>,
    side: Option<&str>,
    hot: &[&str],
) -> Node {
    let kind = if t.durable { "durable" } else { "volatile" };
    let mut class = if t.lost {
        format!("tbl {kind} lost")
    } else {
        format!("tbl {kind}")
    };
    if note.is_some() {
        class.push_str(" differs");
    }
    let label = match (t.reference, t.durable) {
        (true, _) => ui.reference,
        (false, true) => ui.durable,
        (false, false) => ui.volatile,
    };
    let caption = Node::el("caption").child(
        Node::el("span")
            .attr("class", "cap")
            .child(
                Node::el("span")
                    .attr("class", "tbl-title")
                    .text(t.title.get(lang)),
            )
            .child(Node::el("span").attr("class", "tbl-kind").text(label)),
    );
    let caption = match note {
        Some(n) => caption.child(
            Node::el("span")
                .attr("class", "diff-tag")
                .text(format!("≠ {n}")),
        ),
        None => caption,
    };
    let mut head = Node::el("tr");
    for c in &t.columns {
        // Column names like `aggregate_id` may break after the underscore, nowhere else.
        let mut th = Node::el("th").attr("scope", "col");
        let name = c.get(lang);
        for (i, part) in name.split('_').enumerate() {
            if i > 0 {
                th.push_text("_");
                th.push(Node::el("wbr"));
            }
            th.push_text(part);
        }
        head.push(th);
    }
    let span = t.columns.len().max(1);
    let mut body = Node::el("tbody");
    let note = |class: &'static str, text: &str| {
        Node::el("tr")
            .attr("class", class)
            .child(Node::el("td").attr("colspan", span).text(text))
    };
    if t.lost {
        body.push(note("lost-row", ui.lost));
    } else if t.rows.is_empty() {
        body.push(note("empty-row", t.empty.get(lang)));
    }
    for r in t.rows.iter().filter(|_| !t.lost) {
        let class = match (r.changed, r.faint) {
            (true, true) => "changed faint",
            (true, false) => "changed",
            (false, true) => "faint",
            (false, false) => "",
        };
        let is_hot = hot.contains(&r.key.as_str());
        let class = if is_hot {
            format!("{class} hot").trim_start().to_string()
        } else {
            class.to_string()
        };
        let mut tr = Node::el("tr").attr("class", class);
        if r.changed {
            // Its highlight animates: a row changed again is drawn anew, so it flashes again.
            tr = tr.fresh();
        }
        for (i, c) in r.cells.iter().enumerate() {
            let text = c.get(lang);
            let mut td = Node::el("td");
            if reads_whole(text) {
                td = td.attr("class", "whole");
            }
            if i == 0 && is_hot {
                td.push(
                    Node::el("span")
                        .attr("class", "hot-mark")
                        .attr("aria-hidden", "true")
                        .text("✗"),
                );
                td.push(
                    Node::el("span")
                        .attr("class", "sr-only")
                        .text(format!("({}) ", ui.violated)),
                );
            }
            if i == 0 && r.changed {
                td.push(
                    Node::el("span")
                        .attr("class", "chg")
                        .attr("title", ui.changed)
                        .attr("aria-hidden", "true")
                        .text("●"),
                );
                td.push(
                    Node::el("span")
                        .attr("class", "sr-only")
                        .text(format!("({}) ", ui.changed)),
                );
            }
            td.push_text(text);
            tr.push(td);
        }
        body.push(tr);
    }
    // Any table may scroll sideways: on a phone, in a narrow column of the grid, or in a wide
    // fallback font. So each is reachable and named for the keyboard, and a focused table that
    // scrolls keeps the arrow keys for itself (`app::on_key`).
    Node::el("figure")
        .attr("class", class)
        .attr("tabindex", "0")
        .attr("role", "region")
        .attr(
            "aria-label",
            match side {
                Some(side) => format!("{} — {side}", t.title.get(lang)),
                None => t.title.get(lang).to_string(),
            },
        )
        .child(
            Node::el("table")
                .child(caption)
                .child(Node::el("thead").child(head))
                .child(body),
        )
}

/// A value read at a glance stays on one line, and the table scrolls sideways instead: an
/// identifier ("ord-2042" must not break at its hyphen) or a quantity with its unit
/// ("3,000 ms", "gave up"). Longer values wrap: a wide table in the page's narrow column would
/// rather wrap "h(ord-1701,80)" or a sentence than hide a column. Width in columns, CJK two.
fn reads_whole(text: &str) -> bool {
    text.chars()
        .map(|c| if c.is_ascii() { 1 } else { 2 })
        .sum::<usize>()
        <= 10
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios;
    use crate::scenarios::ProgramCheck;
    use crate::ui::dom::html;
    use crate::ui::i18n::{EN, ZH};

    #[test]
    fn changed_rows_are_marked_in_words_too_and_lost_memory_says_so() {
        let t = scenarios::all()[0].trace(0, &[0, 0, 1]);
        let out = html(&tables(&t.view(1).tables, Lang::En, &EN));
        assert!(
            out.contains("<tr class=\"changed faint\">"),
            "the uncommitted insert"
        );
        assert!(out.contains("(changed)"));
        let out = html(&tables(&t.view(3).tables, Lang::En, &EN));
        assert!(out.contains("lost in the crash"));
        let out = html(&tables(&t.view(3).tables, Lang::Zh, &ZH));
        assert!(out.contains("随崩溃丢失"));
    }

    #[test]
    fn every_table_is_a_named_region_the_keyboard_reaches() {
        let t = scenarios::all()[0].trace(0, &[]);
        let views = &t.view(3).tables;
        assert!(views.len() >= 3);
        for (v, lang) in views.iter().zip([Lang::En, Lang::Zh].into_iter().cycle()) {
            let out = html(&[table(v, lang, &EN, None, None)]);
            let want = format!(
                "tabindex=\"0\" role=\"region\" aria-label=\"{}\"",
                v.title.get(lang)
            );
            assert!(out.contains(&want), "{out}");
        }
    }

    #[test]
    fn a_program_card_says_what_the_test_suite_checked_it_against() {
        let code = CodeView {
            title: "read-then-write.js",
            text: "await x;",
            cursors: Vec::new(),
        };
        let run = scenarios::program_checked("refund-cap");
        assert_eq!(run, Some(ProgramCheck::RunNode));
        let note = EN.program_checked[ProgramCheck::RunNode as usize];
        let out = html(&program(&code, Some(note), Lang::En, &EN));
        assert!(out.contains("PostgreSQL 15): every schedule"), "{out}");
        let check = scenarios::program_checked;
        assert_eq!(check("checkpoint-replay"), Some(ProgramCheck::RunLangGraph));
        assert_eq!(check("retry-layers"), None);
        let last = ProgramCheck::RunLangGraph as usize;
        assert!(EN.program_checked[last].contains("LangGraph"));
        assert!(ZH.program_checked[last].contains("LangGraph"));
        assert!(!html(&program(&code, None, Lang::En, &EN)).contains("checked"));
    }

    #[test]
    fn the_code_gutter_is_as_wide_as_the_names_on_one_line() {
        let gutter = |slug: &str, variant: usize| {
            let sc = scenarios::all()[scenarios::index_of(slug).unwrap()];
            let t = sc.trace(variant, &[]);
            let code = (0..t.steps.len())
                .rev()
                .map(|s| t.view(s))
                .find(|v| v.code.as_ref().is_some_and(|c| !c.cursors.is_empty()));
            html(&program(
                code.unwrap().code.as_ref().unwrap(),
                None,
                Lang::En,
                &EN,
            ))
        };
        let out = gutter("backpressure", 1);
        assert!(out.contains("<pre class=\"g3\""), "{out}");
        assert!(out.contains(">API▶<"), "{out}");
        assert!(
            out.contains(">    <"),
            "a line without a cursor: four blanks"
        );
        let out = gutter("refund-cap", 0);
        assert!(out.contains("<pre class=\"g2\""), "{out}");
    }

    #[test]
    fn column_names_break_only_after_underscores() {
        let t = scenarios::all()[0].trace(0, &[]);
        let out = html(&tables(&t.view(3).tables, Lang::En, &EN));
        assert!(
            out.contains("<th scope=\"col\">event_<wbr></wbr>id</th>"),
            "{out}"
        );
    }

    #[test]
    fn identifiers_and_short_values_stay_whole_and_prose_wraps() {
        let sc = scenarios::all()[scenarios::index_of("unknown-outcome").unwrap()];
        let t = sc.trace(0, &[]);
        let out = html(&tables(&t.view(2).tables, Lang::En, &EN));
        assert!(out.contains("<td class=\"whole\">idem-7f3a</td>"), "{out}");
        assert!(out.contains("<td>claimed, about to send</td>"), "{out}");
        assert!(reads_whole("ord-2042"));
        assert!(!reads_whole("h(ord-1701,80)"));
        assert!(reads_whole("3,000 ms"));
        assert!(!reads_whole("1 s × 2.0, max 10 s"));
        assert!(reads_whole("已放弃"));
        assert!(!reads_whole("已领取，准备发送"));
    }
}
