//! The header, notices, narration, the scheduler's choices and the invariants panel.
//!
//! Parts that change only as a whole (the header, the buttons, the invariants) are built as
//! markup by pure functions and handled by delegation: a fraction of the bundle cost of typed
//! views (see ARCHITECTURE.md).

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
    let html = move || {
        let (lang, scenario, variant) = (ctx.lang.get(), ctx.scenario.get(), ctx.variant.get());
        header_html(lang, ctx.t(), scenario, variant)
    };
    // The header is markup (it changes only with the language, scenario or variant); its
    // controls are handled here by delegation.
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some(v) = browser::data_attr(&ev, "data-variant").and_then(|v| v.parse().ok()) {
            ctx.set_variant(v);
            browser::focus_after_render(".top [role=radio][aria-checked=true]");
        } else if let Some(lang) =
            browser::data_attr(&ev, "data-lang").and_then(|l| Lang::parse(&l))
        {
            ctx.lang.set(lang);
            browser::focus_after_render(".top [data-lang][aria-pressed=true]");
        } else if browser::data_attr(&ev, "data-copy").is_some() {
            browser::copy_text(&browser::location_href(), move |ok| {
                let t = ctx.t();
                ctx.status
                    .set(Some(if ok { t.link_copied } else { t.copy_failed }));
            });
        }
    };
    let on_change = move |ev: leptos::ev::Event| {
        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
            ctx.set_scenario(i);
        }
    };
    // Arrow keys move between the variant radios, as in any radio group.
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        let Some(i) =
            browser::key_target_attr(&ev, "data-variant").and_then(|v| v.parse::<usize>().ok())
        else {
            return;
        };
        let n = ctx.scenario_ref().meta().variants.len();
        let next = match ev.key().as_str() {
            "ArrowRight" | "ArrowDown" => (i + 1) % n,
            "ArrowLeft" | "ArrowUp" => (i + n - 1) % n,
            _ => return,
        };
        ev.prevent_default();
        ev.stop_propagation();
        ctx.set_variant(next);
        browser::focus_after_render(".top [role=radio][aria-checked=true]");
    };
    view! {
        <header class="top" on:click=on_click on:change=on_change on:keydown=on_keydown>
            <div class="top-inner" inner_html=html></div>
            <p class="sr-status" role="status">{move || ctx.status.get()}</p>
        </header>
    }
}

/// The header's markup: title, scenario picker, variant radios, language switch, Copy link.
pub fn header_html(lang: Lang, t: &Ui, scenario: usize, variant: usize) -> String {
    let mut s = String::with_capacity(2048);
    let _ = write!(
        s,
        "<div class=\"brand\"><h1>Effectively Once</h1><p class=\"tagline\">{}</p></div>\
         <label class=\"field\"><span class=\"field-label\">{}</span><select>",
        t.tagline, t.scenario
    );
    for (i, sc) in scenarios::all().iter().enumerate() {
        let selected = if i == scenario { " selected" } else { "" };
        let _ = write!(
            s,
            "<option value=\"{i}\"{selected}>{}</option>",
            escape(sc.meta().title.get(lang))
        );
    }
    let _ = write!(
        s,
        "</select></label><div class=\"segmented\" role=\"radiogroup\" aria-label=\"{}\">",
        t.variant
    );
    let meta = scenarios::all()[scenario.min(scenarios::all().len() - 1)].meta();
    for (i, v) in meta.variants.iter().enumerate() {
        let (checked, tabindex) = if i == variant {
            ("true", 0)
        } else {
            ("false", -1)
        };
        let _ = write!(
            s,
            "<button type=\"button\" role=\"radio\" class=\"seg\" aria-checked=\"{checked}\" tabindex=\"{tabindex}\" \
             title=\"{}\" data-variant=\"{i}\">{}",
            escape(v.blurb.get(lang)),
            escape(v.name.get(lang))
        );
        if v.fixed {
            let _ = write!(s, " <span class=\"tag\">{}</span>", t.fixed);
        }
        s.push_str("</button>");
    }
    let _ = write!(
        s,
        "</div><div class=\"segmented\" role=\"group\" aria-label=\"{}\">",
        t.language
    );
    for (l, code, label) in [(Lang::En, "en", "English"), (Lang::Zh, "zh-Hans", "中文")] {
        let pressed = if l == lang { "true" } else { "false" };
        let _ = write!(
            s,
            "<button type=\"button\" class=\"seg\" lang=\"{code}\" aria-pressed=\"{pressed}\" data-lang=\"{}\">{label}</button>",
            l.code()
        );
    }
    let _ = write!(
        s,
        "</div><button type=\"button\" class=\"btn\" data-copy=\"\">{}{}</button>",
        super::icons::markup(super::icons::Icon::Link),
        t.copy_link
    );
    s
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::i18n::{EN, ZH};

    #[test]
    fn header_marks_exactly_one_variant_and_one_language() {
        let meta = scenarios::all()[0].meta();
        let last = meta.variants.len() - 1;
        let html = header_html(Lang::Zh, &ZH, 0, last);
        assert_eq!(html.matches("aria-checked=\"true\"").count(), 1);
        let checked = format!(
            "aria-checked=\"true\" tabindex=\"0\" title=\"{}\" data-variant=\"{last}\"",
            meta.variants[last].blurb.zh
        );
        assert!(html.contains(&checked), "{html}");
        assert_eq!(html.matches("aria-pressed=\"true\"").count(), 1);
        assert!(html.contains("aria-pressed=\"true\" data-lang=\"zh\""));
        let option = format!("<option value=\"0\" selected>{}</option>", meta.title.en);
        assert!(header_html(Lang::En, &EN, 0, 0).contains(&option));
    }

    #[test]
    fn choices_split_faults_from_moves_and_say_when_there_is_no_fault() {
        let trace = scenarios::all()[0].trace(0, &[]);
        let faults = choices_html(&trace.steps[2].choices, true, Lang::En, &EN);
        assert!(faults.contains("Crash order service") && faults.contains("Broker unavailable"));
        assert!(!faults.contains("publish e-17"));
        let moves = choices_html(&trace.steps[2].choices, false, Lang::En, &EN);
        assert!(moves.contains("publish e-17") && moves.contains("default"));
        let none = choices_html(&trace.steps[0].choices, true, Lang::En, &EN);
        assert!(none.contains("No fault can be injected"));
    }
}
