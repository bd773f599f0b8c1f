//! The header, notices, narration, the scheduler's choices and the invariants panel.

use super::app::use_ctx;
use super::browser;
use super::i18n::Ui;
use super::i18n::{jump_to, violated_at};
use super::timeline::escape;
use crate::player::PlayerEvent;
use crate::scenarios;
use crate::sim::{Choice, InvKind, Lang, Status, Verdict};
use leptos::prelude::*;
use std::fmt::Write;

#[component]
pub fn Header() -> impl IntoView {
    let ctx = use_ctx();
    let copy = move |_| {
        browser::copy_text(&browser::location_href(), move |ok| {
            let t = ctx.t();
            ctx.status
                .set(Some(if ok { t.link_copied } else { t.copy_failed }));
        });
    };
    let variants = move || {
        let lang = ctx.lang.get();
        let meta = ctx.scenario_ref().meta();
        meta.variants
            .into_iter()
            .enumerate()
            .map(|(i, v)| {
                let checked = move || ctx.variant.get() == i;
                view! {
                    <button
                        type="button"
                        role="radio"
                        class="seg"
                        aria-checked=move || if checked() { "true" } else { "false" }
                        tabindex=move || if checked() { "0" } else { "-1" }
                        title=v.blurb.get(lang).to_string()
                        on:click=move |_| ctx.set_variant(i)
                        on:keydown=move |ev| radio_keys(ev, i, ctx)
                    >
                        {v.name.get(lang).to_string()}
                        {v.fixed.then(|| view! { <span class="tag">{move || ctx.t().fixed}</span> })}
                    </button>
                }
            })
            .collect_view()
    };
    let scenario_options = move || {
        let lang = ctx.lang.get();
        scenarios::all()
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let meta = s.meta();
                view! { <option value=i.to_string() selected=move || ctx.scenario.get() == i>{meta.title.get(lang).to_string()}</option> }
            })
            .collect_view()
    };
    let lang_button = move |lang: Lang, label: &'static str| {
        view! {
            <button
                type="button"
                class="seg"
                lang=if lang == Lang::Zh { "zh-Hans" } else { "en" }
                aria-pressed=move || if ctx.lang.get() == lang { "true" } else { "false" }
                on:click=move |_| ctx.lang.set(lang)
            >
                {label}
            </button>
        }
    };
    view! {
        <header class="top">
            <div class="brand">
                <h1>"Effectively Once"</h1>
                <p class="tagline">{move || ctx.t().tagline}</p>
            </div>
            <label class="field">
                <span class="field-label">{move || ctx.t().scenario}</span>
                <select
                    on:change=move |ev| {
                        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                            ctx.set_scenario(i);
                        }
                    }
                >
                    {scenario_options}
                </select>
            </label>
            <div class="segmented" role="radiogroup" aria-label=move || ctx.t().variant>
                {variants}
            </div>
            <div class="segmented" role="group" aria-label=move || ctx.t().language>
                {lang_button(Lang::En, "English")}
                {lang_button(Lang::Zh, "中文")}
            </div>
            <button type="button" class="btn" on:click=copy>
                {super::icons::icon(super::icons::Icon::Link)}
                {move || ctx.t().copy_link}
            </button>
            <p class="sr-status" role="status">{move || ctx.status.get()}</p>
        </header>
    }
}

/// Arrow keys move between the variant radios, as in any radio group.
fn radio_keys(ev: leptos::ev::KeyboardEvent, i: usize, ctx: super::app::Ctx) {
    let n = ctx.scenario_ref().meta().variants.len();
    let next = match ev.key().as_str() {
        "ArrowRight" | "ArrowDown" => (i + 1) % n,
        "ArrowLeft" | "ArrowUp" => (i + n - 1) % n,
        _ => return,
    };
    ev.prevent_default();
    ev.stop_propagation();
    ctx.set_variant(next);
    if let Some(el) = document()
        .query_selector(&format!(
            ".segmented[role=radiogroup] button:nth-child({})",
            next + 1
        ))
        .ok()
        .flatten()
    {
        let _ = wasm_bindgen::JsCast::dyn_ref::<web_sys::HtmlElement>(&el).map(|e| e.focus());
    }
}

/// One sentence on what the current scenario teaches.
#[component]
pub fn Summary() -> impl IntoView {
    let ctx = use_ctx();
    view! { <p class="summary">{move || ctx.scenario_ref().meta().summary.get(ctx.lang.get()).to_string()}</p> }
}

#[component]
pub fn Notices() -> impl IntoView {
    let ctx = use_ctx();
    view! {
        {move || ctx.notices.with(|n| !n.is_empty()).then(|| view! {
            <div class="notice" role="alert">
                <strong>{move || ctx.t().notice}</strong>
                <ul>
                    {move || {
                        let lang = ctx.lang.get();
                        ctx.notices.get().into_iter().map(|n| view! { <li>{n.get(lang).to_string()}</li> }).collect_view()
                    }}
                </ul>
                <button type="button" class="btn" on:click=move |_| ctx.notices.set(Vec::new())>
                    {move || ctx.t().dismiss}
                </button>
            </div>
        })}
    }
}

#[component]
pub fn Narration() -> impl IntoView {
    let ctx = use_ctx();
    let step = move || ctx.cursor.get().step;
    // A text of the current step's `StepInfo`, in the current language.
    let info_text = move |pick: fn(&crate::sim::StepInfo) -> &crate::sim::Text| {
        let lang = ctx.lang.get();
        ctx.trace.with(|t| {
            t.steps
                .get(step())
                .map(|s| pick(&s.info).get(lang).to_string())
                .unwrap_or_default()
        })
    };
    let text = move || info_text(|i| &i.narration);
    let title = move || info_text(|i| &i.title);
    let code = move || {
        ctx.trace
            .with(|t| t.steps.get(step()).and_then(|s| s.info.code.clone()))
    };
    view! {
        <section class="card narration" aria-labelledby="narration-h">
            <h2 id="narration-h">{move || ctx.t().narration}</h2>
            <div aria-live="polite" aria-atomic="true">
                <p class="step-title">
                    <span class="step-no">{move || format!("{} ", step())}</span>
                    {title}
                </p>
                <p class="story">{text}</p>
            </div>
            {move || code().map(|c| view! {
                <pre class="code" aria-label=move || ctx.t().code><code>{c}</code></pre>
            })}
        </section>
    }
}

#[component]
pub fn Choices() -> impl IntoView {
    let ctx = use_ctx();
    let html = move |faults: bool| {
        let (lang, t) = (ctx.lang.get(), ctx.t());
        ctx.trace.with(|tr| {
            tr.steps
                .get(ctx.cursor.get().step)
                .map(|s| choices_html(&s.choices, faults, lang, t))
                .unwrap_or_default()
        })
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some(index) = browser::data_attr(&ev, "data-choice").and_then(|v| v.parse().ok()) {
            ctx.choose(index);
            // The buttons are redrawn for the new step: keep keyboard focus in the panel.
            browser::focus_after_render(".choices button, #step-forward");
        }
    };
    view! {
        <section class="card choices" aria-labelledby="faults-h" on:click=on_click>
            <h2 id="faults-h">{move || ctx.t().faults}</h2>
            <div class="buttons" inner_html=move || html(true)></div>
            <h2 id="moves-h">{move || ctx.t().next_moves}</h2>
            <p class="muted">{move || ctx.t().next_moves_hint}</p>
            <div class="buttons" role="group" aria-labelledby="moves-h" inner_html=move || html(false)></div>
        </section>
    }
}

/// The buttons for the faults (or the ordinary moves) enabled at a step.
pub fn choices_html(choices: &[Choice], faults: bool, lang: Lang, t: &Ui) -> String {
    let mut s = String::new();
    let mut first = true;
    for c in choices.iter().filter(|c| c.fault == faults) {
        let class = if faults { "btn fault" } else { "btn move" };
        let _ = write!(
            s,
            "<button type=\"button\" class=\"{class}\" data-choice=\"{}\">",
            c.index
        );
        if faults {
            s.push_str("<span aria-hidden=\"true\">⚡ </span>");
        }
        s.push_str(&escape(c.label.get(lang)));
        if !faults && first {
            let _ = write!(s, " <span class=\"tag\">{}</span>", t.default_move);
        }
        s.push_str("</button>");
        first = false;
    }
    if faults && first {
        let _ = write!(s, "<p class=\"muted\">{}</p>", t.faults_none);
    }
    s
}

#[component]
pub fn Invariants() -> impl IntoView {
    let ctx = use_ctx();
    let html = move || {
        let (lang, t, step) = (ctx.lang.get(), ctx.t(), ctx.cursor.get().step);
        ctx.trace.with(|tr| {
            tr.steps
                .get(step)
                .map(|s| invariants_html(&s.verdicts, step, lang, t))
                .unwrap_or_default()
        })
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some(k) = browser::data_attr(&ev, "data-seek").and_then(|v| v.parse().ok()) {
            ctx.dispatch(PlayerEvent::Seek(k));
            browser::focus_after_render(".scrubber input");
        }
    };
    view! {
        <section class="card invariants" aria-labelledby="inv-h">
            <h2 id="inv-h">{move || ctx.t().invariants}</h2>
            <ul aria-live="polite" on:click=on_click inner_html=html></ul>
        </section>
    }
}

/// Each invariant with its status as an icon *and* a word, why, and where it broke.
pub fn invariants_html(verdicts: &[Verdict], step: usize, lang: Lang, t: &Ui) -> String {
    let mut s = String::new();
    for v in verdicts {
        let (icon, class, word) = match v.status {
            Status::Holds => ("✓", "holds", t.holds.to_string()),
            Status::Pending => ("⏳", "pending", t.pending.to_string()),
            Status::Violated => ("✗", "violated", violated_at(lang, v.since.unwrap_or(step))),
        };
        let kind = match v.kind {
            InvKind::Always => t.always,
            InvKind::Eventually => t.eventually,
        };
        let _ = write!(
            s,
            "<li class=\"inv {class}\"><div class=\"inv-head\"><span class=\"inv-icon\" aria-hidden=\"true\">{icon}</span>\
             <span class=\"inv-name\">{}</span><span class=\"inv-kind\">{kind}</span><span class=\"inv-status\">{word}</span></div>\
             <p class=\"inv-why\">{}</p>",
            escape(v.name.get(lang)),
            escape(v.why.get(lang))
        );
        if let Some(k) = v.cause {
            let _ = write!(
                s,
                "<button type=\"button\" class=\"btn link\" data-seek=\"{k}\">{}</button>",
                jump_to(lang, k)
            );
        }
        s.push_str("</li>");
    }
    s
}
