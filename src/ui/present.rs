//! Presenter mode: fullscreen, larger type, higher contrast, controls that hide while the mouse
//! rests, speaker notes (`n`), and predict-then-reveal: a step forward that would break an
//! invariant first asks the room what will happen, and the next key reveals it. Clicker keys
//! (PageDown/PageUp, arrows, `.`) drive it as they drive the player.

use super::app::{use_ctx, Ctx};
use super::browser;
use super::cmd::Cmd;
use super::dom::{drawn, Node};
use super::ondemand::{placeholder, Fetched, OnDemand};
use crate::content::{notes_for, read_all_notes, NOTES_FILE, NOTES_NAME};
use crate::player::PlayerEvent;
use crate::sim::Notes;
use crate::sim::Status;
use leptos::prelude::*;
use std::cell::Cell;
use std::rc::Rc;

/// Presenter state, provided by context.
#[derive(Clone, Copy)]
pub struct Presenter {
    pub on: RwSignal<bool>,
    pub notes: RwSignal<bool>,
    /// A step waiting to be revealed after the room's prediction.
    pub predict: RwSignal<Option<usize>>,
    /// The mouse has rested: the controls fade out.
    pub idle: RwSignal<bool>,
    /// Every scenario's speaker notes by slug (`notes.json`, fetched on entering presenter
    /// mode).
    notes_text: OnDemand<Vec<(String, Notes)>>,
}

impl Presenter {
    pub fn provide() -> Presenter {
        let p = Presenter {
            on: RwSignal::new(false),
            notes: RwSignal::new(false),
            predict: RwSignal::new(None),
            idle: RwSignal::new(false),
            notes_text: OnDemand::new(NOTES_FILE, NOTES_NAME),
        };
        provide_context(p);
        p
    }

    pub fn enter(&self) {
        self.notes_text.fetch();
        self.on.set(true);
        browser::request_fullscreen();
    }

    pub fn leave(&self) {
        self.on.set(false);
        self.predict.set(None);
        self.notes.set(false);
        browser::exit_fullscreen();
    }
}

/// The step after the current one, if it is where an invariant first breaks.
fn breaks_next(ctx: &Ctx) -> Option<usize> {
    let step = ctx.cursor.get_untracked().step;
    ctx.trace.with_untracked(|t| {
        let next = t.steps.get(step + 1)?;
        next.verdicts
            .iter()
            .any(|v| v.status == Status::Violated && v.since == Some(step + 1))
            .then_some(step + 1)
    })
}

/// Handles a presenter key; true when it was one (and the player should not also act).
pub fn on_key(ctx: Ctx, p: Presenter, key: &str) -> bool {
    if !p.on.get_untracked() {
        return false;
    }
    match key {
        "ArrowRight" | "PageDown" => {
            if p.predict.get_untracked().is_some() {
                p.predict.set(None);
                ctx.dispatch(PlayerEvent::StepForward);
            } else if let Some(next) = breaks_next(&ctx) {
                ctx.dispatch(PlayerEvent::Pause);
                p.predict.set(Some(next));
            } else {
                ctx.dispatch(PlayerEvent::StepForward);
            }
            true
        }
        "ArrowLeft" | "PageUp" => {
            if p.predict.get_untracked().is_some() {
                p.predict.set(None);
            } else {
                ctx.dispatch(PlayerEvent::StepBack);
            }
            true
        }
        "n" | "N" => {
            p.notes.update(|n| *n = !*n);
            true
        }
        "Escape" => {
            p.leave();
            true
        }
        _ => false,
    }
}

/// Fades the controls after 2.5 s without the mouse moving.
pub fn watch_mouse(p: Presenter) {
    let generation = Rc::new(Cell::new(0u32));
    let handle = window_event_listener(leptos::ev::mousemove, move |_| {
        if !p.on.get_untracked() {
            return;
        }
        p.idle.set(false);
        let g = generation.get().wrapping_add(1);
        generation.set(g);
        let current = generation.clone();
        set_timeout(
            move || {
                if current.get() == g {
                    p.idle.set(true);
                }
            },
            std::time::Duration::from_millis(2500),
        );
    });
    on_cleanup(move || handle.remove());
}

/// The presenter's bar (title, notes, exit), the prediction prompt and the speaker notes.
#[component]
pub fn PresenterPanel() -> impl IntoView {
    let ctx = use_ctx();
    let p = expect_context::<Presenter>();
    let audience = super::audience::Audience::get();
    let following = audience.is_some_and(|a| a.following().is_some());
    // The speaker notes are the presenter's, not the room's.
    if !following {
        p.notes_text.want(read_all_notes);
    }
    let on_click = move |ev: leptos::ev::MouseEvent| match Cmd::of(&ev) {
        Some(Cmd::PresentExit) => {
            p.leave();
            Cmd::Present.refocus();
        }
        Some(Cmd::PresentNotes) => p.notes.update(|n| *n = !*n),
        Some(Cmd::PresentAudience) => {
            if let Some(a) = audience {
                a.open_window(ctx, p);
            }
        }
        Some(Cmd::PresentFullscreen) => browser::request_fullscreen(),
        Some(Cmd::PresentRetry) => p.notes_text.reload(),
        Some(Cmd::PresentReveal) => {
            p.predict.set(None);
            ctx.dispatch(PlayerEvent::StepForward);
        }
        _ => {}
    };
    let draw = move || {
        if !p.on.get() {
            return Vec::new();
        }
        let (lang, t) = (ctx.lang.get(), ctx.t());
        let w = super::i18n::present_words(lang);
        let meta = ctx.meta();
        let variant = meta
            .variants
            .get(ctx.variant.get())
            .map(|v| v.name.get(lang).to_string())
            .unwrap_or_default();
        // The audience window shows neither the notes nor the presenter's buttons.
        let notes_open = p.notes.get() && !following;
        let button = |cmd: Cmd, label: &str| {
            Node::el("button")
                .attr("type", "button")
                .attr("class", "btn")
                .cmd(cmd)
                .text(label)
        };
        // A button with a keyboard shortcut: announced by `aria-keyshortcuts`, shown as a key
        // after the label (hidden on narrow screens, where the three buttons share one row).
        let keyed = |cmd: Cmd, label: &str, key: &'static str, shown: &'static str| {
            button(cmd, label).attr("aria-keyshortcuts", key).child(
                Node::el("kbd")
                    .attr("class", "key-hint")
                    .attr("aria-hidden", "true")
                    .text(shown),
            )
        };
        let mut bar = Node::el("div").attr("class", "present-bar").child(
            Node::el("h1")
                .child(Node::el("strong").text(meta.title.get(lang)))
                .text(format!(" · {variant}")),
        );
        if following {
            bar.push(
                Node::el("p")
                    .attr("class", "audience-note")
                    .text(w.audience_following),
            );
            bar.push(button(Cmd::PresentFullscreen, w.fullscreen));
        } else {
            bar.push(
                keyed(Cmd::PresentNotes, w.speaker_notes, "N", "N")
                    .attr("aria-pressed", if notes_open { "true" } else { "false" }),
            );
            bar.push(button(Cmd::PresentAudience, w.audience_window));
            bar.push(keyed(Cmd::PresentExit, w.exit, "Escape", "Esc"));
        }
        let mut out = vec![bar];
        if let Some(next) = p.predict.get() {
            let (title, names) = ctx.trace.with(|tr| {
                let title = tr
                    .steps
                    .get(next)
                    .map(|s| s.info.title.get(lang).to_string());
                let names: Vec<String> = tr.steps[0]
                    .verdicts
                    .iter()
                    .map(|v| v.name.get(lang).to_string())
                    .collect();
                (title.unwrap_or_default(), names)
            });
            let mut list = Node::el("ul");
            for n in names {
                list.push(Node::el("li").text(n));
            }
            out.push(
                Node::el("section")
                    .attr("class", "predict card")
                    .attr("aria-labelledby", "predict-h")
                    .child(Node::el("h2").attr("id", "predict-h").text(w.predict_title))
                    .child(Node::el("p").text(format!("{} “{title}”", w.predict_next)))
                    .child(Node::el("p").text(w.predict_question))
                    .child(list)
                    .child(if following {
                        Node::el("p").attr("class", "muted").text(w.audience_reveal)
                    } else {
                        Node::el("button")
                            .attr("type", "button")
                            .attr("class", "btn primary")
                            .cmd(Cmd::PresentReveal)
                            .text(w.predict_reveal)
                    }),
            );
        }
        if notes_open {
            let part = |h: &str, body: &str| {
                Node::el("div")
                    .child(Node::el("h3").text(h))
                    .child(Node::el("p").text(body))
            };
            let mut aside = Node::el("aside")
                .attr("class", "notes card")
                .attr("aria-label", w.speaker_notes);
            p.notes_text.state.with(|state| {
                let notes = match state {
                    Fetched::Ready(all) => notes_for(all, meta.slug).map_err(Some),
                    other => Err(other.failure().cloned()),
                };
                match notes {
                    Ok(n) => {
                        aside.push(part(t.notes_say, n.say.get(lang)));
                        aside.push(part(t.notes_follow, n.follow_up.get(lang)));
                        aside.push(part(t.notes_avoid, n.avoid.get(lang)));
                    }
                    Err(why) => {
                        for node in placeholder(why.as_ref(), lang, t, Cmd::PresentRetry, None) {
                            aside.push(node);
                        }
                    }
                }
            });
            out.push(aside);
        }
        out
    };
    view! {
        <div class="presenter" on:click=on_click aria-live="polite">
            {drawn("presenter-inner", draw)}
        </div>
    }
}
