//! The transport bar: like a video player, with a scrubber that is a map of the run.

use super::app::use_ctx;
use super::i18n::step_of;
use super::icons::{icon, Icon};
use crate::player::{PlayerEvent, SPEED_LABELS};
use crate::sim::Status;
use leptos::prelude::*;

#[component]
pub fn Controls() -> impl IntoView {
    let ctx = use_ctx();
    let cursor = move || ctx.cursor.get();
    let btn = move |label: fn(&super::i18n::Ui) -> &'static str, glyph: Icon, ev: PlayerEvent| {
        let id = (ev == PlayerEvent::StepForward).then_some("step-forward");
        view! {
            <button type="button" class="ctl" id=id aria-label=move || label(ctx.t()) title=move || label(ctx.t())
                on:click=move |_| ctx.dispatch(ev)>
                {icon(glyph)}
            </button>
        }
    };
    let play_label = move || {
        if cursor().playing {
            ctx.t().pause
        } else {
            ctx.t().play
        }
    };
    view! {
        <nav class="controls" aria-label=move || ctx.t().timeline>
            <super::panels::VerdictStrip place="bar"/>
            <div class="transport">
                {btn(|t| t.go_start, Icon::Start, PlayerEvent::Start)}
                {btn(|t| t.step_back, Icon::Back, PlayerEvent::StepBack)}
                <button type="button" class="ctl play" aria-label=play_label title=play_label
                    on:click=move |_| ctx.dispatch(PlayerEvent::TogglePlay)>
                    {move || icon(if cursor().playing { Icon::Pause } else { Icon::Play })}
                </button>
                {btn(|t| t.step_forward, Icon::Forward, PlayerEvent::StepForward)}
                {btn(|t| t.go_end, Icon::End, PlayerEvent::End)}
            </div>
            <Scrubber/>
            <span class="counter" aria-live="off">{move || step_of(ctx.lang.get(), cursor().step, cursor().last)}</span>
            <label class="speed">
                <span class="sr-only">{move || ctx.t().speed}</span>
                <select aria-label=move || ctx.t().speed
                    on:change=move |ev| {
                        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                            ctx.dispatch(PlayerEvent::SetSpeed(i));
                        }
                    }>
                    {SPEED_LABELS.iter().enumerate().map(|(i, s)| view! {
                        <option value=i.to_string() selected=move || cursor().speed == i>{*s}</option>
                    }).collect_view()}
                </select>
            </label>
            <p class="keys">{move || ctx.t().keys}</p>
        </nav>
    }
}

/// A range input over the steps, with marks behind it: ⚡ where a fault was injected and ✗
/// where an invariant first broke.
#[component]
fn Scrubber() -> impl IntoView {
    let ctx = use_ctx();
    let marks = move || {
        ctx.trace.with(|t| {
            let last = t.last().max(1);
            let mut out = Vec::new();
            for (k, s) in t.steps.iter().enumerate() {
                if s.fault {
                    out.push((k * 10_000 / last, "⚡", "mk fault"));
                }
            }
            if let Some(s) = t.steps.last() {
                for v in s.verdicts.iter().filter(|v| v.status == Status::Violated) {
                    let k = v.since.unwrap_or(0);
                    out.push((k * 10_000 / last, "✗", "mk violated"));
                }
            }
            // `style:left` sets the property through the CSSOM, which a strict
            // Content-Security-Policy allows (a `style` attribute it would block).
            out.into_iter()
                .map(|(left, glyph, class)| view! { <span class=class style:left=format!("{}.{:02}%", left / 100, left % 100) aria-hidden="true">{glyph}</span> })
                .collect_view()
        })
    };
    let value_text = move || {
        let lang = ctx.lang.get();
        let c = ctx.cursor.get();
        let title = ctx.trace.with(|t| {
            t.steps
                .get(c.step)
                .map(|s| s.info.title.get(lang).to_string())
                .unwrap_or_default()
        });
        format!("{}: {title}", step_of(lang, c.step, c.last))
    };
    view! {
        <div class="scrubber">
            <div class="marks">{marks}</div>
            <input type="range" min="0" step="1"
                aria-label=move || ctx.t().position
                aria-valuetext=value_text
                title=value_text
                prop:max=move || ctx.cursor.get().last.to_string()
                prop:value=move || ctx.cursor.get().step.to_string()
                on:input=move |ev| {
                    if let Ok(k) = event_target_value(&ev).parse::<usize>() {
                        ctx.dispatch(PlayerEvent::Seek(k));
                    }
                }
            />
        </div>
    }
}
