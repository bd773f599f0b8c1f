//! <App/>: the state that everything on screen derives from, its URL form, the keyboard and the
//! animation clock. Everything shown is a function of (scenario, variant, path, step, lang);
//! play/pause, speed and the motion fraction are the only local state.

use super::browser;
use super::controls::Controls;
use super::explore::Explore;
use super::figure::FigureCard;
use super::i18n::ui;
use super::panels::{
    Choices, EmbedBar, EmbedCode, Header, Invariants, Knobs, Narration, Notices, Summary,
};
use super::parts::{Part, PartId, Parts};
use super::tables::{Program, Tables};
use super::timeline::Timeline;
use crate::player::{
    build_query, embed_param, query_extras, reduce, resolve, Cursor, PlayerEvent, RunEdit, RunSpec,
};
use crate::scenarios::{self, Registered};
use crate::sim::{encode_path, Lang, ScenarioMeta, Text, Trace};
use leptos::prelude::*;
use std::cell::Cell;
use std::rc::Rc;

/// Shared state, passed by context. Small and `Copy`.
#[derive(Clone, Copy)]
pub struct Ctx {
    pub lang: RwSignal<Lang>,
    pub scenario: RwSignal<usize>,
    pub variant: RwSignal<usize>,
    /// The explicit choices; the trace continues with defaults after them.
    pub path: RwSignal<Vec<u8>>,
    pub cursor: RwSignal<Cursor>,
    /// Motion within the current step, 0 → 1. Drawing is a pure function of (step, frac).
    pub frac: RwSignal<f64>,
    pub trace: Memo<Trace>,
    pub notices: RwSignal<Vec<Text>>,
    /// The module that could not be fetched, offered again by the notice's "Try again".
    pub retry: RwSignal<Option<Retry>>,
    /// Counts the switches asked for (`when_loaded`), so that only the last one applies.
    switches: StoredValue<u32>,
    /// A second variant shown side by side on the same fault schedule.
    pub compare: RwSignal<Option<usize>>,
    /// The "break it" challenge.
    pub breaking: RwSignal<bool>,
    /// The scenario's knobs (`ScenarioMeta::knobs`), in the URL when not the defaults.
    pub knobs: RwSignal<Vec<u32>>,
    /// The compact player for an iframe (`embed=1`), fixed for the page's life.
    pub embed: bool,
    /// The page's colours (`theme=`), fixed for the page's life.
    pub theme: crate::player::Theme,
    /// A short status message (e.g. "Link copied"), announced politely.
    pub status: RwSignal<Option<&'static str>>,
    clock: StoredValue<Clock, LocalStorage>,
}

#[derive(Clone, Default)]
struct Clock {
    running: Rc<Cell<bool>>,
    last_ms: Rc<Cell<f64>>,
    elapsed_ms: Rc<Cell<f64>>,
    reduced: bool,
}

pub fn use_ctx() -> Ctx {
    expect_context::<Ctx>()
}

impl Ctx {
    pub fn scenario_ref(&self) -> Option<Registered> {
        scenarios::shown(self.scenario.get())
    }

    /// The current scenario's description (tracked).
    pub fn meta(&self) -> &'static ScenarioMeta {
        scenarios::meta(self.scenario.get())
    }

    /// `draw` where the page shows it; nothing in an embed, which hides that part (main.css):
    /// a notes page with several embeds builds and redraws only what they show.
    pub fn unless_embed(
        self,
        draw: impl Fn() -> Vec<super::dom::Node> + 'static,
    ) -> impl Fn() -> Vec<super::dom::Node> + 'static {
        move || if self.embed { Vec::new() } else { draw() }
    }

    /// The interface's words in the current language (tracked).
    pub fn t(&self) -> &'static super::i18n::Ui {
        ui(self.lang.get())
    }

    /// Applies a player event; steps that move forward by one animate, others jump.
    pub fn dispatch(&self, event: PlayerEvent) {
        let before = self.cursor.get_untracked();
        let after = reduce(before, event);
        if after == before {
            return;
        }
        self.cursor.set(after);
        let clock = self.clock.get_value();
        if after.step == before.step + 1 {
            clock.elapsed_ms.set(0.0);
            self.frac.set(if clock.reduced { 1.0 } else { 0.0 });
        } else if after.step != before.step {
            self.frac.set(1.0);
        }
        if after.playing && !before.playing {
            clock.elapsed_ms.set(if after.step != before.step {
                0.0
            } else {
                after.step_ms()
            });
        }
        self.kick();
    }

    /// The run shown, as one value (untracked).
    fn spec(&self) -> RunSpec {
        RunSpec {
            scenario: self.scenario.get_untracked(),
            variant: self.variant.get_untracked(),
            knobs: self.knobs.get_untracked(),
            path: self.path.get_untracked(),
            compare: self.compare.get_untracked(),
            breaking: self.breaking.get_untracked(),
        }
    }

    /// Applies `edit` (`RunSpec::edit`, pure and table-tested) and writes back only the parts
    /// that changed: setting a signal anew would reset what depends on it (the explorer's
    /// results). Whether the run itself (what replays) changed.
    fn edit(&self, edit: RunEdit) -> bool {
        let (before, after) = (self.spec(), self.spec().edit(edit));
        fn put<T: PartialEq + Clone + Send + Sync + 'static>(s: RwSignal<T>, old: &T, new: &T) {
            if old != new {
                s.set(new.clone());
            }
        }
        put(self.scenario, &before.scenario, &after.scenario);
        put(self.knobs, &before.knobs, &after.knobs);
        put(self.variant, &before.variant, &after.variant);
        put(self.compare, &before.compare, &after.compare);
        put(self.breaking, &before.breaking, &after.breaking);
        put(self.path, &before.path, &after.path);
        (before.scenario, before.variant, &before.knobs, &before.path)
            != (after.scenario, after.variant, &after.knobs, &after.path)
    }

    /// Takes choice `index` at the current step: the future forks from here.
    pub fn choose(&self, index: u8) {
        let step = self.cursor.get_untracked().step;
        let taken = self.trace.with_untracked(|t| t.path.clone());
        if self.edit(RunEdit::Choose { step, index, taken }) {
            self.retrace(step);
        }
        self.dispatch(PlayerEvent::StepForward);
    }

    pub fn set_variant(&self, variant: usize) {
        if self.edit(RunEdit::Variant(variant)) {
            self.retrace(self.cursor.get_untracked().step);
        }
    }

    /// Enters or leaves the "break it" challenge; entering starts from an empty run at step 0.
    pub fn set_breaking(&self, on: bool) {
        self.edit(RunEdit::Breaking(on));
        if on {
            self.dispatch(PlayerEvent::Pause);
            self.retrace(0);
        }
    }

    /// Loads `path` on `variant` at step 0, paused.
    pub fn load(&self, variant: usize, path: Vec<u8>) {
        self.dispatch(PlayerEvent::Pause);
        self.edit(RunEdit::Load { variant, path });
        self.retrace(0);
    }

    /// Shows `scenario` once its module is here, then runs `after` (which may move focus to
    /// the redrawn controls).
    pub fn set_scenario(&self, scenario: usize, after: impl FnOnce() + 'static) {
        let ctx = *self;
        self.when_loaded(scenario, move || {
            if ctx.edit(RunEdit::Scenario(scenario)) {
                ctx.retrace(0);
            }
            after();
        });
    }

    /// Runs `then` once the scenario at `index` is here: at once if it is (always, but in the
    /// page's split build before its module was first fetched), else when its module arrives.
    /// A module that cannot be fetched changes nothing, and the notice offers to try again.
    /// The last request wins: a module that arrives after a later switch applies nothing.
    pub fn when_loaded(&self, index: usize, then: impl FnOnce() + 'static) {
        let ticket = self.switches.get_value().wrapping_add(1);
        self.switches.set_value(ticket);
        if scenarios::get(index).is_some() {
            return then();
        }
        let ctx = *self;
        // Said while the module is on its way (a slow network may take a second or more).
        let loading = ctx.t().loading;
        ctx.status.set(Some(loading));
        leptos::task::spawn_local(async move {
            let result = scenarios::load(index).await;
            if ctx.status.get_untracked() == Some(loading) {
                ctx.status.set(None);
            }
            if ctx.switches.get_value() != ticket {
                return;
            }
            match result {
                Ok(_) => {
                    ctx.retry.set(None);
                    then()
                }
                Err(_) => {
                    let title = &scenarios::meta(index).title;
                    ctx.notices.update(|n| n.push(load_failed(title)));
                    ctx.retry.set(Some(Retry::Scenario(index)));
                }
            }
        });
    }

    /// Opens a run (an imported file): scenario, variant, knobs, path and step at once.
    pub fn apply(&self, run: crate::export::Run) {
        self.dispatch(PlayerEvent::Pause);
        self.edit(RunEdit::Open(RunSpec {
            scenario: run.scenario,
            variant: run.variant,
            knobs: run.knobs,
            path: run.path,
            compare: None,
            breaking: false,
        }));
        self.retrace(run.step);
    }

    /// "Watch it fail": the variant's canonical failing path from the start, played to the
    /// step where it breaks (its last).
    pub fn watch_it_fail(&self) {
        let fails = self
            .meta()
            .variants
            .get(self.variant.get_untracked())
            .and_then(|v| v.fails);
        let Some(encoded) = fails else { return };
        let (path, _) = crate::sim::decode_path(encoded);
        let at = path.len();
        self.load(self.variant.get_untracked(), path);
        self.dispatch(PlayerEvent::PlayTo(at));
    }

    /// Presenting from a run nobody has steered yet: it becomes the failing path, so a clicker
    /// alone (PageDown, →, Space) walks the room to the failure.
    pub fn present_from_failure(&self) {
        let fails = self
            .meta()
            .variants
            .get(self.variant.get_untracked())
            .and_then(|v| v.fails);
        let untouched = self.path.with_untracked(|p| p.is_empty());
        if let (Some(encoded), true) = (fails, untouched) {
            let step = self.cursor.get_untracked().step;
            self.path.set(crate::sim::decode_path(encoded).0);
            self.retrace(step);
        }
    }

    /// Moves to `step` of the run shown: animated if it is the next one, a jump otherwise.
    pub fn go_to(&self, step: usize) {
        let now = self.cursor.get_untracked().step;
        if step == now + 1 {
            self.dispatch(PlayerEvent::StepForward);
        } else if step != now {
            self.dispatch(PlayerEvent::Seek(step));
        }
    }

    /// Opens the state a link resolves to: language, scenario, variant, knobs, path, step,
    /// comparison and mode (Back and Forward, the audience window).
    pub fn open(&self, r: crate::player::Resolved) {
        if self.lang.get_untracked() != r.lang {
            self.lang.set(r.lang);
        }
        let step = r.step.unwrap_or(0);
        let same_run = self.scenario.get_untracked() == r.scenario
            && self.variant.get_untracked() == r.variant
            && self.knobs.with_untracked(|k| *k == r.knobs)
            && self.path.with_untracked(|path| *path == r.path)
            && self.breaking.get_untracked() == r.breaking;
        if same_run {
            self.go_to(step);
            self.edit(RunEdit::Compare(r.compare));
        } else {
            self.dispatch(PlayerEvent::Pause);
            self.edit(RunEdit::Open(RunSpec {
                scenario: r.scenario,
                variant: r.variant,
                knobs: r.knobs,
                path: r.path,
                compare: r.compare,
                breaking: r.breaking,
            }));
            self.retrace(step);
        }
    }

    /// The query string of the current state (tracked: call it in an effect or a view), for the
    /// full page or the embedded player.
    pub fn query(&self, embed: bool) -> String {
        let meta = self.meta();
        let v = meta
            .variants
            .get(self.variant.get())
            .map(|v| v.slug)
            .unwrap_or_default();
        let cmp = self
            .compare
            .get()
            .and_then(|c| meta.variants.get(c))
            .map(|c| c.slug);
        let base = build_query(
            meta.slug,
            v,
            &encode_path(&self.path.get()),
            self.cursor.get().step,
            self.lang.get(),
        );
        let extras = self
            .knobs
            .with(|k| query_extras(&meta.knobs, k, cmp, self.breaking.get()));
        // The theme travels only to a page of the same kind: the full view opened from an
        // embed, or the embed code copied from the full page, takes that page's default.
        let theme = if embed == self.embed {
            self.theme.param(embed)
        } else {
            String::new()
        };
        base + &extras + embed_param(embed) + &theme
    }

    /// The current variant's fault budget (0: interleavings only). Tracked.
    pub fn fault_budget(&self) -> u8 {
        self.meta()
            .variants
            .get(self.variant.get())
            .map_or(0, |v| v.fault_budget)
    }

    /// Sets knob `index` (clamped to its range); the run replays with it from the same path.
    pub fn set_knob(&self, index: usize, value: u32) {
        if self.edit(RunEdit::Knob(index, value)) {
            self.retrace(self.cursor.get_untracked().step);
        }
    }

    /// Sets every knob at once (one replay).
    pub fn set_knobs(&self, values: Vec<u32>) {
        if self.edit(RunEdit::Knobs(values)) {
            self.retrace(self.cursor.get_untracked().step);
        }
    }

    fn retrace(&self, step: usize) {
        let last = self.trace.with_untracked(|t| t.last());
        self.cursor
            .update(|c| *c = reduce(*c, PlayerEvent::NewTrace { last, step }));
        self.frac.set(1.0);
    }

    /// Starts the animation clock if it is not running.
    fn kick(&self) {
        let clock = self.clock.get_value();
        if clock.running.get() {
            return;
        }
        clock.running.set(true);
        clock.last_ms.set(browser::now_ms());
        let ctx = *self;
        request_animation_frame(move || ctx.frame());
    }

    fn frame(self) {
        let clock = self.clock.get_value();
        let now = browser::now_ms();
        let dt = (now - clock.last_ms.get()).clamp(0.0, 100.0);
        clock.last_ms.set(now);
        let cursor = self.cursor.get_untracked();
        let step_ms = cursor.step_ms();
        let elapsed = clock.elapsed_ms.get() + dt;
        clock.elapsed_ms.set(elapsed);
        let frac = if clock.reduced {
            1.0
        } else {
            (elapsed / (step_ms * crate::player::MOTION_SHARE)).min(1.0)
        };
        if self.frac.get_untracked() < 1.0 {
            self.frac.set(frac);
        }
        if cursor.playing && elapsed >= step_ms {
            clock.running.set(false);
            self.dispatch(PlayerEvent::Tick);
            return;
        }
        if cursor.playing || self.frac.get_untracked() < 1.0 {
            request_animation_frame(move || self.frame());
        } else {
            clock.running.set(false);
        }
    }
}

/// A module that did not arrive: a scenario's (by index) or a part of the page's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Retry {
    Scenario(usize),
    Part(PartId),
}

/// The notice when a scenario's module cannot be fetched.
pub fn load_failed(title: &Text) -> Text {
    Text::new(
        format!(
            "“{}” could not be loaded (offline, or the site was updated). Nothing changed.",
            title.en
        ),
        format!(
            "“{}”未能加载（离线，或网站已更新）。页面没有改变。",
            title.zh
        ),
    )
}

/// What the page opens on: the link read against the loaded scenario, with the run that
/// reading replayed to check its path (none on the home page).
pub struct Opening(crate::player::Resolved, Option<Trace>);

impl Opening {
    pub fn of_link() -> Opening {
        let (start, first) = crate::player::resolve_traced(
            &browser::location_search(),
            browser::browser_language().as_deref(),
        );
        Opening(start, first)
    }
}

#[component]
pub fn App(opening: Opening) -> impl IntoView {
    let Opening(start, first) = opening;
    let (lang0, scenario0, variant0) = (start.lang, start.scenario, start.variant);
    let (path0, step0, notices0) = (start.path, start.step, start.notices);
    let (compare0, breaking0, knobs0) = (start.compare, start.breaking, start.knobs);
    let (embed, theme) = (start.embed, start.theme);
    browser::set_root_class(theme.word());
    let other = crate::player::parse_query(&browser::location_search()).other;
    // The bare address (a first visit) lands on the home page, as `home=1` does.
    let home = crate::player::is_home(&browser::location_search());
    // An audience window (`audience=<id>`, opened by a presenter).
    let following = other
        .iter()
        .find(|(k, _)| k == "audience")
        .map(|(_, v)| v.clone())
        .filter(|v| crate::player::is_audience_id(v));
    let lang = RwSignal::new(lang0);
    let scenario = RwSignal::new(scenario0);
    let variant = RwSignal::new(variant0);
    let path = RwSignal::new(path0);
    let knobs = RwSignal::new(knobs0);
    // The first run is the one the opening replayed to check the link.
    let first = std::sync::Mutex::new(first);
    let trace = Memo::new(move |_| {
        // Taken on the first run whatever it finds, so it can never stand for a later state.
        let seed = first.lock().ok().and_then(|mut t| t.take());
        let Some(s) = scenarios::shown(scenario.get()) else {
            return Trace::blank();
        };
        let (v, p) = (variant.get(), path.get());
        knobs.with(|k| seed.unwrap_or_else(|| s.trace_with(v, k, &p)))
    });
    let last = trace.with_untracked(|t| t.last());
    let clock = Clock {
        reduced: browser::prefers_reduced_motion(),
        ..Clock::default()
    };
    let compare = RwSignal::new(compare0);
    let ctx = Ctx {
        lang,
        scenario,
        variant,
        path,
        cursor: RwSignal::new(Cursor::new(last, step0.unwrap_or(0))),
        frac: RwSignal::new(1.0),
        trace,
        notices: RwSignal::new(notices0),
        retry: RwSignal::new(None),
        switches: StoredValue::new(0),
        compare,
        breaking: RwSignal::new(breaking0),
        knobs,
        embed,
        theme,
        status: RwSignal::new(None),
        clock: StoredValue::new_local(clock),
    };
    provide_context(ctx);
    provide_context(EmbedCode(RwSignal::new((String::new(), String::new()))));
    Explore::provide();
    Parts::provide(ctx);
    super::quiz::QuizShown::provide();

    // Keep the URL, the document language and the title in step with the state. Choosing
    // another scenario, variant, comparison or mode is a navigation (a new history entry, so
    // Back returns to it); a step, a fork, a knob or the language replace the entry.
    let audience_id = following.clone();
    let entry = StoredValue::new(None::<String>);
    let restoring = StoredValue::new(false);
    Effect::new(move |_| {
        let query = if home {
            format!("?home=1&lang={}", ctx.lang.get().code())
        } else if let Some(id) = &audience_id {
            format!("{}&audience={id}", ctx.query(false))
        } else {
            ctx.query(ctx.embed)
        };
        let key = crate::player::history_key(&query);
        let moved = entry.with_value(|e| e.as_ref().is_some_and(|e| *e != key));
        if moved && !restoring.get_value() && audience_id.is_none() {
            browser::push_query(&query);
        } else {
            browser::replace_query(&query);
        }
        restoring.set_value(false);
        entry.set_value(Some(key));
    });
    // Back and Forward: open the entry's state as a link would (the home page and the player
    // are two pages: between them, load the page).
    let _history = window_event_listener(leptos::ev::popstate, move |_| {
        let search = browser::location_search();
        let there_home = search.contains("home=1") || crate::player::is_bare(&search);
        if there_home != home {
            browser::reload();
            return;
        }
        restoring.set_value(true);
        let shown = crate::player::shown_scenario(&search);
        ctx.when_loaded(shown, move || ctx.open(resolve(&search, None)));
    });
    Effect::new(move |_| {
        let l = lang.get();
        browser::set_document_lang(if l == Lang::Zh { "zh-Hans" } else { "en" });
        // The home page is no scenario's: its title is its heading.
        let title = if home {
            ctx.t().home_title.to_string()
        } else {
            format!("{} · Effectively Once", ctx.meta().title.get(l))
        };
        browser::set_title(&title);
    });
    let presenter = super::present::Presenter::provide();
    super::present::watch_mouse(presenter);
    // A status message (a link copied, a file imported) is a toast: it covers nothing and
    // goes after a few seconds.
    Effect::new(move |_| {
        if let Some(said) = ctx.status.get() {
            set_timeout(
                move || {
                    if ctx.status.get_untracked() == Some(said) {
                        ctx.status.set(None);
                    }
                },
                std::time::Duration::from_millis(4000),
            );
        }
    });
    let audience_view = following.is_some();
    super::audience::Audience::provide(ctx, presenter, following);
    // `watch=1` (the home page's "Start here"): play the failing path to its violation. A
    // variant that holds has none: say so, and show it as it is.
    if other.iter().any(|(k, v)| k == "watch" && v == "1") && !home {
        let fails = untrack(|| {
            ctx.meta()
                .variants
                .get(ctx.variant.get())
                .and_then(|v| v.fails)
        });
        if fails.is_some() {
            request_animation_frame(move || ctx.watch_it_fail());
        } else {
            ctx.notices.update(|n| {
                n.push(Text::new(
                    "'watch=1' asks to watch this variant fail, but it holds: there is no failing path to play.",
                    "“watch=1”要求观看这个方案出错，但它是成立的：没有可播放的失败路径。",
                ))
            });
        }
    }
    browser::remove_shell();

    // The compact player for an iframe (`embed`): the page chrome (header, pickers, knobs,
    // explorer, comparison, challenge) is hidden by the `embed` class (display: none, so it is
    // neither seen, nor focusable, nor in the accessibility tree) and a title bar with a link to
    // the full view shows instead. Hiding costs no bundle bytes; a second layout would. What
    // it hides draws nothing (`Ctx::unless_embed`).
    view! {
        <div class="app" class:embed=embed class:audience=audience_view class:present=move || presenter.on.get() class:predicting=move || presenter.predict.get().is_some() class:comparing=move || compare.get().is_some()
            class:idle=move || presenter.idle.get()>
            // Two options, not one `AnyView`: erasing the player's type costs the page 15 KB.
            {home.then(|| view! { <Part id=PartId::Home/> })}
            // An audience window follows its presenter: its keys do nothing.
            {(!home).then(|| view! { <Player keys=!audience_view/> })}
            <Part id=PartId::Embed/>
            <Part id=PartId::Export/>
            <Part id=PartId::Quiz/>
        </div>
    }
}

/// The player: everything a scenario's page shows. The home page never shows it, so it never
/// builds it (the player and the home page are two pages, BENCHMARKS.md "The home page builds
/// no player").
/// With `keys`, the player's keys (`on_key`) are its own; the home page, which has none, keeps
/// Space, Home and End for scrolling.
#[component]
fn Player(keys: bool) -> impl IntoView {
    let ctx = use_ctx();
    let presenter = expect_context::<super::present::Presenter>();
    let (compare, embed) = (ctx.compare, ctx.embed);
    if keys {
        let _keys =
            window_event_listener(leptos::ev::keydown, move |ev| on_key(ctx, presenter, ev));
    }
    view! {
        <Header/>
        <Part id=PartId::Presenter when=Signal::derive(move || presenter.on.get())/>
        <EmbedBar/>
        <main>
        <Notices/>
        <Summary/>
        <Part id=PartId::Compare when=Signal::derive(move || compare.get().is_some())/>
        <div class="stage settling">
            <div class="left">
                <Part id=PartId::BreakIt when=Signal::derive(move || ctx.breaking.get())/>
                <FigureCard plots=true/>
                <Timeline/>
                <Choices/>
                <Narration/>
                <Program/>
                <Knobs/>
                {(!embed).then(|| view! { <Part id=PartId::Explorer/> <super::explore::ExplorerStandIn/> })}
            </div>
            <div class="right">
                <FigureCard plots=false/>
                <super::panels::VerdictStrip place="side"/>
                <Invariants/>
                <Tables/>
            </div>
        </div>
        </main>
        <Controls/>
    }
}

/// Ends the stage's `settling` (main.css), in the task after the page's first frame. Until
/// then the stage shows its figure, timeline and moves, and leaves the words and tables beside
/// and below them out of the layout: laying out the whole page at once made the first drawing's
/// rendering one long task (BENCHMARKS.md, "The first load in tasks"). A hidden tab has no
/// frames: it settles when shown.
pub fn settle_after_first_frame() {
    request_animation_frame(|| {
        set_timeout(
            || {
                if let Some(stage) = document().query_selector(".stage.settling").ok().flatten() {
                    let _ = stage.class_list().remove_1("settling");
                }
            },
            std::time::Duration::ZERO,
        )
    });
}

fn on_key(ctx: Ctx, presenter: super::present::Presenter, ev: web_sys::KeyboardEvent) {
    if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
        return;
    }
    let target = ev
        .target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok());
    let tag = target.as_ref().map(|e| e.tag_name()).unwrap_or_default();
    // A focused table or listing that scrolls sideways keeps the keys that scroll it.
    let scrolls = target.as_ref().is_some_and(|e| {
        matches!(tag.as_str(), "FIGURE" | "PRE") && e.scroll_width() > e.client_width()
    });
    if scrolls
        && matches!(
            ev.key().as_str(),
            "ArrowLeft" | "ArrowRight" | "Home" | "End"
        )
    {
        return;
    }
    // Form controls keep their own keys; buttons keep Space and Enter.
    let in_field = matches!(tag.as_str(), "INPUT" | "SELECT" | "TEXTAREA");
    let on_button = tag == "BUTTON" || tag == "A";
    if !in_field && super::present::on_key(ctx, presenter, &ev.key()) {
        ev.prevent_default();
        return;
    }
    if !in_field && take_choice_key(ctx, &ev.key()) {
        ev.prevent_default();
        return;
    }
    let event = match ev.key().as_str() {
        " " | "k" if !in_field && !on_button => PlayerEvent::TogglePlay,
        "." => PlayerEvent::Pause,
        "ArrowRight" | "PageDown" if !in_field => PlayerEvent::StepForward,
        "ArrowLeft" | "PageUp" if !in_field => PlayerEvent::StepBack,
        "Home" if !in_field => PlayerEvent::Start,
        "End" if !in_field => PlayerEvent::End,
        _ => return,
    };
    ev.prevent_default();
    ctx.dispatch(event);
}

/// `f` injects the first fault enabled at this step; `1`–`9` take the n-th next move. True if
/// the key was one of them and something was taken.
fn take_choice_key(ctx: Ctx, key: &str) -> bool {
    let step = ctx.cursor.get_untracked().step;
    let pick = |fault: bool, n: usize| {
        ctx.trace.with_untracked(|t| {
            (t.steps.get(step)?.choices.iter())
                .filter(|c| c.fault == fault)
                .nth(n)
                .map(|c| c.index)
        })
    };
    let choice = match key {
        "f" | "F" => pick(true, 0),
        _ => match key.parse::<usize>() {
            Ok(n @ 1..=9) => pick(false, n - 1),
            _ => None,
        },
    };
    let Some(index) = choice else {
        return false;
    };
    ctx.dispatch(PlayerEvent::Pause);
    ctx.choose(index);
    true
}
