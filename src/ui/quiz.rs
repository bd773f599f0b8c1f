//! The quiz dialog: the seeds' multiple-choice and short-answer questions, answered in place,
//! each with a "show me" link to the state that demonstrates it. Progress is kept in
//! localStorage when the browser allows it; blocked, full or garbled storage only means the
//! progress is not kept (and the dialog says so), never a broken page.

use super::app::use_ctx;
use super::browser;
use super::cmd::Cmd;
use super::dom::{drawn, Node};
use super::ondemand::{placeholder, Fetched, OnDemand};
use super::parts::{PartId, Parts};
use crate::content::{read_quiz, QUIZ_FILE, QUIZ_NAME};
use crate::quiz::{encode_progress, parse_progress, Kind, Question};
use crate::sim::Lang;
use leptos::prelude::*;

const KEY: &str = "effectively-once.quiz.v1";

/// Whether the quiz was opened on this page, and its questions. Its body is about half the
/// page's elements, so it is drawn on the first opening rather than with the page; its text is
/// fetched then too (`quiz.json`, see `crate::content`).
#[derive(Clone, Copy)]
pub struct QuizShown {
    shown: RwSignal<bool>,
    questions: OnDemand<Vec<Question>>,
    /// The quiz's code arrives as a part of its own.
    parts: Option<Parts>,
}

impl QuizShown {
    pub fn provide() {
        provide_context(QuizShown {
            shown: RwSignal::new(false),
            questions: OnDemand::new(QUIZ_FILE, QUIZ_NAME),
            parts: Parts::get(),
        });
    }

    /// The opener's handle (from a component's setup; `None` outside the app).
    pub fn get() -> Option<QuizShown> {
        use_context::<QuizShown>()
    }

    /// Draws the quiz if it is not drawn yet (fetching its code and its questions), and opens
    /// it once it is.
    pub fn open(self) {
        self.questions.fetch();
        let open = move || {
            if self.shown.get_untracked() {
                browser::show_modal("quiz-dialog");
            } else {
                self.shown.set(true);
                request_animation_frame(|| browser::show_modal("quiz-dialog"));
            }
        };
        match self.parts {
            Some(parts) => parts.open(PartId::Quiz, open),
            None => open(),
        }
    }
}

/// The saved progress as stored (read once the questions are there), and whether storage works.
fn load() -> (String, bool) {
    match browser::storage_get(KEY) {
        Ok(raw) => (raw.unwrap_or_default(), true),
        Err(()) => (String::new(), false),
    }
}

#[component]
pub fn QuizDialog() -> impl IntoView {
    let ctx = use_ctx();
    let quiz = QuizShown::get();
    if let Some(quiz) = quiz {
        quiz.questions.want(read_quiz);
    }
    let (saved, storable) = load();
    // The progress, once read against the questions (`None` until the first answer or reset:
    // until then it is what storage holds).
    let progress: RwSignal<Option<Vec<(String, u8)>>> = RwSignal::new(None);
    let stored = RwSignal::new(storable);
    let saved = StoredValue::new(saved);
    // The progress: what was answered on this page, else what storage holds, read against the
    // questions (tracked for drawing, untracked for an answer).
    let progress_of = move |qs: &[Question], tracked: bool| {
        let here = if tracked {
            progress.get()
        } else {
            progress.get_untracked()
        };
        here.unwrap_or_else(|| saved.with_value(|raw| parse_progress(raw, qs)))
    };
    // The progress now, if the questions are there to read it against.
    let now = move || {
        quiz?.questions.state.with_untracked(|s| match s {
            Fetched::Ready(qs) => Some(progress_of(qs, false)),
            _ => None,
        })
    };
    let set = move |id: String, v: u8| {
        let Some(mut p) = now() else { return };
        match p.iter_mut().find(|(k, _)| *k == id) {
            Some(e) => e.1 = v,
            None => p.push((id, v)),
        }
        stored.set(browser::storage_set(KEY, &encode_progress(&p)));
        progress.set(Some(p));
    };
    let on_change = move |ev: leptos::ev::Event| {
        let Some(cmd) = Cmd::of(&ev) else { return };
        match &cmd {
            Cmd::QuizAnswer { id, choice } => set(id.clone(), *choice),
            Cmd::QuizPoint { id, bit } => {
                let mask = now()
                    .and_then(|p| p.iter().find(|(k, _)| k == id).map(|e| e.1))
                    .unwrap_or(0);
                set(id.clone(), mask ^ (1 << bit));
            }
            _ => return,
        }
        cmd.refocus();
    };
    let on_click = move |ev: leptos::ev::MouseEvent| match Cmd::of(&ev) {
        Some(Cmd::QuizClose) => browser::close_dialog("quiz-dialog"),
        Some(Cmd::QuizReset) => {
            progress.set(Some(Vec::new()));
            stored.set(browser::storage_set(KEY, ""));
        }
        Some(Cmd::QuizRetry) => {
            if let Some(quiz) = quiz {
                quiz.questions.reload();
            }
        }
        _ => {}
    };
    let draw = move || {
        let Some(quiz) = quiz.filter(|q| q.shown.get()) else {
            return Vec::new();
        };
        let (lang, t) = (ctx.lang.get(), ctx.t());
        let w = super::i18n::quiz_words(lang);
        quiz.questions.state.with(|state| {
            let Fetched::Ready(qs) = state else {
                let mut head = vec![Node::el("h2").attr("id", "quiz-h").text(w.title)];
                head.extend(placeholder(
                    state.failure(),
                    lang,
                    t,
                    Cmd::QuizRetry,
                    Some(close_button(t)),
                ));
                return head;
            };
            draw_quiz(qs, &progress_of(qs, true), stored.get(), lang, t)
        })
    };
    view! {
        <dialog id="quiz-dialog" class="card embed-dialog quiz" aria-labelledby="quiz-h"
            on:change=on_change on:click=on_click>
            {drawn("quiz-body", draw)}
        </dialog>
    }
}

/// The quiz itself: every question with its answer state, and the totals.
fn draw_quiz(
    qs: &[Question],
    p: &[(String, u8)],
    stored: bool,
    lang: crate::sim::Lang,
    t: &super::i18n::Ui,
) -> Vec<Node> {
    let w = super::i18n::quiz_words(lang);
    let get = |id: &str| p.iter().find(|(k, _)| k == id).map(|e| e.1);
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
                let chosen = get(&q.id);
                let mut set = Node::el("fieldset").child(
                    Node::el("legend")
                        .attr("class", "sr-only")
                        .text(q.prompt.get(lang)),
                );
                for (i, o) in options.iter().enumerate() {
                    let mut input = Node::el("input")
                        .attr("type", "radio")
                        .attr("name", q.id.as_str())
                        .cmd(Cmd::QuizAnswer {
                            id: q.id.clone(),
                            choice: i as u8,
                        });
                    if chosen == Some(i as u8) {
                        input = input.attr("checked", "");
                    }
                    // Once answered, the right option is marked, in words as well as colour.
                    let (class, mark) = match chosen {
                        Some(_) if i as u8 == *answer => ("opt right", " ✓"),
                        Some(c) if c == i as u8 => ("opt wrong", " ✗"),
                        _ => ("opt", ""),
                    };
                    set.push(
                        Node::el("label")
                            .attr("class", class)
                            .child(input)
                            .text(format!(" {}. {}{mark}", letter(i as u8), o.get(lang))),
                    );
                }
                sec.push(set);
                if let Some(c) = chosen {
                    answered += 1;
                    let ok = c == *answer;
                    right += ok as u32;
                    let verdict = if ok {
                        w.right.to_string()
                    } else {
                        let end = if lang == Lang::Zh { "。" } else { "." };
                        format!("{} {}{end}", w.wrong, letter(*answer))
                    };
                    sec.push(
                        Node::el("p")
                            .attr("class", if ok { "q-result good" } else { "q-result bad" })
                            .child(Node::el("strong").text(verdict))
                            .text(format!(" {}", reason(q.explanation.get(lang), *answer))),
                    );
                    sec.push(show_me(q, lang));
                }
            }
            Kind::Oral { follow_up, avoid } => {
                orals += 1;
                let mut input = Node::el("input")
                    .attr("type", "checkbox")
                    .cmd(Cmd::QuizPoint {
                        id: q.id.clone(),
                        bit: 0,
                    });
                if get(&q.id).unwrap_or(0) & 1 != 0 {
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
                        .child(Node::el("summary").text(w.model_answer))
                        .child(part(t.notes_say, q.explanation.get(lang)))
                        .child(part(t.notes_follow, follow_up.get(lang)))
                        .child(part(t.notes_avoid, avoid.get(lang)))
                        .child(show_me(q, lang)),
                );
                sec.push(
                    Node::el("label")
                        .attr("class", "opt")
                        .child(input)
                        .text(format!(" {}", w.ready)),
                );
            }
            Kind::Short { points: pts } => {
                let mask = get(&q.id).unwrap_or(0);
                let mut list = Node::el("ul").attr("class", "points");
                for (i, pt) in pts.iter().enumerate() {
                    let mut input =
                        Node::el("input")
                            .attr("type", "checkbox")
                            .cmd(Cmd::QuizPoint {
                                id: q.id.clone(),
                                bit: i as u8,
                            });
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
                        .child(Node::el("summary").text(w.model_answer))
                        .child(Node::el("p").text(q.explanation.get(lang)))
                        .child(Node::el("p").attr("class", "muted").text(w.points))
                        .child(list)
                        .child(show_me(q, lang)),
                );
            }
        }
        body.push(sec);
    }
    let summary = format!(
        "{} {answered}/{choices} · {} {right} · {} {points}/{} · {} {ready}/{orals}",
        w.answered,
        w.correct,
        w.points_total,
        4 * (qs.len() - choices - orals),
        w.ready_total,
    );
    let mut head = vec![
        Node::el("h2").attr("id", "quiz-h").text(w.title),
        Node::el("p")
            .attr("class", "muted")
            .attr("role", "status")
            .text(summary),
    ];
    if !stored {
        head.push(Node::el("p").attr("class", "muted").text(w.not_saved));
    }
    head.extend(body);
    head.push(
        Node::el("div")
            .attr("class", "buttons")
            .child(
                Node::el("button")
                    .attr("type", "button")
                    .attr("class", "btn")
                    .cmd(Cmd::QuizReset)
                    .text(w.reset),
            )
            .child(close_button(t)),
    );
    head
}

/// "Show me": the state that demonstrates the answer — offered once the question is answered
/// (or its model answer opened), never before: it would give the answer away.
fn show_me(q: &Question, lang: Lang) -> Node {
    let w = super::i18n::quiz_words(lang);
    Node::el("a")
        .attr("class", "btn link")
        .attr("href", format!("{}&lang={}", q.show, lang.code()))
        .text(w.show_me)
}

fn letter(i: u8) -> char {
    (b'A' + i) as char
}

/// An explanation without the letter it starts with ("B. …", "正确答案：B。…"): the verdict
/// before it already names the right option.
pub fn reason(explanation: &str, answer: u8) -> &str {
    let l = letter(answer);
    [format!("{l}. "), format!("正确答案：{l}。")]
        .iter()
        .find_map(|p| explanation.strip_prefix(p.as_str()))
        .unwrap_or(explanation)
}

fn close_button(t: &super::i18n::Ui) -> Node {
    Node::el("button")
        .attr("type", "button")
        .attr("class", "btn")
        .cmd(Cmd::QuizClose)
        .text(t.close)
}
