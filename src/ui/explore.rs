//! The explorer panel: exhaustive exploration of the current variant in a Web Worker, with
//! progress, cancel, per-invariant verdicts over every run, "Show me" for the shortest
//! counterexample, and "Prove the fix" (the same bounds on the variant that fixes this one,
//! side by side).
//!
//! The worker (built from `src/bin/explorer.rs`) is started on the first request, so the page
//! never downloads it unless someone explores; it then fetches the explored scenario's module
//! only. Cancel terminates it. Its files are named by their content (`tests/e2e/tools/split.mjs`)
//! and index.html names the loader, so a page only ever starts the worker of its own build.

use super::app::{use_ctx, Ctx};
use super::browser;
use super::cmd::Cmd;
use super::dom::{drawn, Node};
use super::i18n::{self, Ui};
use super::parts::{PartId, Parts};
use crate::explorer::{decode_reply, Reply, Request, Summary};
use crate::player::PlayerEvent;
use crate::sim::{decode_path, Lang, ScenarioMeta};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, MessageEvent, Worker};

/// One exploration as the panel knows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Run {
    #[default]
    Idle,
    Running {
        id: u32,
        states: usize,
    },
    Done(Summary),
    Failed(String),
}

/// The panel's state: the run of this variant and of its fix, for one (scenario, variant,
/// budget).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Panel {
    pub budget: u8,
    pub mine: Run,
    pub fix: Run,
}

impl Panel {
    /// An exploration (this variant's or the fix's) is under way.
    pub fn running(&self) -> bool {
        matches!(self.mine, Run::Running { .. }) || matches!(self.fix, Run::Running { .. })
    }
}

struct Handle {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

/// The explorer's state and its worker, shared by the panel and the "break it" challenge.
#[derive(Clone, Copy)]
pub struct Explore {
    ctx: Ctx,
    pub panel: RwSignal<Panel>,
    handle: StoredValue<Option<Handle>, LocalStorage>,
    next_id: StoredValue<u32>,
}

pub fn use_explore() -> Explore {
    expect_context::<Explore>()
}

impl Explore {
    /// Creates the explorer and provides it; a new scenario or variant resets it (and stops
    /// what was running).
    pub fn provide() -> Explore {
        let ctx = use_ctx();
        let ex = Explore {
            ctx,
            panel: RwSignal::new(Panel::default()),
            handle: StoredValue::new_local(None),
            next_id: StoredValue::new(0),
        };
        Effect::new(move |_| {
            // Other knobs make other runs: the results are stale.
            ctx.knobs.track();
            let budget = ctx.fault_budget();
            ex.stop();
            ex.panel.set(Panel {
                budget,
                ..Panel::default()
            });
        });
        on_cleanup(move || ex.stop());
        provide_context(ex);
        ex
    }

    fn stop(self) {
        if let Some(h) = self.handle.try_update_value(Option::take).flatten() {
            h.worker.terminate();
        }
    }

    /// Stops the worker; what was running goes back to idle.
    pub fn cancel(self) {
        self.stop();
        self.panel.update(|p| {
            for run in [&mut p.mine, &mut p.fix] {
                if matches!(run, Run::Running { .. }) {
                    *run = Run::Idle;
                }
            }
        });
    }

    /// Starts a fresh panel with another fault budget.
    pub fn set_budget(self, budget: u8) {
        self.stop();
        self.panel.set(Panel {
            budget,
            ..Panel::default()
        });
    }

    fn on_reply(self, text: &str) {
        let Some(reply) = decode_reply(text) else {
            return;
        };
        self.panel.update(|p| {
            for run in [&mut p.mine, &mut p.fix] {
                let Run::Running { id, states } = run else {
                    continue;
                };
                match &reply {
                    Reply::Progress { id: r, states: n } if r == id => *states = *n,
                    Reply::Done { id: r, summary } if r == id => *run = Run::Done(summary.clone()),
                    Reply::Failed { id: r, reason } if r == id => {
                        *run = Run::Failed(reason.clone())
                    }
                    _ => {}
                }
            }
        });
    }

    fn fail_all(self, reason: String) {
        self.stop();
        self.panel.update(|p| {
            for run in [&mut p.mine, &mut p.fix] {
                if matches!(run, Run::Running { .. }) {
                    *run = Run::Failed(reason.clone());
                }
            }
        });
    }

    fn ensure_worker(self) -> bool {
        if self.handle.with_value(Option::is_some) {
            return true;
        }
        let url = browser::meta_content("explorer-worker");
        // A module worker: its loader imports the glue, which imports the split modules' loader.
        // Its name is the scenario it will first explore, whose module it fetches at once.
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        options.set_name(crate::scenarios::card(self.ctx.scenario.get_untracked()).slug);
        let url = url.as_deref().unwrap_or("./explorer_loader.js");
        let worker = match Worker::new_with_options(url, &options) {
            Ok(w) => w,
            Err(e) => {
                self.fail_all(format!("{e:?}"));
                return false;
            }
        };
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            if let Some(text) = ev.data().as_string() {
                self.on_reply(&text);
            }
        });
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |ev: ErrorEvent| {
            self.fail_all(ev.message());
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        self.handle.set_value(Some(Handle {
            worker,
            _on_message: on_message,
            _on_error: on_error,
        }));
        true
    }

    /// Explores `variant` of the current scenario with the panel's budget: as this variant's run
    /// (`fix == false`) or as its fix's.
    pub fn run(self, variant: usize, fix: bool) {
        let run = self.request(variant);
        self.panel
            .update(|p| *(if fix { &mut p.fix } else { &mut p.mine }) = run);
    }

    fn request(self, variant: usize) -> Run {
        if !self.ensure_worker() {
            return Run::Failed("Web Worker unavailable".into());
        }
        let id = self.next_id.get_value() + 1;
        self.next_id.set_value(id);
        let req = Request {
            id,
            scenario: self.ctx.scenario.get_untracked(),
            variant,
            budget: self.panel.with_untracked(|p| p.budget),
            knobs: self.ctx.knobs.get_untracked(),
        };
        let sent = self.handle.with_value(|h| {
            h.as_ref()
                .map(|h| h.worker.post_message(&JsValue::from_str(&req.encode())))
        });
        match sent {
            Some(Ok(())) => Run::Running { id, states: 0 },
            _ => Run::Failed("postMessage failed".into()),
        }
    }
}

/// The index of the variant that fixes `variant`, if it is a mistake.
pub fn fix_of(meta: &ScenarioMeta, variant: usize) -> Option<usize> {
    let slug = meta.variants.get(variant)?.fixed_by?;
    meta.variant_index(slug)
}

/// The panel's first button (Explore, or Cancel while running), where focus goes back to.
const FIRST_BUTTON: &str = ".explorer .exp-bar button";

/// Stands where the explorer's panel will be until its module is here, with the panel's heading
/// and its first button. The module is fetched when this comes within a screen of the viewport
/// (so a phone's first load does without it), or when the button is pressed: then the panel's
/// own button is pressed once it is here (the worker's code stays in the panel's module). Focus
/// on the button passes to the panel's. Drawn as a `ui::dom` tree: it is in every page.
#[component]
pub fn ExplorerStandIn() -> impl IntoView {
    let ctx = use_ctx();
    let parts = Parts::get()?;
    let ready = Memo::new(move |_| parts.ready(PartId::Explorer));
    let draw = move || {
        if ready.get() {
            // Still drawn: if the focus is on it, it goes to the panel's first button.
            if browser::active_element()
                .is_some_and(|e| e.closest(".exp-stand-in").ok().flatten().is_some())
            {
                browser::focus_after_render(FIRST_BUTTON);
            }
            return Vec::new();
        }
        let t = ctx.t();
        let section = Node::el("section")
            .attr("class", "card explorer")
            .attr("aria-labelledby", "exp-h")
            .child(Node::el("h2").attr("id", "exp-h").text(t.explorer))
            .child(Node::el("div").attr("class", "exp-bar").child(button(
                Cmd::ExploreRun,
                "btn primary",
                t.explore,
            )));
        vec![section]
    };
    // Once, when mounted.
    Effect::new(move |_| {
        if let Some(el) = document().query_selector(".exp-stand-in").ok().flatten() {
            browser::when_near(&el, move || parts.fetch(PartId::Explorer));
        }
    });
    let explore = move || parts.open(PartId::Explorer, || Cmd::ExploreRun.press());
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if Cmd::of(&ev) == Some(Cmd::ExploreRun) {
            explore();
        }
    };
    // Pressed just as the panel arrives, the button is swapped between press and release, and
    // the browser fires no click: a release within the pressed button's place stands for it.
    // A release elsewhere still cancels the press (WCAG 2.5.2).
    // Only the same pointer's release counts: a touch that became a scroll ends with no release.
    let pressed = StoredValue::new_local(None::<(i32, web_sys::Element, [f64; 4])>);
    let on_down = move |ev: leptos::ev::PointerEvent| {
        if Cmd::of(&ev) == Some(Cmd::ExploreRun) {
            let place = browser::target_place(&ev, "[data-cmd]");
            pressed.set_value(place.map(|(el, rect)| (ev.pointer_id(), el, rect)));
        }
    };
    let _release = window_event_listener(leptos::ev::pointerup, move |ev| {
        let Some((id, button, [left, top, right, bottom])) =
            pressed.try_update_value(Option::take).flatten()
        else {
            return;
        };
        let (x, y) = (f64::from(ev.client_x()), f64::from(ev.client_y()));
        let inside = (left..=right).contains(&x) && (top..=bottom).contains(&y);
        if id == ev.pointer_id() && !button.is_connected() && inside {
            explore();
        }
    });
    Some(view! {
        <div class="stand-in" on:click=on_click on:pointerdown=on_down>
            {drawn("exp-stand-in", draw)}
        </div>
    })
}

#[component]
pub fn Explorer() -> impl IntoView {
    let ctx = use_ctx();
    let ex = use_explore();
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some(cmd) = Cmd::of(&ev) else {
            return;
        };
        match cmd {
            Cmd::ExploreRun => {
                ex.run(ctx.variant.get_untracked(), false);
                Cmd::ExploreCancel.refocus();
            }
            Cmd::ExploreFix => {
                let meta = ctx.meta();
                if let Some(fix) = fix_of(meta, ctx.variant.get_untracked()) {
                    ex.run(fix, true);
                }
            }
            Cmd::ExploreCompare => {
                let meta = ctx.meta();
                ctx.compare.set(fix_of(meta, ctx.variant.get_untracked()));
                browser::focus_after_render(".compare h2");
            }
            Cmd::ExploreCancel => {
                ex.cancel();
                Cmd::ExploreRun.refocus();
            }
            Cmd::ExploreShow { variant, path } => {
                // The results stay; the counterexample opens where it breaks (its last step).
                let path = decode_path(&path).0;
                let at = path.len();
                ctx.load(variant, path);
                ctx.dispatch(PlayerEvent::Seek(at));
                browser::focus_after_render("#step-forward");
            }
            _ => {}
        }
    };
    let on_change = move |ev: leptos::ev::Event| {
        ex.set_budget(event_target_value(&ev).parse().unwrap_or(0));
    };
    // The controls change only when the budget or running/not running does.
    let state = Memo::new(move |_| ex.panel.with(|p| (p.budget, p.running())));
    let draw_controls = move || {
        let (lang, t) = (ctx.lang.get(), ctx.t());
        let meta = ctx.meta();
        let comparing = ctx.compare.get().is_some();
        let (budget, running) = state.get();
        keep_focus();
        controls(budget, running, meta, ctx.variant.get(), comparing, lang, t)
    };
    let draw_results = move || {
        let (lang, t) = (ctx.lang.get(), ctx.t());
        let meta = ctx.meta();
        ex.panel
            .with(|p| results(p, meta, ctx.variant.get(), lang, t))
    };
    view! {
        <section class="card explorer" aria-labelledby="exp-h" on:click=on_click on:change=on_change>
            <h2 id="exp-h">{move || ctx.t().explorer}</h2>
            {drawn("exp-controls", draw_controls)}
            {drawn("exp-body", draw_results)}
        </section>
    }
}

/// Called before the controls are redrawn (they are replaced, and focus with them would fall to
/// the body): a focused button's focus goes to the bar's first button (Cancel becomes Explore
/// when a run ends), a focused select's to the new select.
fn keep_focus() {
    let Some(active) = browser::active_element() else {
        return;
    };
    if active.closest(".exp-controls").ok().flatten().is_none() {
        return;
    }
    browser::focus_after_render(if active.tag_name() == "SELECT" {
        ".explorer [data-budget]"
    } else {
        FIRST_BUTTON
    });
}

fn button(cmd: Cmd, class: &'static str, text: &str) -> Node {
    Node::el("button")
        .attr("type", "button")
        .attr("class", class)
        .cmd(cmd)
        .text(text)
}

/// The panel's content: the bounds and buttons, then the progress or the results.
#[cfg(test)]
pub fn body(
    p: &Panel,
    meta: &ScenarioMeta,
    variant: usize,
    comparing: bool,
    lang: Lang,
    t: &Ui,
) -> Vec<Node> {
    let mut out = controls(p.budget, p.running(), meta, variant, comparing, lang, t);
    out.extend(results(p, meta, variant, lang, t));
    out
}

/// The bounds and the buttons. Drawn apart from the results, so that progress reports do not
/// redraw the Cancel button under the pointer.
pub fn controls(
    budget: u8,
    running: bool,
    meta: &ScenarioMeta,
    variant: usize,
    comparing: bool,
    lang: Lang,
    t: &Ui,
) -> Vec<Node> {
    let w = super::i18n::explore_words(lang);
    let Some(v) = meta.variants.get(variant) else {
        return Vec::new();
    };
    let mut select = Node::el("select")
        .attr("aria-label", w.faults_per_run)
        .attr("data-budget", "");
    for b in 0..=v.fault_budget {
        let mut o = Node::el("option").attr("value", b).text(b.to_string());
        if b == budget {
            o = o.attr("selected", "");
        }
        select.push(o);
    }
    let intro = Node::el("p").attr("class", "muted");
    let mut out = vec![if v.fault_budget == 0 {
        intro.text(w.interleavings)
    } else {
        intro.text(w.intro).text(" ").child(select)
    }];
    let mut bar = Node::el("div").attr("class", "exp-bar");
    if running {
        bar.push(button(Cmd::ExploreCancel, "btn", t.cancel));
    } else {
        bar.push(button(Cmd::ExploreRun, "btn primary", t.explore));
    }
    let fix = fix_of(meta, variant);
    if let (Some(f), false) = (fix, running) {
        let name = meta.variants[f].name.get(lang);
        bar.push(button(
            Cmd::ExploreFix,
            "btn",
            &format!("{} {name}", w.prove_fix),
        ));
    }
    if let (Some(f), false) = (fix, comparing) {
        let name = meta.variants[f].name.get(lang);
        bar.push(button(
            Cmd::ExploreCompare,
            "btn",
            &format!("{} {name}", t.compare_with),
        ));
    }
    out.push(bar);
    out
}

/// The progress of a running exploration, or its results (and the fix's, side by side).
pub fn results(p: &Panel, meta: &ScenarioMeta, variant: usize, lang: Lang, t: &Ui) -> Vec<Node> {
    let Some(v) = meta.variants.get(variant) else {
        return Vec::new();
    };
    let fix = fix_of(meta, variant);
    let mut live = Node::el("div")
        .attr("class", "exp-results")
        .attr("aria-live", "polite");
    live.push(run_summary(&p.mine, variant, lang, t, true));
    if let (Some(f), false) = (fix, p.fix == Run::Idle) {
        live.push(
            Node::el("h3")
                .attr("class", "exp-fix")
                .text(meta.variants[f].name.get(lang)),
        );
        if let (Run::Done(a), Run::Done(b)) = (&p.mine, &p.fix) {
            // The fix's verdicts are the table's second column: its totals, then the table.
            live = live.children(totals(b, lang, t));
            live.push(side_by_side(
                a,
                b,
                [v.name.get(lang), meta.variants[f].name.get(lang)],
                lang,
            ));
        } else {
            live.push(run_summary(&p.fix, f, lang, t, false));
        }
    }
    vec![live]
}

fn verdict(s: &Summary, i: usize, lang: Lang) -> (bool, String) {
    let inv = &s.invariants[i];
    if inv.violating_runs == "0" && inv.violating_states == 0 {
        (true, i18n::holds_in_all(lang, &s.runs))
    } else {
        (
            false,
            i18n::violated_in(lang, &inv.violating_runs, &s.runs, inv.permille),
        )
    }
}

fn run_summary(run: &Run, variant: usize, lang: Lang, t: &Ui, show: bool) -> Node {
    let w = super::i18n::explore_words(lang);
    let mut div = Node::el("div").attr("class", "exp-run");
    match run {
        Run::Idle => {}
        Run::Running { states, .. } => {
            div.push(
                Node::el("p")
                    .attr("class", "exp-progress")
                    .attr("role", "status")
                    .text(i18n::exploring(lang, *states)),
            );
        }
        Run::Failed(reason) => {
            div.push(
                Node::el("p")
                    .attr("class", "exp-failed")
                    .attr("role", "alert")
                    .text(format!("{} {}", w.failed, reason_in(w, reason))),
            );
        }
        Run::Done(s) => {
            div = div.children(totals(s, lang, t));
            let mut ul = Node::el("ul").attr("class", "exp-list");
            for (i, inv) in s.invariants.iter().enumerate() {
                let (ok, word) = verdict(s, i, lang);
                let mut li = Node::el("li")
                    .attr("class", if ok { "inv holds" } else { "inv violated" })
                    .child(
                        Node::el("span")
                            .attr("class", "inv-icon")
                            .attr("aria-hidden", "true")
                            .text(if ok { "✓ " } else { "✗ " }),
                    )
                    .child(
                        Node::el("span")
                            .attr("class", "inv-name")
                            .text(inv.name.get(lang)),
                    )
                    .text(" — ")
                    .child(Node::el("span").attr("class", "inv-status").text(word));
                if let (Some(path), true) = (&inv.counterexample, show) {
                    li = li
                        .text(format!("; {} ", i18n::shortest(lang, path.len())))
                        .child(button(
                            Cmd::ExploreShow {
                                variant,
                                path: path.to_string(),
                            },
                            "btn link",
                            w.show_me,
                        ));
                }
                ul.push(li);
            }
            div.push(ul);
        }
    }
    div
}

/// How much an exploration covered, and in how long; whether it stopped at its step limit.
fn totals(s: &Summary, lang: Lang, t: &Ui) -> Vec<Node> {
    let mut out = vec![Node::el("p")
        .attr("class", "exp-totals")
        // The worker's own time, for tools/explore-bench.mjs.
        .attr("data-ms", s.ms)
        .attr("data-states", s.states)
        .text(i18n::explored(lang, s.states, &s.runs, s.ms))];
    if s.truncated {
        out.push(Node::el("p").attr("class", "muted").text(t.truncated));
    }
    out
}

/// Both variants' verdicts in one table: one row per invariant the two share.
fn side_by_side(a: &Summary, b: &Summary, names: [&str; 2], lang: Lang) -> Node {
    let w = super::i18n::explore_words(lang);
    let th = |text: &str| Node::el("th").attr("scope", "col").text(text);
    let head = Node::el("tr")
        .child(th(w.invariant))
        .child(th(names[0]))
        .child(th(names[1]));
    let mut body = Node::el("tbody");
    for (i, inv) in a.invariants.iter().enumerate() {
        let Some(j) = b.invariants.iter().position(|x| x.name == inv.name) else {
            continue;
        };
        let cell = |s: &Summary, k: usize| {
            let (ok, word) = verdict(s, k, lang);
            Node::el("td")
                .attr("class", if ok { "holds" } else { "violated" })
                .text(format!("{} {word}", if ok { "✓" } else { "✗" }))
        };
        body.push(
            Node::el("tr")
                .child(Node::el("th").attr("scope", "row").text(inv.name.get(lang)))
                .child(cell(a, i))
                .child(cell(b, j)),
        );
    }
    Node::el("table")
        .attr("class", "exp-compare")
        .child(Node::el("thead").child(head))
        .child(body)
}

/// The worker's reason for a failure, in the page's language when the page knows it.
fn reason_in<'a>(w: &'a i18n::ExploreUi, reason: &'a str) -> &'a str {
    match reason {
        crate::explorer::NOT_FETCHED => w.not_fetched,
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explorer::summary_of as summary;
    use crate::scenarios;
    use crate::ui::dom::html;
    use crate::ui::i18n::{EN, ZH};

    #[test]
    fn results_name_counts_and_offer_the_counterexample_and_the_fix() {
        let meta = scenarios::meta(0);
        let p = Panel {
            budget: 3,
            mine: Run::Done(summary(0, 0)),
            fix: Run::Done(summary(0, 2)),
        };
        let out = html(&body(&p, meta, 0, false, Lang::En, &EN));
        assert!(out.contains("187 distinct states · 201 runs"), "{out}");
        assert!(out.contains(
            "no lost event</span> — <span class=\"inv-status\">violated in 80 of 201 runs (39.8 %)"
        ));
        assert!(out.contains("data-cmd=\"explore-show:0:0010010\""), "{out}");
        let fix = &meta.variants[2].name.en;
        assert!(out.contains(&format!("Prove the fix: {fix}")));
        assert!(
            out.contains("<td class=\"holds\">✓ holds in all 32,088,203 runs</td>"),
            "{out}"
        );
        let zh = html(&body(&p, meta, 0, false, Lang::Zh, &ZH));
        assert!(zh.contains("201 次运行中有 80 次被违反（39.8 %）"));
        assert!(zh.contains("查看演示"));
    }

    #[test]
    fn a_running_exploration_shows_progress_and_cancel_only() {
        let meta = scenarios::meta(1);
        let p = Panel {
            budget: 2,
            mine: Run::Running {
                id: 1,
                states: 40_960,
            },
            fix: Run::Idle,
        };
        let out = html(&body(&p, meta, 4, false, Lang::En, &EN));
        assert!(out.contains("Exploring… 40,960 states"));
        assert!(out.contains("data-cmd=\"explore-cancel\""));
        assert!(!out.contains("data-cmd=\"explore-run\""));
        assert!(
            out.contains("<option value=\"2\" selected=\"\">2</option>"),
            "{out}"
        );
        assert!(
            !out.contains("value=\"3\""),
            "no more faults than the player allows"
        );
    }
}
