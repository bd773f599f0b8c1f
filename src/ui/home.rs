//! The home page (`home=1`): every scenario grouped by theme, with its one-line hook and a
//! thumbnail of its timeline (drawn from its default run, like the player's), the quiz, and how
//! to embed a scenario in notes.

use super::app::use_ctx;
use super::browser;
use super::cmd::Cmd;
use super::dom::{patched, Node};
use super::timeline;
use crate::scenarios;
use crate::sim::Lang;
use leptos::prelude::*;

/// The width a thumbnail's timeline is laid out in: every step fits, at one scale for all.
const THUMB_W: i32 = 520;

/// A scenario's failure moment as a small picture: its first failing variant's canonical path
/// at the step where it breaks (the first variant's run to its end if none fails).
/// Until the scenario's module has arrived (the page's split build fetches them after the home
/// page is drawn), an empty frame of the same size.
fn thumbnail(index: usize, lang: Lang) -> Node {
    let Some(s) = scenarios::get(index) else {
        return Node::svg("svg")
            .attr("class", "thumb")
            .attr("viewBox", format!("0 0 {THUMB_W} 160"))
            .attr("aria-hidden", "true");
    };
    let meta = scenarios::meta(index);
    let failing = meta
        .variants
        .iter()
        .enumerate()
        .find_map(|(i, v)| Some((i, crate::sim::decode_path(v.fails?).0)));
    let (variant, path) = failing.unwrap_or((0, Vec::new()));
    let trace = s.trace_with(variant, &meta.default_knobs(), &path);
    let last = if path.is_empty() {
        trace.last()
    } else {
        path.len().min(trace.last())
    };
    let lay = timeline::Layout::new(&trace, THUMB_W, timeline::Zoom::Fit, last);
    let (w, h) = (lay.width, lay.height);
    Node::svg("svg")
        .attr("class", "thumb")
        .attr("viewBox", format!("0 0 {w} {h}"))
        .attr("preserveAspectRatio", "xMidYMid meet")
        .attr("aria-hidden", "true")
        .child(timeline::base(&trace, last, lang, &lay))
        .child(timeline::moving(&trace, last, 1.0, lang, &lay))
}

#[component]
pub fn Home() -> impl IntoView {
    let ctx = use_ctx();
    let quiz = super::quiz::QuizShown::get();
    // What the link asks of the home page that it cannot do (a language, a theme), said until
    // dismissed. Read here, not by the page: only the home page needs it.
    let notices = RwSignal::new(crate::player::home_notices(&browser::location_search()));
    let on_click = move |ev: leptos::ev::MouseEvent| match Cmd::of(&ev) {
        Some(Cmd::QuizOpen) => {
            if let Some(quiz) = quiz {
                quiz.open();
            }
        }
        Some(Cmd::Dismiss) => notices.set(Vec::new()),
        _ => {}
    };
    // Each thumbnail once per language: the page is redrawn as each scenario's module arrives.
    let arrived = RwSignal::new(0);
    let thumbs = StoredValue::new_local(vec![None::<(Lang, Node)>; scenarios::COUNT]);
    let thumb = move |i: usize, lang: Lang| {
        thumbs.update_value(|t| {
            if t[i].as_ref().is_none_or(|(l, _)| *l != lang) && scenarios::get(i).is_some() {
                t[i] = Some((lang, thumbnail(i, lang)));
            }
        });
        thumbs
            .with_value(|t| t[i].as_ref().map(|(_, n)| n.clone()))
            .unwrap_or_else(|| thumbnail(i, lang))
    };
    // A card's scenario is fetched for its picture when the card (or one after it) comes near
    // the viewport: a phone shows two or three cards at first, and needs not fetch fifteen.
    request_animation_frame(move || {
        browser::each_near(".scenario-card", move |card| {
            let href = card.get_attribute("href").unwrap_or_default();
            let i = crate::player::shown_scenario(&href);
            if scenarios::get(i).is_none() {
                leptos::task::spawn_local(async move {
                    if scenarios::load(i).await.is_ok() {
                        arrived.update(|n| *n += 1);
                    }
                });
            }
        })
    });
    let draw = move || {
        let (lang, t) = (ctx.lang.get(), ctx.t());
        let h = super::i18n::home_words(lang);
        arrived.track();
        let metas: Vec<_> = (0..scenarios::COUNT).map(scenarios::meta).collect();
        let mut themes: Vec<&str> = Vec::new();
        for m in &metas {
            if !themes.contains(&m.theme.en.as_str()) {
                themes.push(&m.theme.en);
            }
        }
        let mut langs = Node::el("nav")
            .attr("class", "home-langs")
            .attr("aria-label", t.language);
        for (l, name) in [(Lang::En, "English"), (Lang::Zh, "中文")] {
            let a = Node::el("a")
                .attr("href", format!("?home=1&lang={}", l.code()))
                .attr("lang", l.code());
            let a = if l == lang {
                a.attr("aria-current", "true")
            } else {
                a
            };
            langs.push(a.text(name));
        }
        // The way in: the first failure to watch, on its own card.
        let start = Node::el("a")
            .attr("class", "card start-here")
            .attr(
                "href",
                format!(
                    "?s=dual-write&v=commit-then-publish&watch=1&lang={}",
                    lang.code()
                ),
            )
            .child(
                Node::el("strong")
                    .child(Node::el("span").attr("aria-hidden", "true").text("▶ "))
                    .text(h.start_here),
            )
            .child(Node::el("span").text(h.start_here_text));
        let mut out = notices.with(|n| super::panels::notices(n, false, lang, t));
        out.extend([
            langs,
            Node::el("h1").text(t.home_title),
            Node::el("p").attr("class", "lead").text(h.lead),
            start,
        ]);
        for theme in themes {
            let mut list = Node::el("ul").attr("class", "cards");
            let mut heading = String::new();
            for (i, m) in metas
                .iter()
                .enumerate()
                .filter(|(_, m)| m.theme.en == theme)
            {
                heading = m.theme.get(lang).to_string();
                let blurb = scenarios::blurb(i);
                list.push(
                    Node::el("li").child(
                        Node::el("a")
                            .attr("class", "card scenario-card")
                            .attr("href", format!("?s={}&lang={}", m.slug, lang.code()))
                            .child(thumb(i, lang))
                            .child(Node::el("h3").text(m.title.get(lang)))
                            .child(Node::el("p").text(blurb.summary_in(lang)))
                            .child(
                                Node::el("span")
                                    .attr("class", "muted")
                                    .text(format!("{} {}", blurb.variants, h.variants)),
                            ),
                    ),
                );
            }
            out.push(
                Node::el("section")
                    .attr("aria-label", heading.clone())
                    .child(Node::el("h2").text(heading))
                    .child(list),
            );
        }
        out.push(
            Node::el("section")
                .attr("class", "card")
                .attr("aria-labelledby", "home-quiz")
                .child(Node::el("h2").attr("id", "home-quiz").text(t.quiz))
                .child(Node::el("p").text(h.quiz))
                .child(
                    Node::el("button")
                        .attr("type", "button")
                        .attr("class", "btn primary")
                        .cmd(Cmd::QuizOpen)
                        .attr("aria-haspopup", "dialog")
                        .text(h.quiz_start),
                ),
        );
        out.push(
            Node::el("section")
                .attr("class", "card")
                .attr("aria-labelledby", "home-embed")
                .child(Node::el("h2").attr("id", "home-embed").text(h.embed))
                .child(Node::el("p").text(h.embed_how))
                .child(
                    Node::el("pre").attr("tabindex", "0").child(Node::el("code").text(
                        "<iframe src=\"https://…/?s=dual-write&v=commit-then-publish&p=001&t=9&embed=1\"\n        title=\"Dual write: commit then publish\" width=\"640\" height=\"400\" loading=\"lazy\"></iframe>",
                    )),
                ),
        );
        out
    };
    view! { <main class="home" on:click=on_click>{patched("home-inner", draw)}</main> }
}
