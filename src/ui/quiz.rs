//! The quiz dialog: the seeds' multiple-choice and short-answer questions, answered in place,
//! each with a "show me" link to the state that demonstrates it. Progress is kept in
//! localStorage when the browser allows it; blocked, full or garbled storage only means the
//! progress is not kept (and the dialog says so), never a broken page.

use super::app::use_ctx;
use super::browser;
use super::dom::{drawn, Node};
use crate::quiz::{encode_progress, parse_progress, questions, Kind};
use leptos::prelude::*;

const KEY: &str = "effectively-once.quiz.v1";

/// Whether the quiz was opened on this page. Its body is about half the page's elements, so it
/// is drawn on the first opening rather than with the page.
#[derive(Clone, Copy)]
pub struct QuizShown(RwSignal<bool>);

impl QuizShown {
    pub fn provide() {
        provide_context(QuizShown(RwSignal::new(false)));
    }

    /// The opener's handle (from a component's setup; `None` outside the app).
    pub fn get() -> Option<QuizShown> {
        use_context::<QuizShown>()
    }

    /// Draws the quiz if it is not drawn yet, and opens it once it is.
    pub fn open(self) {
        if self.0.get_untracked() {
            browser::show_modal("quiz-dialog");
        } else {
            self.0.set(true);
            request_animation_frame(|| browser::show_modal("quiz-dialog"));
        }
    }
}

fn load() -> (Vec<(String, u8)>, bool) {
    match browser::storage_get(KEY) {
        Ok(raw) => (parse_progress(&raw.unwrap_or_default()), true),
        Err(()) => (Vec::new(), false),
    }
}

#[component]
pub fn QuizDialog() -> impl IntoView {
    let ctx = use_ctx();
    let shown = QuizShown::get();
    let (saved, storable) = load();
    let progress = RwSignal::new(saved);
    let stored = RwSignal::new(storable);
    let save = move || {
        let text = progress.with_untracked(|p| encode_progress(p));
        stored.set(browser::storage_set(KEY, &text));
    };
    let set = move |id: String, v: u8| {
        progress.update(|p| match p.iter_mut().find(|(k, _)| *k == id) {
            Some(e) => e.1 = v,
            None => p.push((id, v)),
        });
        save();
    };
    let on_change = move |ev: leptos::ev::Event| {
        if let Some(choice) = browser::data_attr(&ev, "data-quiz") {
            if let Some((id, v)) = choice.split_once(':') {
                if let Ok(v) = v.parse::<u8>() {
                    set(id.to_string(), v);
                    browser::focus_after_render(format!("[data-quiz=\"{choice}\"]"));
                }
            }
        } else if let Some(point) = browser::data_attr(&ev, "data-quiz-point") {
            if let Some((id, bit)) = point.split_once(':') {
                if let Ok(bit) = bit.parse::<u8>() {
                    let now = progress
                        .with_untracked(|p| p.iter().find(|(k, _)| k == id).map_or(0, |e| e.1));
                    set(id.to_string(), now ^ (1 << bit));
                    browser::focus_after_render(format!("[data-quiz-point=\"{point}\"]"));
                }
            }
        }
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if browser::data_attr(&ev, "data-quiz-close").is_some() {
            browser::close_dialog("quiz-dialog");
        } else if browser::data_attr(&ev, "data-quiz-reset").is_some() {
            progress.set(Vec::new());
            save();
        }
    };
    let draw = move || {
        if !shown.is_some_and(|s| s.0.get()) {
            return Vec::new();
        }
        let (lang, t) = (ctx.lang.get(), ctx.t());
        let p = progress.get();
        let get = |id: &str| p.iter().find(|(k, _)| k == id).map(|e| e.1);
        let qs = questions();
        let (mut answered, mut right, mut points, mut choices) = (0, 0, 0u32, 0);
        let (mut orals, mut ready) = (0, 0);
        let mut body = Vec::new();
        for (n, q) in qs.iter().enumerate() {
            let mut sec = Node::el("section")
                .attr("class", "q")
                .attr("aria-labelledby", format!("q-{}", q.id))
                .child(
                    Node::el("h3")
                        .attr("id", format!("q-{}", q.id))
                        .text(format!("{}. {}", n + 1, q.prompt.get(lang))),
                );
            match &q.kind {
                Kind::Choice { options, answer } => {
                    choices += 1;
                    let chosen = get(q.id);
                    let mut set = Node::el("fieldset").child(
                        Node::el("legend")
                            .attr("class", "sr-only")
                            .text(q.prompt.get(lang)),
                    );
                    for (i, o) in options.iter().enumerate() {
                        let mut input = Node::el("input")
                            .attr("type", "radio")
                            .attr("name", q.id)
                            .attr("data-quiz", format!("{}:{i}", q.id));
                        if chosen == Some(i as u8) {
                            input = input.attr("checked", "");
                        }
                        set.push(
                            Node::el("label")
                                .attr("class", "opt")
                                .child(input)
                                .text(format!(" {}. {}", (b'A' + i as u8) as char, o.get(lang))),
                        );
                    }
                    sec.push(set);
                    if let Some(c) = chosen {
                        answered += 1;
                        let ok = c == *answer;
                        right += ok as u32;
                        let verdict = if ok { t.quiz_right } else { t.quiz_wrong };
                        sec.push(
                            Node::el("p")
                                .attr("class", if ok { "q-result good" } else { "q-result bad" })
                                .child(Node::el("strong").text(verdict))
                                .text(format!(" {}", q.explanation.get(lang))),
                        );
                    }
                }
                Kind::Oral { follow_up, avoid } => {
                    orals += 1;
                    let mut input = Node::el("input")
                        .attr("type", "checkbox")
                        .attr("data-quiz-point", format!("{}:0", q.id));
                    if get(q.id).unwrap_or(0) & 1 != 0 {
                        input = input.attr("checked", "");
                        ready += 1;
                    }
                    let part = |h: &str, body: &str| {
                        Node::el("div")
                            .child(Node::el("h4").text(h))
                            .child(Node::el("p").text(body))
                    };
                    sec.push(
                        Node::el("details")
                            .child(Node::el("summary").text(t.quiz_model_answer))
                            .child(part(t.notes_say, q.explanation.get(lang)))
                            .child(part(t.notes_follow, follow_up.get(lang)))
                            .child(part(t.notes_avoid, avoid.get(lang))),
                    );
                    sec.push(
                        Node::el("label")
                            .attr("class", "opt")
                            .child(input)
                            .text(format!(" {}", t.quiz_ready)),
                    );
                }
                Kind::Short { points: pts } => {
                    let mask = get(q.id).unwrap_or(0);
                    let mut list = Node::el("ul").attr("class", "points");
                    for (i, pt) in pts.iter().enumerate() {
                        let mut input = Node::el("input")
                            .attr("type", "checkbox")
                            .attr("data-quiz-point", format!("{}:{i}", q.id));
                        if mask & (1 << i) != 0 {
                            input = input.attr("checked", "");
                            points += 1;
                        }
                        list.push(
                            Node::el("li").child(
                                Node::el("label")
                                    .child(input)
                                    .text(format!(" {}", pt.get(lang))),
                            ),
                        );
                    }
                    sec.push(
                        Node::el("details")
                            .child(Node::el("summary").text(t.quiz_model_answer))
                            .child(Node::el("p").text(q.explanation.get(lang)))
                            .child(Node::el("p").attr("class", "muted").text(t.quiz_points))
                            .child(list),
                    );
                }
            }
            sec.push(
                Node::el("a")
                    .attr("class", "btn link")
                    .attr("href", format!("{}&lang={}", q.show, lang.code()))
                    .text(t.quiz_show_me),
            );
            body.push(sec);
        }
        let summary = format!(
            "{} {answered}/{choices} · {} {right} · {} {points}/{} · {} {ready}/{orals}",
            t.quiz_answered,
            t.quiz_correct,
            t.quiz_points_total,
            4 * (qs.len() - choices - orals),
            t.quiz_ready_total,
        );
        let mut head = vec![
            Node::el("h2").attr("id", "quiz-h").text(t.quiz_title),
            Node::el("p")
                .attr("class", "muted")
                .attr("role", "status")
                .text(summary),
        ];
        if !stored.get() {
            head.push(Node::el("p").attr("class", "muted").text(t.quiz_not_saved));
        }
        head.extend(body);
        head.push(
            Node::el("div")
                .attr("class", "buttons")
                .child(
                    Node::el("button")
                        .attr("type", "button")
                        .attr("class", "btn")
                        .attr("data-quiz-reset", "")
                        .text(t.quiz_reset),
                )
                .child(
                    Node::el("button")
                        .attr("type", "button")
                        .attr("class", "btn")
                        .attr("data-quiz-close", "")
                        .text(t.close),
                ),
        );
        head
    };
    view! {
        <dialog id="quiz-dialog" class="card embed-dialog quiz" aria-labelledby="quiz-h"
            on:change=on_change on:click=on_click>
            {drawn("quiz-body", draw)}
        </dialog>
    }
}
