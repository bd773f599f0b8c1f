//! Export and import, without the browser: the current state's tables as Markdown, the whole
//! run as a Mermaid sequence diagram, and the run as a JSON file that imports back to the same
//! state. Importing parses untrusted text: a small JSON reader that never panics, then checks
//! every field against the registry and replays the path; a file whose recorded steps differ
//! from what its path replays was changed, and is refused.

use crate::player::{parse_knob, parse_knob_number};
use crate::scenarios::{self, Registered};
use crate::sim::{decode_path, encode_path, Lang, Text, Trace};

/// The `format` field of a run file.
pub const FORMAT: &str = "effectively-once-run";
/// Version 2 records each step by its action's stable key; version 1 (by English step title)
/// still imports.
pub const VERSION: i64 = 2;
/// Files larger than this are refused before parsing.
pub const MAX_BYTES: usize = 256 * 1024;
const MAX_DEPTH: usize = 16;

/// What the Export dialog needs only on a click: the three text formats and the run file's
/// reader. The page's split build fetches them as a module of their own on first use
/// (`ui::export::load_kit`), so a page that never exports does not carry them; the JSON reader
/// stays, for `quiz.json` and `notes.json`.
pub struct Kit {
    pub markdown: fn(&Trace, usize, &str, Lang) -> String,
    pub mermaid: fn(&Trace, usize, Lang) -> String,
    pub run_json: fn(&Run, &Trace) -> String,
    pub parse_run: fn(&str) -> Result<Run, Text>,
}

pub static KIT: Kit = Kit {
    markdown,
    mermaid,
    run_json,
    parse_run,
};

/// A parsed JSON value. Numbers are whole (a run file has no other kind).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Int(i64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// Parses `text` as one JSON value. The error says where, in both languages.
pub fn parse_json(text: &str) -> Result<Json, Text> {
    let mut p = Reader {
        s: text.as_bytes(),
        i: 0,
    };
    let v = p.value(0)?;
    p.ws();
    if p.i < p.s.len() {
        return Err(p.err(
            "text after the end of the JSON value",
            "JSON 值结束后还有内容",
        ));
    }
    Ok(v)
}

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

impl Reader<'_> {
    fn err(&self, en: &str, zh: &str) -> Text {
        Text::new(
            format!("{en} (at byte {})", self.i),
            format!("{zh}（第 {} 字节处）", self.i),
        )
    }

    fn ws(&mut self) {
        while matches!(self.s.get(self.i), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, word: &[u8]) -> bool {
        if self.s[self.i..].starts_with(word) {
            self.i += word.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, Text> {
        if depth > MAX_DEPTH {
            return Err(self.err("nested too deeply", "嵌套太深"));
        }
        self.ws();
        match self.s.get(self.i) {
            None => Err(self.err("unexpected end of the file", "文件意外结束")),
            Some(b'{') => {
                self.i += 1;
                let mut fields = Vec::new();
                self.ws();
                if self.eat(b"}") {
                    return Ok(Json::Obj(fields));
                }
                loop {
                    self.ws();
                    if self.s.get(self.i) != Some(&b'"') {
                        return Err(
                            self.err("expected a field name in quotes", "应为带引号的字段名")
                        );
                    }
                    let key = self.string()?;
                    self.ws();
                    if !self.eat(b":") {
                        return Err(self.err("expected ':'", "应为 ':'"));
                    }
                    let v = self.value(depth + 1)?;
                    fields.push((key, v));
                    self.ws();
                    if self.eat(b",") {
                        continue;
                    }
                    if self.eat(b"}") {
                        return Ok(Json::Obj(fields));
                    }
                    return Err(self.err("expected ',' or '}'", "应为 ',' 或 '}'"));
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.eat(b"]") {
                    return Ok(Json::Arr(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    if self.eat(b",") {
                        continue;
                    }
                    if self.eat(b"]") {
                        return Ok(Json::Arr(items));
                    }
                    return Err(self.err("expected ',' or ']'", "应为 ',' 或 ']'"));
                }
            }
            Some(b'"') => self.string().map(Json::Str),
            Some(b't') if self.eat(b"true") => Ok(Json::Bool(true)),
            Some(b'f') if self.eat(b"false") => Ok(Json::Bool(false)),
            Some(b'n') if self.eat(b"null") => Ok(Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.err("unexpected character", "意外的字符")),
        }
    }

    fn number(&mut self) -> Result<Json, Text> {
        let start = self.i;
        if self.s.get(self.i) == Some(&b'-') {
            self.i += 1;
        }
        let digits = self.i;
        while matches!(self.s.get(self.i), Some(b'0'..=b'9')) {
            self.i += 1;
        }
        if self.i == digits {
            return Err(self.err("expected a digit", "应为数字"));
        }
        if matches!(self.s.get(self.i), Some(b'.' | b'e' | b'E')) {
            return Err(self.err("only whole numbers are expected", "这里只应有整数"));
        }
        std::str::from_utf8(&self.s[start..self.i])
            .ok()
            .and_then(|t| t.parse::<i64>().ok())
            .map(Json::Int)
            .ok_or_else(|| self.err("number out of range", "数字超出范围"))
    }

    fn hex4(&mut self) -> Result<u32, Text> {
        let h = self
            .s
            .get(self.i..self.i + 4)
            .and_then(|b| std::str::from_utf8(b).ok())
            .and_then(|t| u32::from_str_radix(t, 16).ok())
            .ok_or_else(|| self.err("bad \\u escape", "错误的 \\u 转义"))?;
        self.i += 4;
        Ok(h)
    }

    fn string(&mut self) -> Result<String, Text> {
        self.i += 1; // the opening quote
        let mut out = String::new();
        loop {
            let start = self.i;
            while let Some(&c) = self.s.get(self.i) {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.i += 1;
            }
            out.push_str(
                std::str::from_utf8(&self.s[start..self.i])
                    .map_err(|_| self.err("not UTF-8 text", "不是 UTF-8 文本"))?,
            );
            match self.s.get(self.i) {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let c = self.s.get(self.i).copied();
                    self.i += 1;
                    match c {
                        Some(b'"') => out.push('"'),
                        Some(b'\\') => out.push('\\'),
                        Some(b'/') => out.push('/'),
                        Some(b'b') => out.push('\u{8}'),
                        Some(b'f') => out.push('\u{c}'),
                        Some(b'n') => out.push('\n'),
                        Some(b'r') => out.push('\r'),
                        Some(b't') => out.push('\t'),
                        Some(b'u') => {
                            let mut code = self.hex4()?;
                            if (0xD800..0xDC00).contains(&code) && self.eat(b"\\u") {
                                let low = self.hex4()?;
                                if (0xDC00..0xE000).contains(&low) {
                                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                                }
                            }
                            out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                        }
                        _ => return Err(self.err("bad escape", "错误的转义")),
                    }
                }
                Some(_) => {
                    return Err(self.err("control character in a string", "字符串中有控制字符"))
                }
                None => return Err(self.err("unterminated string", "字符串没有结束")),
            }
        }
    }
}

pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A run that can be saved and opened again: everything the URL holds, plus the title of every
/// step (to read, and to detect a changed file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub scenario: usize,
    pub variant: usize,
    pub knobs: Vec<u32>,
    pub path: Vec<u8>,
    pub step: usize,
}

/// The run as a JSON file.
pub fn run_json(run: &Run, trace: &Trace) -> String {
    let meta = scenarios::meta(run.scenario);
    let variant = meta.variants.get(run.variant).map_or("", |v| v.slug);
    // A number knob is a number, a knob with options its word as a string, as links write it
    // (`"local": "10"`, not the index 2). Files saved with the index (a number) stay readable.
    let knobs: Vec<String> = meta
        .knobs
        .iter()
        .zip(&run.knobs)
        .map(|(k, &v)| {
            let value = if k.options.is_empty() {
                v.to_string()
            } else {
                quote(&k.word(v))
            };
            format!("{}: {value}", quote(k.key))
        })
        .collect();
    let steps: Vec<String> = step_words(trace, VERSION)
        .iter()
        .map(|k| format!("    {}", quote(k)))
        .collect();
    format!(
        "{{\n  \"format\": {},\n  \"version\": {VERSION},\n  \"scenario\": {},\n  \"variant\": {},\n  \"knobs\": {{{}}},\n  \"path\": {},\n  \"step\": {},\n  \"steps\": [\n{}\n  ]\n}}\n",
        quote(FORMAT),
        quote(meta.slug),
        quote(variant),
        knobs.join(", "),
        quote(&encode_path(&trace.path[..trace.given.min(trace.path.len())])),
        run.step,
        steps.join(",\n")
    )
}

/// What a run file of `version` records for each step of `trace`: the key of the action that
/// led to it (`start` for step 0) in version 2, its English title in version 1.
fn step_words(trace: &Trace, version: i64) -> Vec<String> {
    if version == 1 {
        return trace
            .steps
            .iter()
            .map(|s| s.info.title.en.clone())
            .collect();
    }
    std::iter::once("start".to_string())
        .chain(trace.keys())
        .collect()
}

fn refuse(en: impl Into<String>, zh: impl Into<String>) -> Text {
    Text::new(
        format!("The file was not opened: {}", en.into()),
        format!("文件未打开：{}", zh.into()),
    )
}

fn field_str<'j>(j: &'j Json, key: &str) -> Result<&'j str, Text> {
    match j.get(key) {
        Some(Json::Str(s)) => Ok(s),
        _ => Err(refuse(
            format!("the field \"{key}\" is missing or not text."),
            format!("字段“{key}”缺失或不是文本。"),
        )),
    }
}

/// The scenario a run file names, if it names one: the page loads it before `parse_run`.
pub fn run_scenario(text: &str) -> Option<usize> {
    if text.len() > MAX_BYTES {
        return None;
    }
    match parse_json(text).ok()?.get("scenario")? {
        Json::Str(slug) => scenarios::index_of(slug),
        _ => None,
    }
}

/// Reads a run file: the run it describes, or why it cannot be opened. Nothing is applied here;
/// the caller changes the page only on `Ok`.
pub fn parse_run(text: &str) -> Result<Run, Text> {
    if text.len() > MAX_BYTES {
        return Err(refuse(
            format!("it is larger than {} KiB.", MAX_BYTES / 1024),
            format!("它超过了 {} KiB。", MAX_BYTES / 1024),
        ));
    }
    let j = parse_json(text).map_err(|e| {
        refuse(
            format!("it is not valid JSON: {}.", e.en),
            format!("它不是有效的 JSON：{}。", e.zh),
        )
    })?;
    if j.get("format") != Some(&Json::Str(FORMAT.into())) {
        return Err(refuse(
            "it is not an Effectively Once run file (no \"format\": \"effectively-once-run\").",
            "它不是 Effectively Once 的运行文件（没有 \"format\": \"effectively-once-run\"）。",
        ));
    }
    let version = match j.get("version") {
        Some(&Json::Int(v @ (1 | VERSION))) => v,
        _ => {
            return Err(refuse(
                format!("only version 1 and {VERSION} files can be read."),
                format!("只能读取版本 1 和 {VERSION} 的文件。"),
            ))
        }
    };
    let slug = field_str(&j, "scenario")?;
    let scenario = scenarios::index_of(slug).ok_or_else(|| {
        refuse(
            format!("there is no scenario \"{slug}\"."),
            format!("没有名为“{slug}”的场景。"),
        )
    })?;
    let s: Registered = scenarios::get(scenario).ok_or_else(|| {
        refuse(
            format!("the code of \"{slug}\" could not be loaded (offline?); try again."),
            format!("“{slug}”的代码未能加载（离线？）；请重试。"),
        )
    })?;
    let meta = scenarios::meta(scenario);
    let vslug = field_str(&j, "variant")?;
    let variant = meta.variant_index(vslug).ok_or_else(|| {
        refuse(
            format!("the scenario has no variant \"{vslug}\"."),
            format!("这个场景没有名为“{vslug}”的方案。"),
        )
    })?;
    let mut knobs = meta.default_knobs();
    match j.get("knobs") {
        None => {}
        Some(Json::Obj(fields)) => {
            for (key, value) in fields {
                let Some(i) = meta.knobs.iter().position(|k| k.key == key) else {
                    return Err(refuse(
                        format!("the scenario has no knob \"{key}\"."),
                        format!("这个场景没有参数“{key}”。"),
                    ));
                };
                // A number is the value (for a knob with options, its index, as files saved
                // before words were written); a string is the word a link would carry.
                let k = &meta.knobs[i];
                let read = match value {
                    Json::Int(n) => parse_knob_number(k, &n.to_string()),
                    Json::Str(word) if !k.options.is_empty() => parse_knob(k, word),
                    _ => parse_knob_number(k, "?"),
                };
                knobs[i] = read.map_err(|e| refuse(e.en, e.zh))?;
            }
        }
        Some(_) => return Err(refuse("\"knobs\" is not an object.", "“knobs”不是对象。")),
    }
    let (path, error) = decode_path(field_str(&j, "path")?);
    if let Some(e) = error {
        return Err(refuse(e.reason.en, e.reason.zh));
    }
    let trace = s.trace_with(variant, &knobs, &path);
    if let Some(e) = trace.error {
        return Err(refuse(
            format!("its path is not a run of this variant: {}.", e.reason.en),
            format!("它的路径不是这个方案的一次运行：{}。", e.reason.zh),
        ));
    }
    let step = match j.get("step") {
        Some(Json::Int(n)) if (0..=trace.last() as i64).contains(n) => *n as usize,
        _ => {
            return Err(refuse(
                format!(
                    "\"step\" must be a whole number from 0 to {}.",
                    trace.last()
                ),
                format!("“step”必须是 0 到 {} 之间的整数。", trace.last()),
            ))
        }
    };
    // The recorded steps, if any, must be the ones the path replays.
    if let Some(recorded) = j.get("steps") {
        let Json::Arr(items) = recorded else {
            return Err(refuse("\"steps\" is not a list.", "“steps”不是列表。"));
        };
        let replayed_steps = step_words(&trace, version);
        for (i, item) in items.iter().enumerate() {
            let replayed = replayed_steps.get(i).map(String::as_str);
            let said = match item {
                Json::Str(x) => Some(x.as_str()),
                _ => None,
            };
            if said != replayed {
                return Err(refuse(
                    format!(
                        "it was changed: step {i} says \"{}\", but its path replays \"{}\".",
                        said.unwrap_or("?"),
                        replayed.unwrap_or("(no such step)")
                    ),
                    format!(
                        "它被改动过：第 {i} 步写的是“{}”，而它的路径重放出来是“{}”。",
                        said.unwrap_or("?"),
                        replayed.unwrap_or("（没有这一步）")
                    ),
                ));
            }
        }
        if items.len() != trace.steps.len() {
            return Err(refuse(
                format!(
                    "it was changed: it lists {} steps, its path replays {}.",
                    items.len(),
                    trace.steps.len()
                ),
                format!(
                    "它被改动过：文件列出 {} 步，路径重放出 {} 步。",
                    items.len(),
                    trace.steps.len()
                ),
            ));
        }
    }
    Ok(Run {
        scenario,
        variant,
        knobs,
        path,
        step,
    })
}

/// Markdown cell text: pipes and line breaks would end the cell.
fn cell(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace('\n', " ")
}

/// The state's tables at `step` (and its live numbers) as Markdown, headed by the step.
pub fn markdown(trace: &Trace, step: usize, title: &str, lang: Lang) -> String {
    let Some(s) = trace.steps.get(step) else {
        return String::new();
    };
    let mut out = format!(
        "### {} — {} {step}: {}\n\n",
        cell(title),
        if lang == Lang::Zh { "第" } else { "step" },
        cell(s.info.title.get(lang))
    );
    let view = trace.view(step);
    if !view.metrics.is_empty() {
        let nums: Vec<String> = view
            .metrics
            .iter()
            .map(|m| {
                let v = m.value.at(step).map_or("–".into(), |n| n.to_string());
                format!("{}: **{v}**", cell(m.name.get(lang)))
            })
            .collect();
        out.push_str(&nums.join(" · "));
        out.push_str("\n\n");
    }
    for t in &view.tables {
        out.push_str(&format!("**{}**\n\n", cell(t.title.get(lang))));
        if t.lost {
            out.push_str(if lang == Lang::Zh {
                "（随崩溃丢失）\n\n"
            } else {
                "(lost in the crash)\n\n"
            });
            continue;
        }
        let cols = t.columns.len().max(1);
        let head: Vec<String> = t.columns.iter().map(|c| cell(c.get(lang))).collect();
        out.push_str(&format!("| {} |\n", head.join(" | ")));
        out.push_str(&format!("|{}\n", "---|".repeat(cols)));
        if t.rows.is_empty() {
            let mut empty = vec![cell(t.empty.get(lang))];
            empty.resize(cols, String::new());
            out.push_str(&format!("| {} |\n", empty.join(" | ")));
        }
        for r in &t.rows {
            let cells: Vec<String> = r.cells.iter().map(|c| cell(c.get(lang))).collect();
            out.push_str(&format!("| {} |\n", cells.join(" | ")));
        }
        out.push('\n');
    }
    for v in &s.verdicts {
        let status = match v.status {
            crate::sim::Status::Holds => ("✓ holds", "✓ 成立"),
            crate::sim::Status::Pending => ("⏳ pending", "⏳ 待定"),
            crate::sim::Status::Violated => ("✗ violated", "✗ 被违反"),
        };
        let status = if lang == Lang::Zh { status.1 } else { status.0 };
        out.push_str(&format!(
            "- {} — {status}: {}\n",
            cell(v.name.get(lang)),
            cell(v.why.get(lang))
        ));
    }
    out
}

/// Mermaid text: labels may not contain the characters that end a message or a note.
fn mm(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            ';' | '#' | '\n' | '\r' => ' ',
            ':' => '：',
            c => c,
        })
        .collect::<String>()
        .trim()
        .to_string()
}

/// The run up to `upto` as a Mermaid sequence diagram: one participant per lane, each step's
/// messages as arrows (lost ones crossed), its marks as notes, every step numbered.
pub fn mermaid(trace: &Trace, upto: usize, lang: Lang) -> String {
    let mut out = String::from("sequenceDiagram\n");
    let first = trace.view(0);
    let lanes = &first.lanes;
    for (i, l) in lanes.iter().enumerate() {
        out.push_str(&format!(
            "    participant L{i} as {}\n",
            mm(l.name.get(lang))
        ));
    }
    for (t, s) in trace.steps.iter().enumerate().skip(1).take(upto) {
        let lane = s.info.lane.min(lanes.len().saturating_sub(1));
        let fault = if s.fault { "⚡ " } else { "" };
        out.push_str(&format!(
            "    Note over L{lane}: {t}. {fault}{}\n",
            mm(s.info.title.get(lang))
        ));
        for a in &s.info.arrows {
            let (from, to) = (a.from.min(lanes.len() - 1), a.to.min(lanes.len() - 1));
            if from == to {
                continue;
            }
            let arrow = match a.kind {
                crate::sim::ArrowKind::Lost => "-x",
                crate::sim::ArrowKind::Duplicate => "-->>",
                crate::sim::ArrowKind::Message => "->>",
                crate::sim::ArrowKind::Ghost => "--x",
            };
            let label = match a.label.get(lang) {
                "" => "·".into(),
                text => mm(text),
            };
            out.push_str(&format!("    L{from}{arrow}L{to}: {label}\n"));
        }
        for m in &s.info.marks {
            let l = m.lane.min(lanes.len() - 1);
            out.push_str(&format!(
                "    Note right of L{l}: {} {}\n",
                m.kind.glyph(),
                mm(m.label.get(lang))
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_reads_what_it_should_and_refuses_the_rest() {
        let j =
            parse_json(r#" {"a": [1, -2, "x\"\u00e9\ud83d\ude00"], "b": {"c": null, "d": true}} "#);
        let Ok(j) = j else { panic!("{j:?}") };
        assert_eq!(
            j.get("a"),
            Some(&Json::Arr(vec![
                Json::Int(1),
                Json::Int(-2),
                Json::Str("x\"é😀".into())
            ]))
        );
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\" 1}",
            "1.5",
            "\"\\q\"",
            "tru",
            "{} x",
            "\"a\nb\"",
        ] {
            assert!(parse_json(bad).is_err(), "{bad:?}");
        }
        let deep = "[".repeat(100) + &"]".repeat(100);
        assert!(parse_json(&deep).is_err(), "depth is bounded");
    }

    #[test]
    fn a_run_file_round_trips_and_a_changed_one_is_refused() {
        let s = scenarios::all()[0];
        let trace = s.trace(0, &[0, 0, 1]);
        let run = Run {
            scenario: 0,
            variant: 0,
            knobs: Vec::new(),
            path: trace.path[..trace.given].to_vec(),
            step: 3,
        };
        let text = run_json(&run, &trace);
        assert_eq!(parse_run(&text), Ok(run.clone()));
        // The page loads the file's scenario before reading the rest.
        assert_eq!(run_scenario(&text), Some(0));
        let other = text.replacen("\"dual-write\"", "\"refund-cap\"", 1);
        assert_eq!(run_scenario(&other), scenarios::index_of("refund-cap"));
        for bad in ["", "{", "{\"scenario\": 3}", "{\"scenario\": \"nope\"}"] {
            assert_eq!(run_scenario(bad), None, "{bad:?}");
        }
        // A step's action edited: refused, naming the step.
        assert!(text.contains("\"svc-crash\""), "steps by key: {text}");
        let edited = text.replacen("\"svc-crash\"", "\"svc-reply\"", 1);
        let err = parse_run(&edited).expect_err("changed");
        assert!(err.en.contains("it was changed: step 3"), "{}", err.en);
        // A version 1 file records English step titles: it still opens, and is still checked.
        let start = text.find("\"steps\": [").expect("steps");
        let titles: Vec<String> = trace
            .steps
            .iter()
            .map(|s| format!("    {}", quote(&s.info.title.en)))
            .collect();
        let v1 = format!(
            "{}\"steps\": [\n{}\n  ]\n}}\n",
            &text[..start],
            titles.join(",\n")
        )
        .replace("\"version\": 2", "\"version\": 1");
        assert_eq!(parse_run(&v1), Ok(run.clone()));
        let edited = v1.replacen("⚡ crash order service", "nothing happened", 1);
        assert_ne!(edited, v1);
        let err = parse_run(&edited).expect_err("changed");
        assert!(err.en.contains("it was changed: step 3"), "{}", err.en);
        let v3 = text.replace("\"version\": 2", "\"version\": 3");
        assert!(parse_run(&v3).expect_err("v3").en.contains("version"));
        // A path that is not a run of the variant.
        let bad = text.replace("\"path\": \"001\"", "\"path\": \"00z\"");
        assert!(parse_run(&bad).expect_err("bad path").en.contains("path"));
        assert!(parse_run("{}")
            .expect_err("no format")
            .en
            .contains("not an Effectively Once run file"));
    }

    #[test]
    fn a_run_file_names_a_knob_with_options_by_its_word() {
        let scenario = scenarios::index_of("semaphore-scope").expect("registered");
        let s = scenarios::all()[scenario];
        // Five instances, the fourth choice of semaphore (20 permits; a link says `local=20`).
        let knobs = vec![5, 3];
        let trace = s.trace_with(0, &knobs, &[]);
        let run = Run {
            scenario,
            variant: 0,
            knobs,
            path: Vec::new(),
            step: 1,
        };
        let text = run_json(&run, &trace);
        assert!(
            text.contains("\"knobs\": {\"instances\": 5, \"local\": \"20\"}"),
            "{text}"
        );
        assert_eq!(parse_run(&text), Ok(run.clone()));
        // A file saved before words were written holds the index; it opens as it did.
        let old = text.replace("\"local\": \"20\"", "\"local\": 3");
        assert_eq!(parse_run(&old), Ok(run.clone()));
        // Case is ignored, as in links.
        let retry = scenarios::index_of("retry-layers").expect("registered");
        let r = scenarios::all()[retry];
        let defaults = r.meta().default_knobs();
        let rt = r.trace_with(0, &defaults, &[]);
        let rrun = Run {
            scenario: retry,
            variant: 0,
            knobs: defaults,
            path: Vec::new(),
            step: 0,
        };
        let rtext = run_json(&rrun, &rt).replace("\"slow-success\"", "\"SLOW-SUCCESS\"");
        assert!(rtext.contains("SLOW-SUCCESS"), "{rtext}");
        assert_eq!(parse_run(&rtext), Ok(rrun));
        for (bad, why) in [
            ("\"local\": \"7\"", "'local=7' is not one of 2, 5, 10, 20"),
            (
                "\"local\": 9",
                "'local=9' is not a whole number from 0 to 3",
            ),
            (
                "\"local\": true",
                "'local=?' is not a whole number from 0 to 3",
            ),
            (
                "\"instances\": \"5\"",
                "'instances=?' is not a whole number",
            ),
        ] {
            let key = if bad.contains("instances") {
                "\"instances\": 5"
            } else {
                "\"local\": \"20\""
            };
            let err = parse_run(&text.replace(key, bad)).expect_err(bad);
            assert!(err.en.contains(why), "{bad}: {}", err.en);
        }
    }

    #[test]
    fn markdown_and_mermaid_carry_the_run() {
        let trace = scenarios::all()[0].trace(0, &[0, 0, 1]);
        let md = markdown(&trace, 3, "Dual write", Lang::En);
        assert!(md.contains("| order_id |") || md.contains("|---|"), "{md}");
        assert!(md.contains("(lost in the crash)"), "{md}");
        let mm = mermaid(&trace, trace.last(), Lang::En);
        assert!(
            mm.starts_with("sequenceDiagram\n    participant L0 as "),
            "{mm}"
        );
        assert!(mm.contains("⚡ "), "the crash is marked: {mm}");
    }
}
