//! State tables: databases and logs (solid border), process memory (dashed), rows changed by
//! the current step highlighted, a crashed process's memory shown as lost.

use super::app::use_ctx;
use crate::sim::TableView;
use leptos::prelude::*;

#[component]
pub fn Tables() -> impl IntoView {
    let ctx = use_ctx();
    let tables = move || {
        let step = ctx.cursor.get().step;
        ctx.trace.with(|t| t.steps.get(step).map(|s| s.view.tables.clone()).unwrap_or_default())
    };
    view! {
        <section class="card state" aria-labelledby="state-h">
            <h2 id="state-h">{move || ctx.t().state}</h2>
            <div class="tables">
                {move || tables().into_iter().map(|t| view! { <StateTable table=t/> }).collect_view()}
            </div>
        </section>
    }
}

#[component]
fn StateTable(table: TableView) -> impl IntoView {
    let ctx = use_ctx();
    let lang = ctx.lang.get_untracked();
    let t = ctx.t();
    let class = format!(
        "tbl {} {}",
        if table.durable { "durable" } else { "volatile" },
        if table.lost { "lost" } else { "" }
    );
    let kind = if table.durable { t.durable } else { t.volatile };
    let columns = table.columns.iter().map(|c| view! { <th scope="col">{c.get(lang).to_string()}</th> }).collect_view();
    let span = table.columns.len().max(1);
    let body = if table.lost {
        view! { <tr class="lost-row"><td colspan=span>{t.lost}</td></tr> }.into_any()
    } else if table.rows.is_empty() {
        view! { <tr class="empty-row"><td colspan=span>{table.empty.get(lang).to_string()}</td></tr> }.into_any()
    } else {
        table
            .rows
            .iter()
            .map(|r| {
                let class = match (r.changed, r.faint) {
                    (true, true) => "changed faint",
                    (true, false) => "changed",
                    (false, true) => "faint",
                    (false, false) => "",
                };
                let cells = r.cells.iter().enumerate().map(|(i, c)| {
                    let text = c.get(lang).to_string();
                    let marker = (i == 0 && r.changed).then(|| view! {
                        <span class="chg" title=t.changed>"●"<span class="sr-only">{format!(" ({})", t.changed)}</span></span>
                    });
                    view! { <td>{marker}{text}</td> }
                }).collect_view();
                view! { <tr class=class>{cells}</tr> }
            })
            .collect_view()
            .into_any()
    };
    view! {
        <figure class=class>
            <table>
                <caption>
                    <span class="cap">
                        <span class="tbl-title">{table.title.get(lang).to_string()}</span>
                        <span class="tbl-kind">{kind}</span>
                    </span>
                </caption>
                <thead><tr>{columns}</tr></thead>
                <tbody>{body}</tbody>
            </table>
        </figure>
    }
}
