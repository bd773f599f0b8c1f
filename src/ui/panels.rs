//! The header, notices, narration, the next moves and faults, and the invariants panel.
//!
//! Parts that change only as a whole (the header, the buttons, the invariants) are built as
//! markup by pure functions and handled by delegation: a fraction of the bundle cost of typed
//! views (see ARCHITECTURE.md).

use super::app::{use_ctx, Ctx, Retry};
use super::browser;
use super::cmd::Cmd;
use super::dom::{drawn, Node};
use super::i18n::Ui;
use super::i18n::{jump_to, violated_at};
use super::icons::{node as icon_node, Icon};
use super::parts::{PartId, Parts};
use crate::player::PlayerEvent;
use crate::scenarios;
use crate::sim::{Choice, InvKind, Knob, Lang, ScenarioMeta, Status, StepInfo, Text, Verdict};
use leptos::prelude::*;

#[component]
pub fn Header() -> impl IntoView {
    let ctx = use_ctx();
    let embed_code = use_context::<EmbedCode>();
    // A phone's "⋯": the actions that do not fit its one-row header.
    let open = RwSignal::new(false);
    let draw = move || {
        let (lang, scenario, variant) = (ctx.lang.get(), ctx.scenario.get(), ctx.variant.get());
        // A switch whose module did not arrive: the picker shows the scenario still shown.
        ctx.retry.track();
        header(
            lang,
            ctx.t(),
            scenario,
            variant,
            ctx.breaking.get(),
            open.get(),
        )
    };
    // The header is markup (it changes only with the language, scenario or variant); its
    // controls are handled here by delegation.
    let quiz = super::quiz::QuizShown::get();
    let parts = Parts::get();
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some(cmd) = Cmd::of(&ev) else { return };
        match cmd {
            Cmd::MoreToggle => open.update(|o| *o = !*o),
            Cmd::Variant(v) => {
                ctx.set_variant(v);
                Cmd::Variant(v).refocus();
            }
            Cmd::Lang(lang) => {
                ctx.lang.set(lang);
                cmd.refocus();
            }
            Cmd::Break => {
                ctx.set_breaking(!ctx.breaking.get_untracked());
                cmd.refocus();
            }
            Cmd::Embed => {
                if let Some(EmbedCode(code)) = embed_code {
                    code.set(embed_code_now(ctx));
                }
                if let Some(parts) = parts {
                    parts.open(PartId::Embed, || browser::show_modal("embed-dialog"));
                }
            }
            Cmd::Present => {
                if let Some(p) = use_context::<super::present::Presenter>() {
                    ctx.present_from_failure();
                    p.enter();
                }
            }
            Cmd::QuizOpen => {
                if let Some(quiz) = quiz {
                    quiz.open();
                }
            }
            Cmd::ExportOpen => {
                if let Some(parts) = parts {
                    parts.open(PartId::Export, || browser::show_modal("export-dialog"));
                }
            }
            Cmd::CopyLink => browser::copy_text(&browser::location_href(), move |ok| {
                let t = ctx.t();
                ctx.status
                    .set(Some(if ok { t.link_copied } else { t.copy_failed }));
            }),
            _ => {}
        }
    };
    let on_change = move |ev: leptos::ev::Event| {
        let value = event_target_value(&ev).parse::<usize>();
        if Cmd::of(&ev) == Some(Cmd::VariantMenu) {
            if let Ok(v) = value {
                ctx.set_variant(v);
                Cmd::VariantMenu.refocus();
            }
            return;
        }
        if let Ok(i) = value {
            // The header is redrawn for the new scenario: keep the keyboard on the picker.
            ctx.set_scenario(i, || browser::focus_after_redraw(".top select"));
        }
    };
    // Arrow keys move between the variant radios, as in any radio group.
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        let Some(Cmd::Variant(i)) = Cmd::of_key(&ev) else {
            return;
        };
        let n = ctx.meta().variants.len();
        let next = match ev.key().as_str() {
            "ArrowRight" | "ArrowDown" => (i + 1) % n,
            "ArrowLeft" | "ArrowUp" => (i + n - 1) % n,
            _ => return,
        };
        ev.prevent_default();
        ev.stop_propagation();
        ctx.set_variant(next);
        Cmd::Variant(next).refocus();
    };
    view! {
        <header class="top" class:open=move || open.get() on:click=on_click on:change=on_change on:keydown=on_keydown>
            {drawn("top-inner", ctx.unless_embed(draw))}
            <p class="toast" role="status" class:shown=move || ctx.status.get().is_some()>{move || ctx.status.get()}</p>
        </header>
    }
}

/// The header: title, scenario picker, variant radios, language switch, Copy link.
pub fn header(
    lang: Lang,
    t: &Ui,
    scenario: usize,
    variant: usize,
    breaking: bool,
    open: bool,
) -> Vec<Node> {
    let brand = Node::el("div")
        .attr("class", "brand")
        .child(
            Node::el("h1").child(
                Node::el("a")
                    .attr("href", format!("?home=1&lang={}", lang.code()))
                    .attr("title", t.home_link)
                    .text("Effectively Once"),
            ),
        )
        .child(Node::el("p").attr("class", "tagline").text(t.tagline));
    // Named on its own: a phone's one-row header hides the visible label.
    let mut select = Node::el("select").attr("aria-label", t.scenario);
    for i in 0..scenarios::COUNT {
        let mut option = Node::el("option").attr("value", i);
        if i == scenario {
            option = option.attr("selected", "");
        }
        select.push(option.text(scenarios::meta(i).title.get(lang)));
    }
    let picker = Node::el("label")
        .attr("class", "field")
        .child(
            Node::el("span")
                .attr("class", "field-label")
                .text(t.scenario),
        )
        .child(select);
    let mut radios = Node::el("div")
        .attr("class", "segmented")
        .attr("role", "radiogroup")
        .attr("aria-label", t.variant);
    let meta = scenarios::meta(scenario);
    for (i, v) in meta.variants.iter().enumerate() {
        let (checked, tabindex) = if i == variant {
            ("true", 0)
        } else {
            ("false", -1)
        };
        let mut b = button("seg")
            .attr("role", "radio")
            .attr("aria-checked", checked)
            .attr("tabindex", tabindex)
            .attr("title", v.blurb.get(lang))
            .cmd(Cmd::Variant(i))
            .text(v.name.get(lang));
        if v.fixed {
            b = b
                .text(" ")
                .child(Node::el("span").attr("class", "tag").text(t.fixed));
        }
        radios.push(b);
    }
    let mut langs = Node::el("div")
        .attr("class", "segmented")
        .attr("role", "group")
        .attr("aria-label", t.language);
    for (l, code, label) in [(Lang::En, "en", "English"), (Lang::Zh, "zh-Hans", "中文")] {
        let pressed = if l == lang { "true" } else { "false" };
        langs.push(
            button("seg")
                .attr("lang", code)
                .attr("aria-pressed", pressed)
                .cmd(Cmd::Lang(l))
                .text(label),
        );
    }
    let copy = button("btn")
        .cmd(Cmd::CopyLink)
        .child(icon_node(Icon::Link))
        .text(t.copy_link);
    let challenge = button("btn")
        .cmd(Cmd::Break)
        .attr("aria-pressed", if breaking { "true" } else { "false" })
        .text(t.break_it);
    let embed = button("btn")
        .cmd(Cmd::Embed)
        .attr("aria-haspopup", "dialog")
        .text(t.embed);
    let export = button("btn")
        .cmd(Cmd::ExportOpen)
        .attr("aria-haspopup", "dialog")
        .text(t.export);
    let present = button("btn").cmd(Cmd::Present).text(t.present);
    let quiz = button("btn")
        .cmd(Cmd::QuizOpen)
        .attr("aria-haspopup", "dialog")
        .text(t.quiz);
    // On a phone the header is one row (the scenario and the variant as menus); the rest is
    // behind "⋯" (CSS hides `.top-more` there until the header is opened).
    let mut variants = Node::el("select")
        .attr("class", "variant-menu")
        .attr("aria-label", t.variant)
        .cmd(Cmd::VariantMenu);
    for (i, v) in meta.variants.iter().enumerate() {
        let option = Node::el("option").attr("value", i);
        let option = if i == variant {
            option.attr("selected", "")
        } else {
            option
        };
        variants.push(option.text(v.name.get(lang)));
    }
    let more = button("btn more-toggle")
        .cmd(Cmd::MoreToggle)
        .attr("aria-controls", "top-more")
        .attr("aria-expanded", if open { "true" } else { "false" })
        .attr("aria-label", t.more_actions)
        .text("⋯");
    let actions = Node::el("div")
        .attr("class", "top-more")
        .attr("id", "top-more")
        .child(langs)
        .child(challenge)
        .child(copy)
        .child(embed)
        .child(export)
        .child(present)
        .child(quiz);
    vec![brand, picker, variants, more, actions, radios]
}

fn button(class: &'static str) -> Node {
    Node::el("button")
        .attr("type", "button")
        .attr("class", class)
}

/// The chosen variant in one line (what it does, how it fails or why it holds), the move to
/// try, and for a mistake "Watch it fail": its canonical failing path, played to the violation.
#[component]
pub fn Summary() -> impl IntoView {
    let ctx = use_ctx();
    let draw = move || {
        let (lang, t) = (ctx.lang.get(), ctx.t());
        let meta = ctx.meta();
        summary(meta, ctx.variant.get(), lang, t)
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if Cmd::of(&ev) == Some(Cmd::Watch) {
            ctx.watch_it_fail();
        }
    };
    view! { <div class="summary" on:click=on_click>{drawn("summary-in", ctx.unless_embed(draw))}</div> }
}

pub fn summary(meta: &ScenarioMeta, variant: usize, lang: Lang, t: &Ui) -> Vec<Node> {
    let Some(v) = meta.variants.get(variant) else {
        return Vec::new();
    };
    let mut out = vec![Node::el("p").attr("class", "blurb").text(v.blurb.get(lang))];
    let mut coach = Node::el("p").attr("class", "coach");
    if !v.hint.en.is_empty() {
        coach.push(Node::el("strong").text(t.try_this));
        coach.push_text(format!(" {} ", v.hint.get(lang)));
    }
    if v.fails.is_some() {
        coach.push(
            button("btn watch")
                .cmd(Cmd::Watch)
                .child(Node::el("span").attr("aria-hidden", "true").text("▶ "))
                .text(t.watch_fail),
        );
    }
    if !v.hint.en.is_empty() || v.fails.is_some() {
        out.push(coach);
    }
    out
}

#[component]
pub fn Notices() -> impl IntoView {
    let ctx = use_ctx();
    let parts = Parts::get();
    let draw = move || {
        let (lang, t) = (ctx.lang.get(), ctx.t());
        let retry = ctx.retry.get().is_some();
        ctx.notices.with(|n| notices(n, retry, lang, t))
    };
    let on_click = move |ev: leptos::ev::MouseEvent| match Cmd::of(&ev) {
        Some(Cmd::Dismiss) => {
            ctx.notices.set(Vec::new());
            ctx.retry.set(None);
        }
        Some(Cmd::LoadRetry) => {
            ctx.notices.set(Vec::new());
            match ctx.retry.get_untracked() {
                Some(Retry::Scenario(i)) => ctx.set_scenario(i, || {}),
                Some(Retry::Part(id)) => {
                    ctx.retry.set(None);
                    if let Some(parts) = parts {
                        parts.fetch(id);
                    }
                }
                None => {}
            }
        }
        _ => {}
    };
    view! { <div on:click=on_click>{drawn("notices", draw)}</div> }
}

/// What was wrong with the link (or a file), and a way to dismiss it (and to fetch again a
/// scenario whose module did not arrive); nothing when all is well.
pub fn notices(notices: &[Text], retry: bool, lang: Lang, t: &Ui) -> Vec<Node> {
    if notices.is_empty() {
        return Vec::new();
    }
    let mut ul = Node::el("ul");
    for n in notices {
        ul.push(Node::el("li").text(n.get(lang)));
    }
    let mut notice = Node::el("div")
        .attr("class", "notice")
        .attr("role", "alert")
        .child(Node::el("strong").text(t.notice))
        .child(ul);
    if retry {
        notice.push(button("btn primary").cmd(Cmd::LoadRetry).text(t.try_again));
    }
    vec![notice.child(button("btn").cmd(Cmd::Dismiss).text(t.dismiss))]
}

#[component]
pub fn Narration() -> impl IntoView {
    let ctx = use_ctx();
    // The rest of each step's narration, beyond its first sentence: shown on demand, and kept
    // open from step to step once asked for.
    let more = RwSignal::new(false);
    let info = move |code: bool| {
        let (lang, t, step) = (ctx.lang.get(), ctx.t(), ctx.cursor.get().step);
        let open = more.get();
        ctx.trace.with(|tr| {
            tr.steps
                .get(step)
                .map(|s| {
                    if code {
                        listing(&s.info, t)
                    } else {
                        narration(&s.info, step, open, lang, t)
                    }
                })
                .unwrap_or_default()
        })
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if Cmd::of(&ev) == Some(Cmd::More) {
            more.update(|m| *m = !*m);
            Cmd::More.refocus();
        }
    };
    view! {
        <section class="card narration" class:open=move || more.get() aria-labelledby="narration-h" on:click=on_click>
            <h2 id="narration-h">{move || ctx.t().narration}</h2>
            <div aria-live="polite" aria-atomic="true">{drawn("narr-text", ctx.unless_embed(move || info(false)))}</div>
            {drawn("narr-code", ctx.unless_embed(move || info(true)))}
        </section>
    }
}

/// The code a step ran, and under SQL, that the listing harness runs it (every SQL statement
/// the app shows: `tests/it/sql.rs` holds that the scenarios it does not replay show none).
pub fn listing(info: &StepInfo, t: &Ui) -> Vec<Node> {
    let Some(c) = &info.code else {
        return Vec::new();
    };
    // Focusable: on a phone the statement scrolls sideways, and a scrollable region must be
    // reachable from the keyboard.
    let mut out = vec![Node::el("pre")
        .attr("class", "code")
        .attr("aria-label", t.code)
        .attr("tabindex", "0")
        .child(Node::el("code").text(c.as_str()))];
    if shows_sql(c) {
        out.push(
            Node::el("p")
                .attr("class", "checked muted")
                .text(t.sql_checked),
        );
    }
    out
}

/// Whether a listing holds an SQL statement (a line that starts with one).
fn shows_sql(code: &str) -> bool {
    code.lines().any(scenarios::starts_sql)
}

/// A step's number, title and narration: its first sentence, and the rest when `open`.
pub fn narration(info: &StepInfo, step: usize, open: bool, lang: Lang, t: &Ui) -> Vec<Node> {
    let (head, rest) = headline(info.narration.get(lang));
    let mut story = Node::el("p").attr("class", "story").text(head);
    if !rest.is_empty() {
        story.push_text(" ");
        story.push(
            Node::el("span")
                .attr("class", "story-rest")
                .attr("id", "story-rest")
                .text(rest),
        );
    }
    let mut out = vec![
        Node::el("p")
            .attr("class", "step-title")
            .child(
                Node::el("span")
                    .attr("class", "step-no")
                    .text(format!("{step} ")),
            )
            .text(info.title.get(lang)),
        story,
    ];
    if !rest.is_empty() {
        out.push(
            button("btn link more")
                .cmd(Cmd::More)
                .attr("aria-controls", "story-rest")
                .attr("aria-expanded", if open { "true" } else { "false" })
                .text(if open { t.less } else { t.more }),
        );
    }
    out
}

/// A narration's first sentence, and the rest (shown on demand).
pub fn headline(text: &str) -> (&str, &str) {
    let end = text
        .char_indices()
        .find(|&(i, c)| {
            c == '。' || (matches!(c, '.' | '!' | '?') && text[i + 1..].starts_with(' '))
        })
        .map(|(i, c)| i + c.len_utf8());
    match end {
        Some(e) if e < text.len() => (&text[..e], text[e..].trim_start()),
        _ => (text, ""),
    }
}

#[component]
pub fn Choices() -> impl IntoView {
    let ctx = use_ctx();
    let buttons = move |faults: bool| {
        let (lang, t) = (ctx.lang.get(), ctx.t());
        ctx.trace.with(|tr| {
            tr.steps
                .get(ctx.cursor.get().step)
                .map(|s| choices(&s.choices, faults, lang, t))
                .unwrap_or_default()
        })
    };
    // The faults (none at all for a variant without faults: interleavings only), then the next
    // moves' heading, which names whose choices they are. Drawn as nodes: a reactive text
    // returning a `String` costs a kilobyte of bundle.
    let head = move || {
        let (lang, t) = (ctx.lang.get(), ctx.t());
        let mut out = Vec::new();
        if ctx.fault_budget() > 0 {
            let mut div = Node::el("div").attr("class", "buttons");
            buttons(true).into_iter().for_each(|b| div.push(b));
            out.push(Node::el("h2").attr("id", "faults-h").text(t.faults));
            out.push(div);
        }
        out.push(
            Node::el("h2")
                .attr("id", "moves-h")
                .text(moves_heading(ctx.meta(), lang, t)),
        );
        out.push(Node::el("p").attr("class", "muted").text(t.next_moves_hint));
        out
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        match Cmd::of(&ev) {
            Some(Cmd::Choice(index)) => {
                ctx.choose(index);
                // The buttons are redrawn for the new step: keep keyboard focus in the panel.
                browser::focus_after_render(".choices button, #step-forward");
            }
            Some(Cmd::Restart) => {
                ctx.dispatch(PlayerEvent::Start);
                browser::focus_after_render("#step-forward");
            }
            _ => {}
        }
    };
    let over = move || {
        let t = ctx.t();
        ctx.trace.with(|tr| {
            tr.steps
                .get(ctx.cursor.get().step)
                .map(|s| run_over(&s.choices, t))
                .unwrap_or_default()
        })
    };
    view! {
        <section class="card choices" aria-labelledby="faults-h moves-h" on:click=on_click>
            {drawn("choices-head", ctx.unless_embed(head))}
            <div role="group" aria-labelledby="moves-h">{drawn("buttons", ctx.unless_embed(move || buttons(false)))}</div>
            {drawn("over", ctx.unless_embed(over))}
        </section>
    }
}

/// The next moves' heading: whose choices they are, as the scenario names them, or the
/// scheduler's.
pub fn moves_heading(meta: &ScenarioMeta, lang: Lang, t: &Ui) -> String {
    meta.moves_heading
        .as_ref()
        .map_or(t.next_moves, |h| h.get(lang))
        .to_string()
}

/// The buttons for the faults (or the ordinary moves) enabled at a step, each with its key
/// (F for the first fault, 1–9 for the moves).
pub fn choices(choices: &[Choice], faults: bool, lang: Lang, t: &Ui) -> Vec<Node> {
    let mut out = Vec::new();
    for c in choices.iter().filter(|c| c.fault == faults) {
        let key = match (faults, out.len()) {
            (true, 0) => Some("F".to_string()),
            (false, n @ 0..=8) => Some((n + 1).to_string()),
            _ => None,
        };
        let mut b = button(if faults { "btn fault" } else { "btn move" }).cmd(Cmd::Choice(c.index));
        // The key is drawn by CSS from `data-key` (not text): it stays out of the button's name.
        if let Some(k) = &key {
            b = b.attr("aria-keyshortcuts", k).attr("data-key", k);
        }
        if faults {
            b.push(Node::el("span").attr("aria-hidden", "true").text("⚡ "));
        }
        b.push_text(c.label.get(lang));
        if !faults && out.is_empty() {
            b = b
                .text(" ")
                .child(Node::el("span").attr("class", "tag").text(t.default_move));
        }
        out.push(b);
    }
    if faults && out.is_empty() {
        out.push(Node::el("p").attr("class", "muted").text(t.faults_none));
    }
    out
}

/// At a step with no move left: the run is over, and how to go on from here.
pub fn run_over(choices: &[Choice], t: &Ui) -> Vec<Node> {
    if choices.iter().any(|c| !c.fault) {
        return Vec::new();
    }
    vec![Node::el("div")
        .attr("class", "run-over")
        .attr("role", "status")
        .child(Node::el("strong").text(t.run_over))
        .text(" ")
        .text(t.run_over_hint)
        .child(button("btn").cmd(Cmd::Restart).text(t.start_over))]
}

/// One line per invariant, violated first: the verdicts where the invariants card is out of
/// sight (pinned in a phone's player bar, and in an embed).
#[component]
pub fn VerdictStrip(
    /// Where it sits: `bar` (a phone's player bar) or `side` (an embed's, beside the figure).
    place: &'static str,
) -> impl IntoView {
    let ctx = use_ctx();
    let draw = move || {
        let (lang, t, step) = (ctx.lang.get(), ctx.t(), ctx.cursor.get().step);
        ctx.trace.with(|tr| {
            tr.steps
                .get(step)
                .map(|s| vec![verdict_strip(&s.verdicts, lang, t)])
                .unwrap_or_default()
        })
    };
    view! { <div class=format!("verdict-strip {place}")>{drawn("strip", draw)}</div> }
}

/// The verdicts' indices, violated first, then pending, then those that hold; otherwise in the
/// model's order. Three filters, not a sort: a slice sort is about 3 KB of wasm per element type.
fn by_status(verdicts: &[Verdict]) -> impl Iterator<Item = usize> + '_ {
    [Status::Violated, Status::Pending, Status::Holds]
        .into_iter()
        .flat_map(move |status| (0..verdicts.len()).filter(move |&i| verdicts[i].status == status))
}

pub fn verdict_strip(verdicts: &[Verdict], lang: Lang, t: &Ui) -> Node {
    let mut ul = Node::el("ul").attr("aria-label", t.invariants);
    for v in by_status(verdicts).map(|i| &verdicts[i]) {
        let (class, icon, word) = match v.status {
            Status::Violated => ("violated", "✗", violated_at(lang, v.since.unwrap_or(0))),
            Status::Pending => ("pending", "⏳", t.pending.to_string()),
            Status::Holds => ("holds", "✓", t.holds.to_string()),
        };
        ul.push(
            Node::el("li")
                .attr("class", class)
                .child(Node::el("span").attr("aria-hidden", "true").text(icon))
                .child(
                    Node::el("span")
                        .attr("class", "vs-name")
                        .text(v.name.get(lang)),
                )
                .child(Node::el("span").attr("class", "vs-word").text(word)),
        );
    }
    ul
}

#[component]
pub fn Invariants() -> impl IntoView {
    let ctx = use_ctx();
    let draw = move || {
        let (lang, t, step) = (ctx.lang.get(), ctx.t(), ctx.cursor.get().step);
        ctx.trace.with(|tr| {
            tr.steps
                .get(step)
                .map(|s| vec![invariants(&s.verdicts, step, lang, t, &[])])
                .unwrap_or_default()
        })
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some(Cmd::Seek(k)) = Cmd::of(&ev) {
            ctx.dispatch(PlayerEvent::Seek(k));
            browser::focus_after_render(".scrubber input");
        }
    };
    view! {
        <section class="card invariants" aria-labelledby="inv-h">
            <h2 id="inv-h">{move || ctx.t().invariants}</h2>
            <div aria-live="polite" on:click=on_click>{drawn("inv-list", ctx.unless_embed(draw))}</div>
        </section>
    }
}

/// Each invariant with its status as an icon *and* a word, why, and where it broke. `differs[i]`
/// marks verdict `i` as different from the compared variant's.
pub fn invariants(verdicts: &[Verdict], step: usize, lang: Lang, t: &Ui, differs: &[bool]) -> Node {
    let mut list = Node::el("ul");
    for (i, v) in by_status(verdicts).map(|i| (i, &verdicts[i])) {
        let differs = differs.get(i).copied().unwrap_or(false);
        let (icon, class, word) = match v.status {
            Status::Holds => ("✓", "inv holds", t.holds.to_string()),
            Status::Pending => ("⏳", "inv pending", t.pending.to_string()),
            Status::Violated => (
                "✗",
                "inv violated",
                violated_at(lang, v.since.unwrap_or(step)),
            ),
        };
        let (kind, means) = match v.kind {
            InvKind::Always => (t.always, t.always_means),
            InvKind::Eventually => (t.eventually, t.eventually_means),
        };
        let span =
            |class: &'static str, text: &str| Node::el("span").attr("class", class).text(text);
        let mut head = Node::el("div")
            .attr("class", "inv-head")
            .child(span("inv-icon", icon).attr("aria-hidden", "true"))
            .child(span("inv-name", v.name.get(lang)))
            .child(span("inv-kind", kind).attr("title", means));
        if differs {
            head.push(span("diff-tag", &format!("≠ {}", t.differs)));
        }
        head.push(span("inv-status", &word));
        let class = if differs {
            format!("{class} differs")
        } else {
            class.to_string()
        };
        let mut item = Node::el("li")
            .attr("class", class)
            .child(head)
            .child(Node::el("p").attr("class", "inv-why").text(v.why.get(lang)));
        if let Some(k) = v.cause {
            item.push(button("btn link").cmd(Cmd::Seek(k)).text(jump_to(lang, k)));
        }
        list.push(item);
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::dom::html;
    use crate::ui::i18n::{EN, ZH};

    #[test]
    fn header_marks_exactly_one_variant_and_one_language() {
        let meta = scenarios::meta(0);
        let last = meta.variants.len() - 1;
        let out = html(&header(Lang::Zh, &ZH, 0, last, false, false));
        assert_eq!(out.matches("aria-checked=\"true\"").count(), 1);
        let checked = format!(
            "aria-checked=\"true\" tabindex=\"0\" title=\"{}\" data-cmd=\"variant:{last}\"",
            meta.variants[last].blurb.zh
        );
        assert!(out.contains(&checked), "{out}");
        assert_eq!(out.matches("aria-pressed=\"true\"").count(), 1);
        assert!(out.contains("aria-pressed=\"true\" data-cmd=\"lang:zh\""));
        let option = format!(
            "<option value=\"0\" selected=\"\">{}</option>",
            meta.title.en
        );
        assert!(html(&header(Lang::En, &EN, 0, 0, false, false)).contains(&option));
    }

    #[test]
    fn verdicts_show_violated_then_pending_then_holding_each_in_the_models_order() {
        let v = |status, name: &str| Verdict {
            name: Text::new(name, name),
            kind: InvKind::Always,
            status,
            since: None,
            cause: None,
            why: Text::default(),
            rows: Vec::new(),
        };
        use Status::{Holds, Pending, Violated};
        let all = [
            v(Holds, "a"),
            v(Violated, "b"),
            v(Pending, "c"),
            v(Violated, "d"),
            v(Holds, "e"),
        ];
        assert_eq!(by_status(&all).collect::<Vec<_>>(), [1, 3, 2, 0, 4]);
        let strip = html(&[verdict_strip(&all, Lang::En, &EN)]);
        let at = |name: &str| strip.find(&format!(">{name}<")).expect("drawn");
        assert!(at("b") < at("d") && at("d") < at("c") && at("c") < at("a") && at("a") < at("e"));
        assert_eq!(by_status(&[]).count(), 0);
    }

    #[test]
    fn choices_split_faults_from_moves_and_say_when_there_is_no_fault() {
        let trace = scenarios::all()[0].trace(0, &[]);
        let faults = html(&choices(&trace.steps[2].choices, true, Lang::En, &EN));
        assert!(faults.contains("Crash order service") && faults.contains("Broker unavailable"));
        assert!(!faults.contains("publish e-17"));
        let moves = html(&choices(&trace.steps[2].choices, false, Lang::En, &EN));
        assert!(moves.contains("publish e-17") && moves.contains("default"));
        let none = html(&choices(&trace.steps[0].choices, true, Lang::En, &EN));
        assert!(none.contains("No fault can be injected"));
    }

    #[test]
    fn the_moves_are_headed_by_whose_choices_they_are() {
        let heading = |slug: &str, lang: Lang| {
            let i = scenarios::index_of(slug).expect("registered");
            let t = if lang == Lang::Zh { &ZH } else { &EN };
            moves_heading(scenarios::meta(i), lang, t)
        };
        // Interleaving is the choice: the scheduler's.
        assert_eq!(heading("refund-cap", Lang::En), "You are the scheduler");
        assert_eq!(heading("refund-cap", Lang::Zh), "由你来调度");
        // The provider's answers.
        assert_eq!(heading("retry-layers", Lang::En), "You are the payment API");
        assert_eq!(heading("retry-layers", Lang::Zh), "由你扮演支付 API");
        for s in scenarios::all() {
            let meta = s.meta();
            for lang in [Lang::En, Lang::Zh] {
                let h = heading(meta.slug, lang);
                assert!(
                    !h.is_empty() && h.chars().count() <= 32,
                    "{}: {h}",
                    meta.slug
                );
            }
        }
    }

    #[test]
    fn sql_says_the_harness_runs_it_and_nothing_else_does() {
        let step = |code: &str| StepInfo {
            code: Some(code.into()),
            ..StepInfo::default()
        };
        let sql = step("BEGIN;\nINSERT INTO t (id) VALUES (1);");
        let out = html(&listing(&sql, &EN));
        assert!(out.contains("PostgreSQL 15"), "{out}");
        let js = step("await send({ id: 1 });");
        assert!(!html(&listing(&js, &EN)).contains("PostgreSQL"));
        assert!(listing(&StepInfo::default(), &EN).is_empty());
    }

    #[test]
    fn a_knob_with_options_offers_them_by_the_words_links_use() {
        let i = scenarios::index_of("semaphore-scope").expect("registered");
        let meta = scenarios::meta(i);
        let out = html(&knobs(&meta.knobs, &[3, 3], Lang::En, &EN));
        assert!(
            out.contains("<option value=\"20\" selected=\"\">20 permits</option>"),
            "{out}"
        );
        assert!(
            out.contains("<option value=\"2\">2 permits</option>"),
            "{out}"
        );
    }
}

/// The scenario's numbers (a cap, request amounts), when it has any: number fields whose
/// changes replay the run; a reset to the seed's numbers when they differ.
#[component]
pub fn Knobs() -> impl IntoView {
    let ctx = use_ctx();
    let draw = move || {
        let (lang, t) = (ctx.lang.get(), ctx.t());
        let meta = ctx.meta();
        ctx.knobs.with(|v| knobs(&meta.knobs, v, lang, t))
    };
    let on_change = move |ev: leptos::ev::Event| {
        let Some(Cmd::Knob(i)) = Cmd::of(&ev) else {
            return;
        };
        // A number field's text (clamped to the range by `set_knob`), or a choice's word.
        let text = event_target_value(&ev);
        let value = ctx.meta().knobs.get(i).and_then(|k| {
            if k.options.is_empty() {
                text.trim().parse::<u32>().ok()
            } else {
                k.read(&text)
            }
        });
        if let Some(value) = value {
            ctx.set_knob(i, value);
            Cmd::Knob(i).refocus();
        }
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if Cmd::of(&ev) == Some(Cmd::KnobReset) {
            ctx.set_knobs(ctx.meta().default_knobs());
            Cmd::Knob(0).refocus();
        }
    };
    view! { <div on:change=on_change on:click=on_click>{drawn("knobs-card", ctx.unless_embed(draw))}</div> }
}

/// The knobs card; nothing for a scenario without knobs.
pub fn knobs(knobs: &[Knob], values: &[u32], lang: Lang, t: &Ui) -> Vec<Node> {
    if knobs.is_empty() {
        return Vec::new();
    }
    let mut grid = Node::el("div").attr("class", "knob-grid");
    let mut changed = false;
    for (i, k) in knobs.iter().enumerate() {
        let v = values.get(i).copied().unwrap_or(k.default);
        changed |= v != k.default;
        let field = if k.options.is_empty() {
            Node::el("input")
                .attr("type", "number")
                .attr("inputmode", "numeric")
                .attr("min", k.min)
                .attr("max", k.max)
                .attr("step", k.step)
                .attr("value", v)
        } else {
            let mut select = Node::el("select");
            for (j, o) in k.options.iter().enumerate() {
                let option = Node::el("option").attr("value", &o.word);
                let option = if j as u32 == v {
                    option.attr("selected", "")
                } else {
                    option
                };
                select.push(option.text(o.name.get(lang)));
            }
            select
        };
        grid.push(
            Node::el("label")
                .attr("class", "knob")
                .child(Node::el("span").text(k.name.get(lang)))
                .child(field.cmd(Cmd::Knob(i))),
        );
    }
    let mut card = Node::el("section")
        .attr("class", "card knobs")
        .attr("aria-labelledby", "knobs-h")
        .child(Node::el("h2").attr("id", "knobs-h").text(t.knobs))
        .child(Node::el("p").attr("class", "muted").text(t.knobs_hint))
        .child(grid);
    if changed {
        card.push(button("btn").cmd(Cmd::KnobReset).text(t.knobs_reset));
    }
    vec![card]
}

/// The embedded player's title bar: the scenario and variant, and a link to the full view.
#[component]
pub fn EmbedBar() -> impl IntoView {
    let ctx = use_ctx();
    let draw = move || {
        if !ctx.embed {
            return Vec::new();
        }
        let (lang, t) = (ctx.lang.get(), ctx.t());
        let meta = ctx.meta();
        let variant = meta
            .variants
            .get(ctx.variant.get())
            .map(|v| v.name.get(lang).to_string())
            .unwrap_or_default();
        vec![
            Node::el("h1")
                .attr("class", "embed-title")
                .child(Node::el("strong").text(meta.title.get(lang)))
                .text(format!(" · {variant}")),
            Node::el("a")
                .attr("class", "btn")
                .attr("href", ctx.query(false))
                .attr("target", "_blank")
                .attr("rel", "noopener")
                .text(t.open_full),
        ]
    };
    view! { <header class="top embed-bar">{drawn("top-inner", draw)}</header> }
}

/// The sizes an embed is offered in: what notes pages and slides have room for.
pub const EMBED_SIZES: [EmbedSize; 3] = [
    EmbedSize {
        width: "640",
        height: 400,
    },
    EmbedSize {
        width: "360",
        height: 640,
    },
    EmbedSize {
        width: "100%",
        height: 720,
    },
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmbedSize {
    pub width: &'static str,
    pub height: u32,
}

/// "Embed": a size, a colour scheme, a live preview of the frame, and its `<iframe>` snippet.
#[component]
pub fn EmbedDialog() -> impl IntoView {
    let ctx = use_ctx();
    let code = use_context::<EmbedCode>().map(|c| c.0).unwrap_or_default();
    let size = RwSignal::new(0usize);
    let theme = RwSignal::new(crate::player::Theme::Light);
    let snippet = move || {
        let (src, title) = code.get();
        let src = src + &theme.get().param(true);
        embed_snippet(&src, &title, EMBED_SIZES[size.get().min(2)])
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let cmd = Cmd::of(&ev);
        if cmd == Some(Cmd::EmbedCopy) {
            browser::copy_text(&untrack(snippet), move |ok| {
                let t = ctx.t();
                let w = super::i18n::embed_words(ctx.lang.get());
                ctx.status
                    .set(Some(if ok { w.copied } else { t.copy_failed }));
            });
        } else if cmd == Some(Cmd::EmbedClose) {
            browser::close_dialog("embed-dialog");
        }
    };
    let on_change = move |ev: leptos::ev::Event| {
        let Some(cmd) = Cmd::of(&ev) else { return };
        match cmd {
            Cmd::EmbedSize(i) => size.set(i),
            Cmd::EmbedTheme(t) => theme.set(t),
            _ => return,
        }
        cmd.refocus();
    };
    let draw = move || {
        let (t, (src, _)) = (ctx.t(), code.get());
        let w = super::i18n::embed_words(ctx.lang.get());
        let copied = ctx.status.get() == Some(w.copied);
        let (size, theme) = (size.get().min(2), theme.get());
        let preview_src = if src.is_empty() {
            src
        } else {
            src + &theme.param(true)
        };
        embed_body(t, w, size, theme, &preview_src, snippet(), copied)
    };
    view! {
        <dialog id="embed-dialog" class="card embed-dialog" aria-labelledby="embed-h" on:click=on_click on:change=on_change>
            {drawn("embed-body", draw)}
        </dialog>
    }
}

/// The dialog's body: the choices, the preview (the frame itself, at its size), the code.
fn embed_body(
    t: &Ui,
    w: &super::i18n::EmbedUi,
    size: usize,
    theme: crate::player::Theme,
    src: &str,
    snippet: String,
    copied: bool,
) -> Vec<Node> {
    use crate::player::Theme;
    let radios = |name: &'static str, label: &str, items: Vec<(Cmd, &str, bool)>| {
        let mut set = Node::el("fieldset")
            .attr("class", "embed-choice")
            .child(Node::el("legend").text(label));
        for (cmd, text, checked) in items {
            let mut input = Node::el("input")
                .attr("type", "radio")
                .attr("name", name)
                .cmd(cmd);
            if checked {
                input = input.attr("checked", "");
            }
            set.push(Node::el("label").child(input).text(format!(" {text}")));
        }
        set
    };
    let sizes = [w.compact, w.tall, w.full];
    let sizes = (0..3)
        .map(|i| (Cmd::EmbedSize(i), sizes[i], i == size))
        .collect();
    let themes = [
        (Theme::Light, w.theme_light),
        (Theme::Dark, w.theme_dark),
        (Theme::Auto, w.theme_auto),
    ]
    .into_iter()
    .map(|(th, text)| (Cmd::EmbedTheme(th), text, th == theme))
    .collect();
    let s = EMBED_SIZES[size];
    vec![
        Node::el("h2").attr("id", "embed-h").text(w.title),
        Node::el("p").attr("class", "muted").text(w.hint),
        Node::el("div")
            .attr("class", "embed-choices")
            .child(radios("embed-size", w.size, sizes))
            .child(radios("embed-theme", w.theme, themes)),
        // Only once the dialog has an address: an iframe without one would load this page.
        // Focusable: a frame larger than the dialog scrolls inside it.
        Node::el("div")
            .attr("class", "embed-preview")
            .attr("tabindex", "0")
            .attr("role", "region")
            .attr("aria-label", w.preview)
            .children((!src.is_empty()).then(|| {
                Node::el("iframe")
                    .attr("src", src)
                    .attr("title", w.preview)
                    .attr("width", s.width)
                    .attr("height", s.height)
            })),
        Node::el("textarea")
            .attr("readonly", "")
            .attr("rows", 4)
            .attr("aria-label", w.code)
            .text(snippet),
        Node::el("div")
            .attr("class", "buttons")
            .child(button("btn primary").cmd(Cmd::EmbedCopy).text(w.copy))
            .child(button("btn").cmd(Cmd::EmbedClose).text(t.close)),
        Node::el("p")
            .attr("class", "sr-status")
            .attr("role", "status")
            .text(if copied { w.copied } else { "" }),
    ]
}

/// The embed's address (this state, `embed=1`) and its frame's title: set when the dialog
/// opens, so that it is not rebuilt on every step while nobody looks at it.
#[derive(Clone, Copy)]
pub struct EmbedCode(pub RwSignal<(String, String)>);

/// This state's embed address and title (the scenario and variant).
fn embed_code_now(ctx: Ctx) -> (String, String) {
    let meta = ctx.meta();
    let lang = ctx.lang.get_untracked();
    let variant = meta
        .variants
        .get(ctx.variant.get_untracked())
        .map(|v| v.name.get(lang).to_string())
        .unwrap_or_default();
    let title = format!("{} — {variant} · Effectively Once", meta.title.get(lang));
    (
        browser::location_base() + &untrack(|| ctx.query(true)),
        title,
    )
}

/// The `<iframe>` markup for `src` at `size`, with an accessible `title`, loaded lazily;
/// attribute values escaped.
pub fn embed_snippet(src: &str, title: &str, size: EmbedSize) -> String {
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('"', "&quot;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"{}\" height=\"{}\" style=\"border:0\" loading=\"lazy\"></iframe>",
        esc(src),
        esc(title),
        size.width,
        size.height
    )
}

#[cfg(test)]
mod embed_tests {
    use super::{embed_snippet, EMBED_SIZES};

    #[test]
    fn the_embed_snippet_escapes_and_names_the_frame() {
        let s = embed_snippet(
            "https://x.test/?s=a&v=b&embed=1",
            "A \"quoted\" <title>",
            EMBED_SIZES[0],
        );
        assert!(s.contains("width=\"640\" height=\"400\"") && s.contains("loading=\"lazy\""));
        assert!(s.starts_with("<iframe src=\"https://x.test/?s=a&amp;v=b&amp;embed=1\""));
        assert!(s.contains("title=\"A &quot;quoted&quot; &lt;title&gt;\""));
        assert!(s.ends_with("></iframe>"));
    }
}
