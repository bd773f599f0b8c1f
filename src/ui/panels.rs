//! The header, notices, narration, the scheduler's choices and the invariants panel.

use super::app::use_ctx;
use super::browser;
use super::i18n::{jump_to, violated_at};
use crate::player::PlayerEvent;
use crate::scenarios;
use crate::sim::{InvKind, Lang, Status};
use leptos::prelude::*;

#[component]
pub fn Header() -> impl IntoView {
    let ctx = use_ctx();
    let copy = move |_| {
        browser::copy_text(&browser::location_href(), move |ok| {
            let t = ctx.t();
            ctx.status.set(Some(if ok { t.link_copied } else { t.copy_failed }));
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
                        {v.fixed.then(|| view! { <span class="tag">{ctx.t().fixed}</span> })}
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
        <p class="summary">{move || ctx.scenario_ref().meta().summary.get(ctx.lang.get()).to_string()}</p>
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
        .query_selector(&format!(".segmented[role=radiogroup] button:nth-child({})", next + 1))
        .ok()
        .flatten()
    {
        let _ = wasm_bindgen::JsCast::dyn_ref::<web_sys::HtmlElement>(&el).map(|e| e.focus());
    }
}

#[component]
pub fn Notices() -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <Show when=move || ctx.notices.with(|n| !n.is_empty())>
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
        </Show>
    }
}

#[component]
pub fn Narration() -> impl IntoView {
    let ctx = use_ctx();
    let step = move || ctx.cursor.get().step;
    let text = move || {
        let lang = ctx.lang.get();
        ctx.trace.with(|t| t.steps.get(step()).map(|s| s.info.narration.get(lang).to_string()).unwrap_or_default())
    };
    let title = move || {
        let lang = ctx.lang.get();
        ctx.trace.with(|t| t.steps.get(step()).map(|s| s.info.title.get(lang).to_string()).unwrap_or_default())
    };
    let code = move || ctx.trace.with(|t| t.steps.get(step()).and_then(|s| s.info.code.clone()));
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
                <pre class="code" aria-label=ctx.t().code><code>{c}</code></pre>
            })}
        </section>
    }
}

#[component]
pub fn Choices() -> impl IntoView {
    let ctx = use_ctx();
    let choices = move || ctx.trace.with(|t| t.steps.get(ctx.cursor.get().step).map(|s| s.choices.clone()).unwrap_or_default());
    let buttons = move |faults: bool| {
        let lang = ctx.lang.get();
        let list: Vec<_> = choices().into_iter().filter(|c| c.fault == faults).collect();
        let first = list.first().map(|c| c.index);
        list.into_iter()
            .map(|c| {
                let index = c.index;
                let class = if faults { "btn fault" } else { "btn move" };
                view! {
                    <button type="button" class=class on:click=move |_| ctx.choose(index)>
                        {faults.then_some(view! { <span aria-hidden="true">"⚡ "</span> })}
                        {c.label.get(lang).to_string()}
                        {(!faults && first == Some(index)).then(|| view! { <span class="tag">{ctx.t().default_move}</span> })}
                    </button>
                }
            })
            .collect_view()
    };
    let no_faults = move || choices().iter().all(|c| !c.fault);
    view! {
        <section class="card choices" aria-labelledby="faults-h">
            <h2 id="faults-h">{move || ctx.t().faults}</h2>
            <div class="buttons">{move || buttons(true)}</div>
            <Show when=no_faults>
                <p class="muted">{move || ctx.t().faults_none}</p>
            </Show>
            <h2 id="moves-h">{move || ctx.t().next_moves}</h2>
            <p class="muted">{move || ctx.t().next_moves_hint}</p>
            <div class="buttons" role="group" aria-labelledby="moves-h">{move || buttons(false)}</div>
        </section>
    }
}

#[component]
pub fn Invariants() -> impl IntoView {
    let ctx = use_ctx();
    let items = move || {
        let lang = ctx.lang.get();
        let t = ctx.t();
        let step = ctx.cursor.get().step;
        ctx.trace.with(|trace| {
            let Some(s) = trace.steps.get(step) else { return Vec::new() };
            s.verdicts
                .iter()
                .map(|v| {
                    let (icon, class, word) = match v.status {
                        Status::Holds => ("✓", "holds", t.holds.to_string()),
                        Status::Pending => ("⏳", "pending", t.pending.to_string()),
                        Status::Violated => ("✗", "violated", violated_at(lang, v.since.unwrap_or(step))),
                    };
                    let kind = match v.kind {
                        InvKind::Always => t.always,
                        InvKind::Eventually => t.eventually,
                    };
                    let cause = v.cause;
                    view! {
                        <li class=format!("inv {class}")>
                            <div class="inv-head">
                                <span class="inv-icon" aria-hidden="true">{icon}</span>
                                <span class="inv-name">{v.name.get(lang).to_string()}</span>
                                <span class="inv-kind">{kind}</span>
                                <span class="inv-status">{word}</span>
                            </div>
                            <p class="inv-why">{v.why.get(lang).to_string()}</p>
                            {cause.map(|k| view! {
                                <button type="button" class="btn link" on:click=move |_| ctx.dispatch(PlayerEvent::Seek(k))>
                                    {jump_to(lang, k)}
                                </button>
                            })}
                        </li>
                    }
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <section class="card invariants" aria-labelledby="inv-h">
            <h2 id="inv-h">{move || ctx.t().invariants}</h2>
            <ul aria-live="polite">{items}</ul>
        </section>
    }
}
