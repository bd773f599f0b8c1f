//! The pure playback reducer and the URL codec. No browser types: everything here is
//! unit-tested natively, and the UI only dispatches events and renders the result.

use crate::scenarios;
use crate::sim::{decode_path, Knob, Lang, ScenarioMeta, Text, Trace, MAX_STEPS};

/// Playback speeds offered by the speed control.
pub const SPEEDS: [f64; 6] = [0.25, 0.5, 1.0, 1.5, 2.0, 4.0];
/// The speed control's labels, one per entry of [`SPEEDS`].
pub const SPEED_LABELS: [&str; 6] = ["0.25×", "0.5×", "1×", "1.5×", "2×", "4×"];
/// The index of 1× in [`SPEEDS`].
pub const NORMAL_SPEED: usize = 2;
/// How long one step takes at 1×, in milliseconds: motion, then a short hold.
pub const STEP_MS: f64 = 900.0;
/// The share of a step's time spent in motion; the rest holds the new state still.
pub const MOTION_SHARE: f64 = 0.65;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cursor {
    pub step: usize,
    /// The last step of the trace.
    pub last: usize,
    pub playing: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// Where playing stops before the end ("Watch it fail" stops at the violation).
    pub stop: Option<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerEvent {
    TogglePlay,
    Pause,
    StepForward,
    StepBack,
    Start,
    End,
    Seek(usize),
    /// The playback timer fired: advance one step, stopping at the end.
    Tick,
    SetSpeed(usize),
    /// Play from the start and stop at `step` ("Watch it fail": at the violation).
    PlayTo(usize),
    /// The trace changed (a fork or a variant switch): keep the step if it still exists.
    NewTrace {
        last: usize,
        step: usize,
    },
}

impl Cursor {
    pub fn new(last: usize, step: usize) -> Cursor {
        Cursor {
            step: step.min(last),
            last,
            playing: false,
            speed: NORMAL_SPEED,
            stop: None,
        }
    }

    /// Milliseconds one step takes at the current speed.
    pub fn step_ms(&self) -> f64 {
        STEP_MS / SPEEDS[self.speed.min(SPEEDS.len() - 1)]
    }

    pub fn at_end(&self) -> bool {
        self.step >= self.last
    }

    /// Paused at `step`.
    fn paused_at(self, step: usize) -> Cursor {
        Cursor {
            step,
            playing: false,
            ..self
        }
    }
}

pub fn reduce(c: Cursor, event: PlayerEvent) -> Cursor {
    use PlayerEvent::*;
    // A stop point lasts while playing towards it; anything else the learner does drops it.
    let c = match event {
        Tick | SetSpeed(_) | NewTrace { .. } => c,
        _ => Cursor { stop: None, ..c },
    };
    match event {
        // Play at the end starts over, as a video player does.
        TogglePlay if !c.playing && c.at_end() => Cursor {
            step: 0,
            playing: c.last > 0,
            ..c
        },
        TogglePlay => Cursor {
            playing: !c.playing,
            ..c
        },
        Pause => Cursor {
            playing: false,
            ..c
        },
        StepForward => c.paused_at((c.step + 1).min(c.last)),
        StepBack => c.paused_at(c.step.saturating_sub(1)),
        Start => c.paused_at(0),
        End => c.paused_at(c.last),
        Seek(step) => Cursor {
            step: step.min(c.last),
            ..c
        },
        PlayTo(stop) => Cursor {
            step: 0,
            playing: stop.min(c.last) > 0,
            stop: Some(stop.min(c.last)),
            ..c
        },
        Tick if c.playing => {
            let step = (c.step + 1).min(c.last);
            let end = c.stop.unwrap_or(c.last).min(c.last);
            Cursor {
                step,
                playing: step < end,
                stop: c.stop.filter(|_| step < end),
                ..c
            }
        }
        Tick => c,
        SetSpeed(speed) => Cursor {
            speed: speed.min(SPEEDS.len() - 1),
            ..c
        },
        NewTrace { last, step } => Cursor {
            last,
            step: step.min(last),
            playing: c.playing && step < last,
            ..c
        },
    }
}

/// Whether the link opens the home page: `home=1`, or a bare address.
pub fn is_home(search: &str) -> bool {
    parse_query(search)
        .other
        .iter()
        .any(|(k, v)| k == "home" && v == "1")
        || is_bare(search)
}

/// What the home page says about its link: a language or theme it cannot use (the only
/// parameters it reads; the player's, which it does not show, are not checked).
pub fn home_notices(search: &str) -> Vec<Text> {
    let read: Vec<&str> = (search.trim_start_matches('?').split('&'))
        .filter(|p| matches!(p.split_once('=').map_or(*p, |(k, _)| k), "lang" | "theme"))
        .collect();
    parse_query(&read.join("&")).problems
}

/// A link that names no state, only perhaps a language: the address a first visit has. It
/// opens the home page.
pub fn is_bare(search: &str) -> bool {
    search
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| p.split_once('=').map_or(p, |(k, _)| k))
        .all(|k| k == "lang" || k.starts_with("utm_"))
}

/// What a history entry stands for: a change of it is a navigation (Back returns to it); a
/// step within it only replaces the entry.
/// Knobs and the path are part of the same entry: a number typed digit by digit would flood
/// history.
pub fn history_key(query: &str) -> String {
    let q = parse_query(query);
    let home = q.other.iter().any(|(k, v)| k == "home" && v == "1");
    format!(
        "{:?}|{:?}|{:?}|{:?}|{}|{home}",
        q.scenario, q.variant, q.compare, q.mode, q.embed
    )
}

/// What the URL says, after validation. Each problem becomes a notice; each bad value falls
/// back to the nearest valid state.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Query {
    pub scenario: Option<String>,
    pub variant: Option<String>,
    pub path: Option<String>,
    pub step: Option<usize>,
    pub lang: Option<Lang>,
    /// `cmp`: the variant shown side by side.
    pub compare: Option<String>,
    /// `mode`: `break` for the challenge.
    pub mode: Option<String>,
    /// `embed=1`: the compact player for an iframe.
    pub embed: bool,
    /// `theme=light|dark|auto`.
    pub theme: Option<Theme>,
    /// Every other parameter (the scenario's knobs among them), first occurrence only.
    pub other: Vec<(String, String)>,
    pub problems: Vec<Text>,
}

/// At most this many unknown parameters are kept (for the knobs).
const MAX_OTHER: usize = 16;

const MAX_PARAM_LEN: usize = 512;

/// Parses a query string (with or without the leading `?`).
pub fn parse_query(search: &str) -> Query {
    let mut q = Query::default();
    for pair in search
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
    {
        let (key, raw) = pair.split_once('=').unwrap_or((pair, ""));
        let value = percent_decode(raw);
        if value.len() > MAX_PARAM_LEN {
            q.problems.push(Text::new(
                format!("The link's '{key}' is too long and was ignored."),
                format!("链接中的“{key}”过长，已忽略。"),
            ));
            continue;
        }
        match key {
            "s" => q.scenario = Some(value),
            "v" => q.variant = Some(value),
            "p" => q.path = Some(value),
            "cmp" => q.compare = Some(value),
            "mode" => q.mode = Some(value),
            "embed" => match value.as_str() {
                "1" | "true" => q.embed = true,
                "0" | "false" | "" => q.embed = false,
                _ => q.problems.push(Text::new(
                    format!("The link's 'embed={value}' is not 1 or 0; showing the full page."),
                    format!("链接中的“embed={value}”不是 1 或 0；显示完整页面。"),
                )),
            },
            "theme" => match Theme::parse(&value) {
                Some(theme) => q.theme = Some(theme),
                None => q.problems.push(Text::new(
                    format!(
                        "The link's 'theme={value}' is not light, dark or auto; using the default."
                    ),
                    format!("链接中的“theme={value}”不是 light、dark 或 auto；使用默认值。"),
                )),
            },
            "t" => match value.parse::<usize>() {
                Ok(t) => q.step = Some(t),
                Err(_) => q.problems.push(Text::new(
                    format!("The link's step 't={value}' is not a number; starting at step 0."),
                    format!("链接中的步骤“t={value}”不是数字；从第 0 步开始。"),
                )),
            },
            "lang" => match Lang::parse(&value) {
                Some(lang) => q.lang = Some(lang),
                None => q.problems.push(Text::new(
                    format!("The link's language 'lang={value}' is not supported (en or zh)."),
                    format!("链接中的语言“lang={value}”不受支持（en 或 zh）。"),
                )),
            },
            // Knobs; unknown parameters (tracking tags and the like) are left alone.
            _ => {
                if q.other.len() < MAX_OTHER && !q.other.iter().any(|(k, _)| k == key) {
                    q.other.push((key.to_string(), value));
                }
            }
        }
    }
    q
}

/// The page's colours: the reader's system setting (`Auto`), or fixed. An embed is light unless
/// its link asks otherwise: a notes page is light far more often than not, and a dark block in
/// a light page is the worse mistake.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    #[default]
    Auto,
    Light,
    Dark,
}

impl Theme {
    pub fn parse(word: &str) -> Option<Theme> {
        match word {
            "auto" => Some(Theme::Auto),
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            _ => None,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// The theme a page without `theme=` has.
    pub fn default_for(embed: bool) -> Theme {
        if embed {
            Theme::Light
        } else {
            Theme::Auto
        }
    }

    /// `&theme=…` when it is not the default of the page (`embed` or not).
    pub fn param(self, embed: bool) -> String {
        if self == Theme::default_for(embed) {
            String::new()
        } else {
            format!("&theme={}", self.word())
        }
    }
}

/// Builds the query string for a state; parameters in a fixed order.
pub fn build_query(scenario: &str, variant: &str, path: &str, step: usize, lang: Lang) -> String {
    format!(
        "?s={scenario}&v={variant}&p={path}&t={step}&lang={}",
        lang.code()
    )
}

/// `&embed=1` for the embedded player, nothing otherwise (it goes last).
pub fn embed_param(embed: bool) -> &'static str {
    if embed {
        "&embed=1"
    } else {
        ""
    }
}

/// The optional parameters that follow [`build_query`]'s: the knobs whose `values` differ from
/// their defaults (an option by its word, see [`Knob::word`]), the compared variant and the
/// mode.
pub fn query_extras(
    knobs: &[Knob],
    values: &[u32],
    compare: Option<&str>,
    breaking: bool,
) -> String {
    let mut out = String::new();
    for (k, &value) in knobs.iter().zip(values) {
        if value != k.default {
            out.push_str(&format!("&{}={}", k.key, k.word(value)));
        }
    }
    if let Some(slug) = compare {
        out.push_str("&cmp=");
        out.push_str(slug);
    }
    if breaking {
        out.push_str("&mode=break");
    }
    out
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A valid starting state resolved from a URL, with a notice for each thing that was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    pub lang: Lang,
    pub scenario: usize,
    pub variant: usize,
    /// The valid prefix of the requested path.
    pub path: Vec<u8>,
    pub step: Option<usize>,
    /// A second variant shown side by side on the same fault schedule.
    pub compare: Option<usize>,
    /// The "break it" challenge.
    pub breaking: bool,
    /// The scenario's knobs, one per `ScenarioMeta::knobs` entry.
    pub knobs: Vec<u32>,
    /// The compact player for an iframe (`embed=1`).
    pub embed: bool,
    pub theme: Theme,
    pub notices: Vec<Text>,
}

/// Resolves a query string (and the browser's language, used when the URL names none) to the
/// nearest valid state. Never panics, whatever the input.
pub fn resolve(search: &str, browser_lang: Option<&str>) -> Resolved {
    resolve_traced(search, browser_lang).0
}

/// [`resolve`], with the trace of the resolved run (none when the scenario is not loaded).
/// Checking the link's path replays it; the page starts from that replay instead of running
/// the run again (a replay of the 625-step run and its drop: ~15 ms of the first load at 1×).
pub fn resolve_traced(search: &str, browser_lang: Option<&str>) -> (Resolved, Option<Trace>) {
    let query = parse_query(search);
    let mut notices = query.problems.clone();
    let lang = query
        .lang
        .or_else(|| browser_lang.and_then(Lang::parse))
        .unwrap_or_default();
    let scenario = scenario_of(&query, &mut notices);
    let meta = scenarios::meta(scenario);
    let variant = variant_of(meta, &query, &mut notices);
    let knobs = knobs_of(meta, &query, &mut notices);
    foreign_knobs(meta, &query, &mut notices);
    let (path, step, trace) = path_of(scenario, variant, &knobs, &query, &mut notices);
    let resolved = Resolved {
        lang,
        scenario,
        variant,
        path,
        step,
        compare: compare_of(meta, variant, &query, &mut notices),
        breaking: mode_of(&query, &mut notices),
        knobs,
        embed: query.embed,
        theme: query.theme.unwrap_or(Theme::default_for(query.embed)),
        notices,
    };
    (resolved, trace)
}

/// The scenario the link `search` shows (the first when it names none or an unknown one).
pub fn shown_scenario(search: &str) -> usize {
    scenario_of(&parse_query(search), &mut Vec::new())
}

/// The scenario the link names (unknown: the first, with a notice).
fn scenario_of(query: &Query, notices: &mut Vec<Text>) -> usize {
    match query.scenario.as_deref() {
        None | Some("") => 0,
        Some(slug) => scenarios::index_of(slug).unwrap_or_else(|| {
            notices.push(Text::new(
                format!(
                    "There is no scenario '{slug}'; showing {}.",
                    scenarios::meta(0).title.en
                ),
                format!(
                    "没有名为“{slug}”的场景；改为显示{}。",
                    scenarios::meta(0).title.zh
                ),
            ));
            0
        }),
    }
}

/// The variant the link names (unknown: the first, with a notice).
fn variant_of(meta: &ScenarioMeta, query: &Query, notices: &mut Vec<Text>) -> usize {
    match query.variant.as_deref() {
        None | Some("") => 0,
        Some(slug) => meta.variant_index(slug).unwrap_or_else(|| {
            // (A scenario's card, on the home page, has no variants to name.)
            if let Some(first) = meta.variants.first() {
                notices.push(Text::new(
                    format!("There is no variant '{slug}'; showing {}.", first.name.en),
                    format!("没有名为“{slug}”的方案；改为显示{}。", first.name.zh),
                ));
            }
            0
        }),
    }
}

/// The knobs' values from the link, each out of range or unreadable one at its default.
fn knobs_of(meta: &ScenarioMeta, query: &Query, notices: &mut Vec<Text>) -> Vec<u32> {
    meta.knobs
        .iter()
        .map(|k| {
            let Some((_, raw)) = query.other.iter().find(|(key, _)| key == k.key) else {
                return k.default;
            };
            parse_knob(k, raw).unwrap_or_else(|why| {
                let d = k.word(k.default);
                notices.push(Text::new(
                    format!("The link's {}; using {d}.", why.en),
                    format!("链接中的{}；改用 {d}。", why.zh),
                ));
                k.default
            })
        })
        .collect()
}

/// Another scenario's knob (a link edited by hand, or one scenario's link pasted onto
/// another): say so rather than drop it silently. Other unknown parameters (tracking tags) are
/// left alone.
fn foreign_knobs(meta: &ScenarioMeta, query: &Query, notices: &mut Vec<Text>) {
    for (key, _) in &query.other {
        if meta.knobs.iter().any(|k| k.key == key) {
            continue;
        }
        let owner = (0..scenarios::COUNT)
            .map(scenarios::meta)
            .find(|m| m.knobs.iter().any(|k| k.key == key));
        if let Some(owner) = owner {
            let (theirs, ours) = (owner.slug, meta.slug);
            notices.push(Text::new(
                format!("'{key}' is a setting of {theirs}, not of {ours}; it was ignored."),
                format!("“{key}”是 {theirs} 的参数，不属于 {ours}；已忽略。"),
            ));
        }
    }
}

/// The path as far as it is valid on this variant, and the step (at most the run's last).
fn path_of(
    scenario: usize,
    variant: usize,
    knobs: &[u32],
    query: &Query,
    notices: &mut Vec<Text>,
) -> (Vec<u8>, Option<usize>, Option<Trace>) {
    // The page loads the scenario it shows before reading the link (`main.rs`).
    let Some(shown) = scenarios::get(scenario) else {
        return (Vec::new(), None, None);
    };
    let (mut path, error) = decode_path(query.path.as_deref().unwrap_or(""));
    let asked = path.len();
    let mut trace = shown.trace_with(variant, knobs, &path);
    if let Some(err) = error.or(trace.error.clone()) {
        path.truncate(err.at);
        notices.push(Text::new(
            format!(
                "The link's path stops being valid at step {}: {}. Showing the run up to there.",
                err.at, err.reason.en
            ),
            format!(
                "链接中的路径在第 {} 步失效：{}。只重放到那里。",
                err.at, err.reason.zh
            ),
        ));
    }
    path.truncate(trace.given);
    // A path cut short is a different run from there on.
    if path.len() < asked {
        trace = shown.trace_with(variant, knobs, &path);
    }
    let last = trace.last();
    let step = query.step.map(|t| {
        if t > last {
            notices.push(Text::new(
                format!(
                    "The link asks for step {t}, but this run has {last} steps; showing the last."
                ),
                format!("链接要求第 {t} 步，但这次运行只有 {last} 步；显示最后一步。"),
            ));
        }
        t.min(last)
    });
    (path, step, Some(trace))
}

/// The variant to compare with, if the link names another one.
fn compare_of(
    meta: &ScenarioMeta,
    variant: usize,
    query: &Query,
    notices: &mut Vec<Text>,
) -> Option<usize> {
    match query.compare.as_deref() {
        None | Some("") => None,
        Some(slug) => {
            let found = meta.variant_index(slug);
            if found.is_none() || found == Some(variant) {
                notices.push(Text::new(
                    format!(
                        "'cmp={slug}' is not another variant of this scenario; showing one player."
                    ),
                    format!("“cmp={slug}”不是这个场景的另一个方案；只显示一个播放器。"),
                ));
            }
            found.filter(|&c| c != variant)
        }
    }
}

/// Whether the link opens the "break it" challenge.
fn mode_of(query: &Query, notices: &mut Vec<Text>) -> bool {
    match query.mode.as_deref() {
        None | Some("") | Some("play") => false,
        Some("break") => true,
        Some(other) => {
            notices.push(Text::new(
                format!("There is no mode '{other}' (play or break); showing the player."),
                format!("没有“{other}”模式（play 或 break）；显示播放器。"),
            ));
            false
        }
    }
}

/// `query` without its step (`t=…`): two queries that differ only in the step are the same
/// run at different steps.
pub fn without_step(query: &str) -> String {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|pair| !pair.starts_with("t="))
        .collect::<Vec<_>>()
        .join("&")
}

/// Whether `text` can be an audience window's id (`audience=<id>` in its URL, and in every
/// message): one to sixteen ASCII letters and digits.
pub fn is_audience_id(text: &str) -> bool {
    (1..=16).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// What a presenter's window and its audience window say to each other (over a
/// BroadcastChannel, as text). `id` pairs one presenter with the audience windows it opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AudienceMsg {
    /// An audience window has opened and wants the state.
    Hello { id: String },
    /// The presenter's state: its query string (`?s=…`) and the step awaiting the room's
    /// prediction, if any.
    State {
        id: String,
        predict: Option<usize>,
        query: String,
    },
}

impl AudienceMsg {
    pub fn encode(&self) -> String {
        match self {
            AudienceMsg::Hello { id } => format!("hello {id}"),
            AudienceMsg::State { id, predict, query } => {
                let p = predict.map_or_else(|| "-".to_string(), |n| n.to_string());
                format!("state {id} {p} {query}")
            }
        }
    }

    /// Reads a message; anything else (another page's traffic, garbage) is `None`.
    pub fn decode(text: &str) -> Option<AudienceMsg> {
        let mut parts = text.splitn(4, ' ');
        match (parts.next()?, parts.next()?) {
            ("hello", id) if is_audience_id(id) && parts.next().is_none() => {
                Some(AudienceMsg::Hello { id: id.into() })
            }
            ("state", id) if is_audience_id(id) => {
                let predict = match parts.next()? {
                    "-" => None,
                    n => Some(n.parse::<usize>().ok().filter(|&n| n <= MAX_STEPS)?),
                };
                let query = parts.next()?;
                (query.starts_with('?') && query.len() <= 4096).then(|| AudienceMsg::State {
                    id: id.into(),
                    predict,
                    query: query.into(),
                })
            }
            _ => None,
        }
    }
}

/// A knob's value from a link's text, or why not: for a knob with options, one of their words
/// (the value is the option's index); otherwise a whole number in the knob's range.
pub fn parse_knob(k: &Knob, raw: &str) -> Result<u32, Text> {
    if k.options.is_empty() {
        return parse_knob_number(k, raw);
    }
    k.read(raw).ok_or_else(|| {
        let words: Vec<&str> = k.options.iter().map(|o| o.word.as_str()).collect();
        let key = k.key;
        Text::new(
            format!("'{key}={raw}' is not one of {}", words.join(", ")),
            format!("“{key}={raw}”不是 {} 之一", words.join("、")),
        )
    })
}

/// A knob's value as a whole number in its range, or why not: a run file's form, where a knob
/// with options stores the option's index.
pub fn parse_knob_number(k: &Knob, raw: &str) -> Result<u32, Text> {
    match raw.parse::<u32>() {
        Ok(v) if (k.min..=k.max).contains(&v) => Ok(v),
        _ => {
            let (key, lo, hi) = (k.key, k.min, k.max);
            Err(Text::new(
                format!("'{key}={raw}' is not a whole number from {lo} to {hi}"),
                format!("“{key}={raw}”不是 {lo} 到 {hi} 之间的整数"),
            ))
        }
    }
}

/// What the page shows, apart from the step and the language: one value, so that choosing a
/// scenario, a variant or a knob changes everything that depends on it at once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunSpec {
    pub scenario: usize,
    pub variant: usize,
    /// One value per `ScenarioMeta::knobs` entry (empty: the defaults).
    pub knobs: Vec<u32>,
    /// The explicit choices; the trace continues with defaults after them.
    pub path: Vec<u8>,
    /// A second variant shown side by side on the same schedule.
    pub compare: Option<usize>,
    /// The "break it" challenge.
    pub breaking: bool,
}

/// A change the learner makes to the run shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunEdit {
    /// Another scenario: its default knobs, its first variant, an empty run.
    Scenario(usize),
    /// Another variant of this scenario: an empty run; a comparison with itself ends.
    Variant(usize),
    /// Knob `index` to `value`, clamped to its range.
    Knob(usize, u32),
    /// Every knob at once.
    Knobs(Vec<u32>),
    /// `path` on `variant` (a failing path, a counterexample, a quiz's "show me").
    Load { variant: usize, path: Vec<u8> },
    /// Choice `index` at step `step` of the run whose choices are `taken`: the future forks.
    Choose {
        step: usize,
        index: u8,
        taken: Vec<u8>,
    },
    /// Into the challenge (from an empty run) or out of it.
    Breaking(bool),
    /// Compare with another variant, or stop comparing.
    Compare(Option<usize>),
    /// A whole run at once (an imported file, a link).
    Open(RunSpec),
}

impl RunSpec {
    /// The run after `edit`. Pure: the page writes back what changed and replays if anything did.
    pub fn edit(&self, edit: RunEdit) -> RunSpec {
        let s = self.clone();
        match edit {
            RunEdit::Scenario(scenario) if scenario == s.scenario => s,
            RunEdit::Scenario(scenario) => RunSpec {
                scenario,
                knobs: scenarios::meta(scenario).default_knobs(),
                ..RunSpec::default()
            },
            RunEdit::Variant(variant) if variant == s.variant => s,
            RunEdit::Variant(variant) => RunSpec {
                variant,
                path: Vec::new(),
                compare: s.compare.filter(|&c| c != variant),
                ..s
            },
            RunEdit::Knob(index, value) => s.with_knob(index, value),
            RunEdit::Knobs(knobs) => RunSpec { knobs, ..s },
            RunEdit::Load { variant, path } => RunSpec { variant, path, ..s },
            RunEdit::Choose { step, index, taken } if taken.get(step) == Some(&index) => s,
            RunEdit::Choose { step, index, taken } => {
                let mut path = taken[..step.min(taken.len())].to_vec();
                path.push(index);
                RunSpec { path, ..s }
            }
            RunEdit::Breaking(true) => RunSpec {
                breaking: true,
                path: Vec::new(),
                ..s
            },
            RunEdit::Breaking(false) => RunSpec {
                breaking: false,
                ..s
            },
            RunEdit::Compare(compare) => RunSpec { compare, ..s },
            RunEdit::Open(spec) => spec,
        }
    }

    fn with_knob(self, index: usize, value: u32) -> RunSpec {
        let meta = scenarios::meta(self.scenario);
        let Some(k) = meta.knobs.get(index) else {
            return self;
        };
        let mut knobs = self.knobs.clone();
        if knobs.len() != meta.knobs.len() {
            knobs = meta.default_knobs();
        }
        knobs[index] = value.clamp(k.min, k.max);
        RunSpec { knobs, ..self }
    }
}

#[cfg(test)]
mod tests {
    use super::PlayerEvent::*;
    use super::*;

    #[test]
    fn a_run_edit_changes_what_depends_on_it_and_nothing_else() {
        let rc = scenarios::index_of("refund-cap").expect("registered");
        let (cap_max, defaults) = {
            let m = scenarios::meta(rc);
            (m.knobs[0].max, m.default_knobs())
        };
        let shown = RunSpec {
            scenario: rc,
            variant: 1,
            knobs: defaults.clone(),
            path: vec![0, 1, 0],
            compare: Some(2),
            breaking: false,
        };
        let with = |f: fn(&mut RunSpec)| {
            let mut s = shown.clone();
            f(&mut s);
            s
        };
        let cases: Vec<(RunEdit, RunSpec)> = vec![
            // The same scenario or variant again: nothing changes (the explorer keeps its results).
            (RunEdit::Scenario(rc), shown.clone()),
            (RunEdit::Variant(1), shown.clone()),
            // Another scenario: its defaults, its first variant, an empty run.
            (
                RunEdit::Scenario(0),
                RunSpec {
                    knobs: scenarios::meta(0).default_knobs(),
                    ..RunSpec::default()
                },
            ),
            // Another variant: an empty run; comparing it with itself ends.
            (
                RunEdit::Variant(3),
                with(|s| (s.variant, s.path) = (3, Vec::new())),
            ),
            (
                RunEdit::Variant(2),
                with(|s| (s.variant, s.path, s.compare) = (2, Vec::new(), None)),
            ),
            // A knob is clamped to its range, and the path stays.
            (
                RunEdit::Knob(0, u32::MAX),
                with(|s| s.knobs[0] = scenarios::meta(s.scenario).knobs[0].max),
            ),
            (RunEdit::Knob(99, 1), shown.clone()),
            // Choosing what was taken keeps the run; anything else forks it there.
            (
                RunEdit::Choose {
                    step: 1,
                    index: 1,
                    taken: vec![0, 1, 0, 0],
                },
                shown.clone(),
            ),
            (
                RunEdit::Choose {
                    step: 1,
                    index: 0,
                    taken: vec![0, 1, 0, 0],
                },
                with(|s| s.path = vec![0, 0]),
            ),
            // Into the challenge from an empty run; out of it, the run stays.
            (
                RunEdit::Breaking(true),
                with(|s| (s.breaking, s.path) = (true, Vec::new())),
            ),
            (RunEdit::Breaking(false), shown.clone()),
            (
                RunEdit::Load {
                    variant: 0,
                    path: vec![2],
                },
                with(|s| (s.variant, s.path) = (0, vec![2])),
            ),
            (RunEdit::Compare(None), with(|s| s.compare = None)),
        ];
        for (edit, want) in cases {
            assert_eq!(shown.edit(edit.clone()), want, "{edit:?}");
        }
        assert_eq!(shown.edit(RunEdit::Knob(0, u32::MAX)).knobs[0], cap_max);
        assert_eq!(
            shown.edit(RunEdit::Open(RunSpec::default())),
            RunSpec::default()
        );
        // Knobs of the wrong length (none yet) start from the defaults.
        let bare = RunSpec {
            knobs: Vec::new(),
            ..shown.clone()
        };
        assert_eq!(bare.edit(RunEdit::Knob(1, 50)).knobs, {
            let mut k = defaults.clone();
            k[1] = 50;
            k
        });
    }

    fn at(step: usize, playing: bool) -> Cursor {
        Cursor {
            step,
            last: 5,
            playing,
            speed: NORMAL_SPEED,
            stop: None,
        }
    }

    #[test]
    fn playing_to_a_step_stops_there_and_anything_else_drops_the_stop() {
        let c = reduce(at(4, false), PlayTo(3));
        assert_eq!((c.step, c.playing, c.stop), (0, true, Some(3)));
        let c = [Tick, Tick].iter().fold(c, |c, e| reduce(c, *e));
        assert_eq!((c.step, c.playing), (2, true));
        let c = reduce(c, Tick);
        assert_eq!(
            (c.step, c.playing, c.stop),
            (3, false, None),
            "stopped at the violation"
        );
        let c = reduce(reduce(at(4, false), PlayTo(3)), Pause);
        assert_eq!(c.stop, None);
        assert_eq!(
            reduce(at(0, false), PlayTo(99)).stop,
            Some(5),
            "clamped to the run"
        );
        assert!(!reduce(at(0, false), PlayTo(0)).playing);
    }

    #[test]
    fn a_bare_address_opens_the_home_page_and_a_state_does_not() {
        for bare in ["", "?", "?lang=zh", "?utm_source=x&lang=en"] {
            assert!(is_bare(bare) && is_home(bare), "{bare}");
        }
        assert!(is_home("?home=1&lang=zh") && !is_home("?home=0"));
        // The home page names a language or theme it cannot use, and nothing it does not read.
        let said = |q: &str| {
            home_notices(q)
                .iter()
                .map(|t| t.en.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            said("?lang=zz&theme=pink"),
            [
                "The link's language 'lang=zz' is not supported (en or zh).",
                "The link's 'theme=pink' is not light, dark or auto; using the default."
            ]
        );
        assert!(said("?home=1&s=nope&t=x&p=%%&embed=2&lang=zh&theme=dark").is_empty());
        for state in [
            "?s=dual-write",
            "?t=3",
            "?t=x",
            "?embed=1",
            "?v=outbox",
            "?cap=150",
        ] {
            assert!(!is_bare(state) && !is_home(state), "{state}");
        }
    }

    #[test]
    fn a_navigation_changes_the_history_key_and_a_step_does_not() {
        let at = |v: &str, t: usize, lang: Lang| build_query("dual-write", v, "0010", t, lang);
        let key = history_key(&at("outbox", 3, Lang::En));
        assert_eq!(key, history_key(&at("outbox", 7, Lang::En)), "a step");
        assert_eq!(key, history_key(&at("outbox", 3, Lang::Zh)), "the language");
        assert_ne!(
            key,
            history_key(&at("commit-then-publish", 3, Lang::En)),
            "a variant"
        );
        assert_ne!(
            key,
            history_key(&(at("outbox", 3, Lang::En) + "&cmp=x")),
            "compare"
        );
        assert_ne!(
            key,
            history_key(&(at("outbox", 3, Lang::En) + "&mode=break")),
            "a mode"
        );
        assert_eq!(
            key,
            history_key(&(at("outbox", 3, Lang::En) + "&cap=5")),
            "a knob"
        );
    }

    #[test]
    fn a_query_without_its_step() {
        let a = build_query("dual-write", "outbox", "0010", 3, Lang::Zh) + "&cap=5";
        let b = build_query("dual-write", "outbox", "0010", 7, Lang::Zh) + "&cap=5";
        assert_eq!(without_step(&a), without_step(&b));
        assert!(!without_step(&a).contains("t=3"), "{a}");
        let c = build_query("dual-write", "outbox", "0011", 3, Lang::Zh) + "&cap=5";
        assert_ne!(without_step(&a), without_step(&c));
    }

    #[test]
    fn audience_messages_round_trip_and_garbage_is_ignored() {
        let msgs = [
            AudienceMsg::Hello { id: "k3x9".into() },
            AudienceMsg::State {
                id: "k3x9".into(),
                predict: Some(4),
                query: "?s=dual-write&v=outbox&p=0010&t=3&lang=zh".into(),
            },
            AudienceMsg::State {
                id: "a".into(),
                predict: None,
                query: "?s=refund-cap&cap=150".into(),
            },
        ];
        for m in msgs {
            assert_eq!(AudienceMsg::decode(&m.encode()), Some(m));
        }
        for junk in [
            "",
            "hello",
            "hello ",
            "hello a b",
            "hello <img>",
            "state k - s=dual-write",
            "state k 99999 ?s=x",
            "state k x ?s=x",
            "state k -",
            "howdy k",
            "state 12345678901234567 - ?s=x",
        ] {
            assert_eq!(AudienceMsg::decode(junk), None, "{junk:?}");
        }
    }

    #[test]
    fn reducer_table() {
        let cases: &[(Cursor, PlayerEvent, Cursor)] = &[
            (at(0, false), TogglePlay, at(0, true)),
            (at(2, true), TogglePlay, at(2, false)),
            (at(5, false), TogglePlay, at(0, true)),
            (at(2, true), Tick, at(3, true)),
            (at(4, true), Tick, at(5, false)),
            (at(2, false), Tick, at(2, false)),
            (at(2, true), StepForward, at(3, false)),
            (at(5, false), StepForward, at(5, false)),
            (at(0, false), StepBack, at(0, false)),
            (at(3, true), StepBack, at(2, false)),
            (at(3, true), Start, at(0, false)),
            (at(1, false), End, at(5, false)),
            (at(1, true), Seek(4), at(4, true)),
            (at(1, false), Seek(99), at(5, false)),
            (at(1, true), Pause, at(1, false)),
        ];
        for (i, (before, event, after)) in cases.iter().enumerate() {
            assert_eq!(reduce(*before, *event), *after, "case {i}: {event:?}");
        }
    }

    #[test]
    fn speed_is_clamped_and_scales_step_time() {
        let c = reduce(at(0, false), SetSpeed(99));
        assert_eq!(c.speed, SPEEDS.len() - 1);
        assert_eq!(c.step_ms(), STEP_MS / 4.0);
        assert_eq!(reduce(at(0, false), SetSpeed(0)).step_ms(), STEP_MS * 4.0);
    }

    #[test]
    fn a_new_trace_keeps_the_step_when_it_exists() {
        assert_eq!(
            reduce(at(3, false), NewTrace { last: 9, step: 4 }),
            Cursor {
                last: 9,
                ..at(4, false)
            }
        );
        assert_eq!(
            reduce(at(3, true), NewTrace { last: 2, step: 4 }),
            Cursor {
                last: 2,
                ..at(2, false)
            }
        );
    }

    #[test]
    fn query_round_trips() {
        let s = build_query("dual-write", "outbox", "0010", 3, Lang::Zh);
        let q = parse_query(&s);
        assert_eq!(q.scenario.as_deref(), Some("dual-write"));
        assert_eq!(q.variant.as_deref(), Some("outbox"));
        assert_eq!(q.path.as_deref(), Some("0010"));
        assert_eq!(q.step, Some(3));
        assert_eq!(q.lang, Some(Lang::Zh));
        assert!(q.problems.is_empty());
    }

    #[test]
    fn garbled_values_become_problems_not_panics() {
        let q = parse_query("?t=-1&lang=klingon&s=%E2%9C%93&p=%ZZ&x&=&&t=%");
        assert_eq!(q.problems.len(), 3, "{:?}", q.problems);
        assert_eq!(q.scenario.as_deref(), Some("✓"));
        assert_eq!(q.path.as_deref(), Some("%ZZ"));
        assert_eq!(q.step, None);
        let long = format!("?p={}", "0".repeat(MAX_PARAM_LEN + 1));
        assert_eq!(parse_query(&long).problems.len(), 1);
    }

    #[test]
    fn percent_decoding_handles_truncated_escapes() {
        assert_eq!(percent_decode("a%2"), "a%2");
        assert_eq!(percent_decode("%"), "%");
        assert_eq!(percent_decode("a+b%20c"), "a b c");
    }
}
