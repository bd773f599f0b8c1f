//! Text the page loads on demand rather than carrying in its wasm: the quiz (`quiz.json`) and
//! the speaker notes (`notes.json`), about a tenth of the first load in two languages.
//!
//! The text is still written in Rust (`quiz::questions`, each scenario's `notes()`), where it
//! is type-checked and tested; `quiz_json` and `notes_json` render it, and a test holds
//! `public/quiz.json` and `public/notes.json` equal to what they render
//! (`UPDATE_CONTENT=1 cargo test --test it content::` rewrites them). The page only reads:
//! `read_quiz` and `read_notes` parse the fetched file without trusting it (a stale cache or a
//! broken proxy can serve anything) and say why not, in both languages.

use crate::export::{parse_json, quote, Json};
use crate::quiz::{Kind, Question};
use crate::scenarios;
use crate::sim::{Notes, Text};

pub const QUIZ_FORMAT: &str = "effectively-once-quiz";
pub const NOTES_FORMAT: &str = "effectively-once-notes";
/// Bumped when the files' shape changes, so that a page never reads a file of another shape.
pub const VERSION: i64 = 1;
/// The files' paths, relative to the page.
pub const QUIZ_FILE: &str = "quiz.json";
pub const NOTES_FILE: &str = "notes.json";

fn text(t: &Text) -> String {
    format!("{{\"en\": {}, \"zh\": {}}}", quote(&t.en), quote(&t.zh))
}

fn texts(ts: &[Text]) -> String {
    let items: Vec<String> = ts.iter().map(|t| format!("        {}", text(t))).collect();
    format!("[\n{}\n      ]", items.join(",\n"))
}

/// `quiz.json`: every question of `quiz::questions`, one field per line.
pub fn quiz_json(questions: &[Question]) -> String {
    let items: Vec<String> = questions
        .iter()
        .map(|q| {
            let mut fields = vec![
                format!("\"id\": {}", quote(&q.id)),
                format!("\"prompt\": {}", text(&q.prompt)),
            ];
            match &q.kind {
                Kind::Choice { options, answer } => {
                    fields.push("\"kind\": \"choice\"".into());
                    fields.push(format!("\"options\": {}", texts(options)));
                    fields.push(format!("\"answer\": {answer}"));
                }
                Kind::Short { points } => {
                    fields.push("\"kind\": \"short\"".into());
                    fields.push(format!("\"points\": {}", texts(points)));
                }
                Kind::Oral { follow_up, avoid } => {
                    fields.push("\"kind\": \"oral\"".into());
                    fields.push(format!("\"follow_up\": {}", text(follow_up)));
                    fields.push(format!("\"avoid\": {}", text(avoid)));
                }
            }
            fields.push(format!("\"explanation\": {}", text(&q.explanation)));
            fields.push(format!("\"show\": {}", quote(&q.show)));
            format!("    {{\n      {}\n    }}", fields.join(",\n      "))
        })
        .collect();
    format!(
        "{{\n  \"format\": {},\n  \"version\": {VERSION},\n  \"questions\": [\n{}\n  ]\n}}\n",
        quote(QUIZ_FORMAT),
        items.join(",\n")
    )
}

/// `notes.json`: every scenario's speaker notes, by slug, in the registry's order.
pub fn notes_json() -> String {
    let items: Vec<String> = scenarios::SLUGS
        .iter()
        .filter_map(|slug| {
            let n = scenarios::notes(slug)?;
            Some(format!(
                "    {}: {{\n      \"say\": {},\n      \"follow_up\": {},\n      \"avoid\": {}\n    }}",
                quote(slug),
                text(&n.say),
                text(&n.follow_up),
                text(&n.avoid)
            ))
        })
        .collect();
    format!(
        "{{\n  \"format\": {},\n  \"version\": {VERSION},\n  \"notes\": {{\n{}\n  }}\n}}\n",
        quote(NOTES_FORMAT),
        items.join(",\n")
    )
}

/// What each file holds, in both languages, for the messages about it.
pub const QUIZ_NAME: (&str, &str) = ("The quiz", "测验");
pub const NOTES_NAME: (&str, &str) = ("The speaker notes", "演讲备注");

fn bad((en, zh): (&str, &str), why_en: &str, why_zh: &str) -> Text {
    Text::new(
        format!("{en} could not be read: {why_en}"),
        format!("{zh}无法读取：{why_zh}"),
    )
}

fn read_text(j: Option<&Json>) -> Option<Text> {
    match (j?.get("en")?, j?.get("zh")?) {
        (Json::Str(en), Json::Str(zh)) => Some(Text::new(en.as_str(), zh.as_str())),
        _ => None,
    }
}

fn read_four(j: Option<&Json>) -> Option<[Text; 4]> {
    let Some(Json::Arr(items)) = j else {
        return None;
    };
    let v: Vec<Text> = items
        .iter()
        .map(|i| read_text(Some(i)))
        .collect::<Option<_>>()?;
    v.try_into().ok()
}

fn read_str(j: &Json, key: &str) -> Option<String> {
    match j.get(key)? {
        Json::Str(s) => Some(s.clone()),
        _ => None,
    }
}

/// Checks the envelope (`format`, `version`) of a fetched file.
fn envelope(text: &str, what: (&str, &str), format: &str) -> Result<Json, Text> {
    let j = parse_json(text).map_err(|e| bad(what, &e.en, &e.zh))?;
    if j.get("format") != Some(&Json::Str(format.to_string())) {
        return Err(bad(
            what,
            "the file is not what the page asked for.",
            "文件不是页面请求的内容。",
        ));
    }
    if j.get("version") != Some(&Json::Int(VERSION)) {
        return Err(bad(
            what,
            "the file is from another version of the site; reload the page.",
            "文件来自另一个版本的网站；请刷新页面。",
        ));
    }
    Ok(j)
}

/// Reads `quiz.json`: the questions, or why not.
pub fn read_quiz(text: &str) -> Result<Vec<Question>, Text> {
    let j = envelope(text, QUIZ_NAME, QUIZ_FORMAT)?;
    let Some(Json::Arr(items)) = j.get("questions") else {
        return Err(bad(QUIZ_NAME, "it has no questions.", "没有题目。"));
    };
    items
        .iter()
        .enumerate()
        .map(|(n, q)| {
            read_question(q).ok_or_else(|| {
                bad(
                    QUIZ_NAME,
                    &format!("question {} is malformed.", n + 1),
                    &format!("第 {} 题格式有误。", n + 1),
                )
            })
        })
        .collect()
}

fn read_question(q: &Json) -> Option<Question> {
    let kind = match read_str(q, "kind")?.as_str() {
        "choice" => {
            let answer = match q.get("answer")? {
                Json::Int(a @ 0..=3) => *a as u8,
                _ => return None,
            };
            Kind::Choice {
                options: read_four(q.get("options"))?,
                answer,
            }
        }
        "short" => Kind::Short {
            points: read_four(q.get("points"))?,
        },
        "oral" => Kind::Oral {
            follow_up: read_text(q.get("follow_up"))?,
            avoid: read_text(q.get("avoid"))?,
        },
        _ => return None,
    };
    let id = read_str(q, "id")?;
    // Ids name radio groups and storage keys: short and plain.
    if id.is_empty() || id.len() > 8 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    // A "show me" link stays on this site.
    let show = read_str(q, "show")?;
    if !show.starts_with("?s=") {
        return None;
    }
    Some(Question {
        id,
        prompt: read_text(q.get("prompt"))?,
        kind,
        explanation: read_text(q.get("explanation"))?,
        show,
    })
}

/// Reads `notes.json`: every scenario's notes by slug, or why not (an entry that is malformed
/// spoils the file, as a damaged file should not be half-trusted).
pub fn read_all_notes(text: &str) -> Result<Vec<(String, Notes)>, Text> {
    let j = envelope(text, NOTES_NAME, NOTES_FORMAT)?;
    let Some(Json::Obj(entries)) = j.get("notes") else {
        return Err(bad(NOTES_NAME, "it has no notes.", "没有备注。"));
    };
    entries
        .iter()
        .map(|(slug, n)| {
            let notes = || {
                Some(Notes {
                    say: read_text(n.get("say"))?,
                    follow_up: read_text(n.get("follow_up"))?,
                    avoid: read_text(n.get("avoid"))?,
                })
            };
            notes().map(|n| (slug.clone(), n)).ok_or_else(|| {
                bad(
                    NOTES_NAME,
                    &format!("those of {slug} are malformed."),
                    &format!("{slug} 的备注格式有误。"),
                )
            })
        })
        .collect()
}

/// The notes of the scenario with this slug among those read, or why there are none.
pub fn notes_for<'a>(all: &'a [(String, Notes)], slug: &str) -> Result<&'a Notes, Text> {
    all.iter()
        .find(|(s, _)| s == slug)
        .map(|(_, n)| n)
        .ok_or_else(|| {
            bad(
                NOTES_NAME,
                &format!("there are none for {slug}."),
                &format!("没有 {slug} 的备注。"),
            )
        })
}

/// Reads `notes.json` for one scenario: its notes, or why not.
pub fn read_notes(text: &str, slug: &str) -> Result<Notes, Text> {
    notes_for(&read_all_notes(text)?, slug).cloned()
}
