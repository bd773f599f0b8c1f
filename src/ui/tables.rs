//! State tables: databases and logs (solid border), process memory (dashed), rows changed by
//! the current step highlighted, a crashed process's memory shown as lost.
//!
//! The tables are static markup for each step, so they are built as an HTML string by the
//! pure [`tables_html`]: cheap to render, small in the bundle, testable natively.

use super::app::use_ctx;
use super::i18n::Ui;
use super::timeline::escape;
use crate::sim::{Lang, TableView};
use leptos::prelude::*;
use std::fmt::Write;

#[component]
pub fn Tables() -> impl IntoView {
    let ctx = use_ctx();
    let html = move || {
        let (step, lang) = (ctx.cursor.get().step, ctx.lang.get());
        ctx.trace.with(|t| {
            t.steps
                .get(step)
                .map(|s| tables_html(&s.view.tables, lang, ctx.t()))
                .unwrap_or_default()
        })
    };
    view! {
        <section class="card state" aria-labelledby="state-h">
            <h2 id="state-h">{move || ctx.t().state}</h2>
            <div class="tables" inner_html=html></div>
        </section>
    }
}

pub fn tables_html(tables: &[TableView], lang: Lang, ui: &Ui) -> String {
    let mut s = String::with_capacity(4096);
    for table in tables {
        let kind = if table.durable { "durable" } else { "volatile" };
        let lost = if table.lost { " lost" } else { "" };
        let label = if table.durable {
            ui.durable
        } else {
            ui.volatile
        };
        let _ = write!(
            s,
            "<figure class=\"tbl {kind}{lost}\"><table><caption><span class=\"cap\">\
             <span class=\"tbl-title\">{}</span><span class=\"tbl-kind\">{label}</span></span></caption><thead><tr>",
            escape(table.title.get(lang))
        );
        for c in &table.columns {
            // Column names like `aggregate_id` may break after the underscore, nowhere else.
            let name = escape(c.get(lang)).replace('_', "_<wbr>");
            let _ = write!(s, "<th scope=\"col\">{name}</th>");
        }
        s.push_str("</tr></thead><tbody>");
        let span = table.columns.len().max(1);
        if table.lost {
            let _ = write!(
                s,
                "<tr class=\"lost-row\"><td colspan=\"{span}\">{}</td></tr>",
                ui.lost
            );
        } else if table.rows.is_empty() {
            let _ = write!(
                s,
                "<tr class=\"empty-row\"><td colspan=\"{span}\">{}</td></tr>",
                escape(table.empty.get(lang))
            );
        }
        for r in table.rows.iter().filter(|_| !table.lost) {
            let class = match (r.changed, r.faint) {
                (true, true) => "changed faint",
                (true, false) => "changed",
                (false, true) => "faint",
                (false, false) => "",
            };
            let _ = write!(s, "<tr class=\"{class}\">");
            for (i, c) in r.cells.iter().enumerate() {
                s.push_str("<td>");
                if i == 0 && r.changed {
                    let _ = write!(
                        s,
                        "<span class=\"chg\" title=\"{0}\" aria-hidden=\"true\">●</span><span class=\"sr-only\">({0}) </span>",
                        ui.changed
                    );
                }
                s.push_str(&escape(c.get(lang)));
                s.push_str("</td>");
            }
            s.push_str("</tr>");
        }
        s.push_str("</tbody></table></figure>");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios;
    use crate::ui::i18n::{EN, ZH};

    #[test]
    fn changed_rows_are_marked_in_words_too_and_lost_memory_says_so() {
        let t = scenarios::all()[0].trace(0, &[0, 0, 1]);
        let html = tables_html(&t.steps[1].view.tables, Lang::En, &EN);
        assert!(
            html.contains("<tr class=\"changed faint\">"),
            "the uncommitted insert"
        );
        assert!(html.contains("(changed)"));
        let html = tables_html(&t.steps[3].view.tables, Lang::En, &EN);
        assert!(html.contains("lost in the crash"));
        let html = tables_html(&t.steps[3].view.tables, Lang::Zh, &ZH);
        assert!(html.contains("随崩溃丢失"));
    }
}
