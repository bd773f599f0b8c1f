//! The timeline: one swimlane per actor, steps along the time axis, messages as arrows from
//! sender to receiver, marks for commit, publish, rollback, crash and the rest — and what went
//! wrong drawn on it: the violating step's column with ✗ joined to its cause, lost messages
//! stopping half-way, ghosts of what never happened, duplicates counted.
//!
//! The columns fit the width the timeline has ([`Layout`]): a run of up to about 40 steps shows
//! every step at 1280 px and on a phone; a longer one shows a window around the current step
//! plus its cause and violation, with the quiet stretches between them collapsed, and an
//! overview strip of the whole run. "Wide" zoom returns to wide, scrolling columns.
//!
//! The SVG is built by [`base`] and [`moving`], pure functions of (trace, step, frac, lang,
//! layout), so playing and scrubbing draw the same frames and the drawing is testable natively.
//! Coordinates are whole pixels: integer formatting is all the drawing needs.

use super::app::use_ctx;
use super::cmd::Cmd;
use super::dom::{drawn, patched, Node};
use super::i18n::Ui;
use crate::player::PlayerEvent;
use crate::sim::kit::sorted_set;
use crate::sim::{ArrowKind, Lang, MarkKind, Status, Step, Trace};
use leptos::html::Div;
use leptos::prelude::*;

/// A lane's height; an embed's lanes are lower, so a whole run fits a 400 px frame.
const LANE_H: i32 = 52;
const LANE_H_COMPACT: i32 = 34;
/// A presenter's lanes are taller, like the rest of its type.
const LANE_H_LARGE: i32 = 66;
/// Room above the lanes: the cause-to-violation connector, then the step numbers.
const TOP: i32 = 40;
/// Column widths: never wider than this (a short run does not stretch across a wide screen)…
const COL_MAX: i32 = 66;
/// …and never narrower than this before a long run falls back to a window.
const COL_MIN: i32 = 8;
/// The column width aimed at in a window over a long run.
const COL_WIN: i32 = 16;
/// A collapsed stretch of steps.
const GAP_W: i32 = 22;
/// Arrow labels are written out only in columns at least this wide; narrower, they collapse
/// to their glyphs (the narration and the legend name them).
const LABEL_COL: i32 = 40;
const PAD: i32 = 6;
/// The width assumed before the timeline has been measured (and in native tests).
pub const DEFAULT_WIDTH: i32 = 640;

/// Fit every step into the width (the default), or wide columns that scroll.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Zoom {
    #[default]
    Fit,
    Wide,
}

/// Where each step's column is. A pure function of the trace, the width, the zoom and (for a
/// long run) the current step, so drawing stays a pure function too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The centre of each step's column; `None` for a step inside a collapsed stretch.
    xs: Vec<Option<i32>>,
    /// Collapsed stretches of steps, in order.
    pub gaps: Vec<Gap>,
    pub col: i32,
    pub width: i32,
    pub height: i32,
    pub lane_h: i32,
    /// Steps whose columns are tinted (where two compared runs differ).
    pub tinted: Vec<bool>,
}

/// Steps `from..=to` collapsed into one narrow mark centred at `x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gap {
    pub x: i32,
    pub from: usize,
    pub to: usize,
}

impl Layout {
    pub fn new(t: &Trace, width: i32, zoom: Zoom, step: usize) -> Layout {
        Layout::of(t.steps.len(), width, zoom, step, &pins(t, step)).lanes(t, LANE_H)
    }

    /// [`Layout::new`] with low lanes (an embed).
    pub fn compact(t: &Trace, width: i32, zoom: Zoom, step: usize) -> Layout {
        Layout::of(t.steps.len(), width, zoom, step, &pins(t, step)).lanes(t, LANE_H_COMPACT)
    }

    /// The layout of `t` on a grid of `n` columns (`n` ≥ its steps) with columns `tinted`: two
    /// runs drawn one above the other, step under step (the compare view).
    pub fn aligned(t: &Trace, n: usize, width: i32, step: usize, tinted: Vec<bool>) -> Layout {
        let lay = Layout::of(n.max(t.steps.len()), width, Zoom::Fit, step, &pins(t, step));
        Layout {
            tinted,
            ..lay.lanes(t, LANE_H)
        }
    }

    /// [`Layout::new`] with tall lanes (presenting to a room).
    pub fn large(t: &Trace, width: i32, zoom: Zoom, step: usize) -> Layout {
        Layout::of(t.steps.len(), width, zoom, step, &pins(t, step)).lanes(t, LANE_H_LARGE)
    }

    fn lanes(self, t: &Trace, lane_h: i32) -> Layout {
        Layout {
            lane_h,
            height: TOP + t.steps[0].down.len() as i32 * lane_h + 6,
            ..self
        }
    }

    /// The layout of `n` steps in `width` pixels at `step`, keeping `pins` in view.
    fn of(n: usize, width: i32, zoom: Zoom, step: usize, pins: &[usize]) -> Layout {
        let usable = width.max(120) - 2 * PAD;
        let keep = match zoom {
            Zoom::Wide => return Layout::place(&vec![true; n], COL_MAX),
            Zoom::Fit if n as i32 * COL_MIN <= usable => vec![true; n],
            Zoom::Fit => window(n, usable, step.min(n - 1), pins),
        };
        let shown = keep.iter().filter(|&&k| k).count().max(1) as i32;
        let gaps = runs_hidden(&keep) as i32;
        let col = ((usable - gaps * GAP_W) / shown).clamp(COL_MIN, COL_MAX);
        Layout::place(&keep, col)
    }

    /// Columns of width `col` for the kept steps, one gap for each hidden stretch.
    fn place(keep: &[bool], col: i32) -> Layout {
        let (mut xs, mut gaps) = (Vec::with_capacity(keep.len()), Vec::<Gap>::new());
        let mut x = PAD;
        for (k, &kept) in keep.iter().enumerate() {
            if kept {
                xs.push(Some(x + col / 2));
                x += col;
                continue;
            }
            xs.push(None);
            match gaps.last_mut() {
                Some(g) if g.to + 1 == k => g.to = k,
                _ => {
                    gaps.push(Gap {
                        x: x + GAP_W / 2,
                        from: k,
                        to: k,
                    });
                    x += GAP_W;
                }
            }
        }
        Layout {
            xs,
            gaps,
            col,
            width: x + PAD,
            height: TOP,
            lane_h: LANE_H,
            tinted: Vec::new(),
        }
    }

    /// The vertical centre of lane `lane`.
    pub fn y(&self, lane: usize) -> i32 {
        TOP + lane as i32 * self.lane_h + self.lane_h / 2
    }

    /// The centre of step `k`'s column, if it is shown.
    pub fn x(&self, k: usize) -> Option<i32> {
        self.xs.get(k).copied().flatten()
    }

    /// Where step `k` is, shown or collapsed (a collapsed step sits at its gap).
    fn at(&self, k: usize) -> i32 {
        self.x(k).unwrap_or_else(|| {
            self.gaps
                .iter()
                .find(|g| (g.from..=g.to).contains(&k))
                .map_or(self.width, |g| g.x)
        })
    }

    /// The shown step whose column is nearest to pixel `px` of the drawing.
    pub fn step_at(&self, px: i32) -> usize {
        self.xs
            .iter()
            .enumerate()
            .filter_map(|(k, x)| x.map(|x| (k, (x - px).abs())))
            .min_by_key(|&(_, d)| d)
            .map_or(0, |(k, _)| k)
    }

    /// The steps shown, as ranges (for the overview strip).
    pub fn shown(&self) -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = Vec::new();
        for (k, x) in self.xs.iter().enumerate() {
            if x.is_none() {
                continue;
            }
            match out.last_mut() {
                Some(r) if r.1 + 1 == k => r.1 = k,
                _ => out.push((k, k)),
            }
        }
        out
    }
}

/// The steps a long run must keep in view at `step`: where an invariant broke and its cause,
/// once the cause has happened (so "Jump to step k" shows k and the violation together).
fn pins(t: &Trace, step: usize) -> Vec<usize> {
    let Some(end) = t.steps.last() else {
        return Vec::new();
    };
    let violated = end.verdicts.iter().filter(|v| v.status == Status::Violated);
    sorted_set(violated.flat_map(|v| {
        let (since, cause) = (v.since.unwrap_or(0), v.cause.unwrap_or(0));
        let shown = cause.min(since) <= step;
        [cause, since].into_iter().filter(move |_| shown)
    }))
}

/// Which of `n` steps a window of `usable` pixels shows at `step`: a window around the current
/// step that moves by half its width at a time (so most steps change few columns), and each
/// pinned step with its neighbours.
fn window(n: usize, usable: i32, step: usize, pins: &[usize]) -> Vec<bool> {
    let mut keep = vec![false; n];
    let mut pinned = 0;
    for &p in pins {
        for k in &mut keep[p.saturating_sub(1)..=(p + 1).min(n - 1)] {
            pinned += usize::from(!*k);
            *k = true;
        }
    }
    let cap = (usable / COL_WIN).max(4) as usize;
    let reserve = ((pins.len() + 1) * 2 * GAP_W as usize).div_ceil(COL_WIN as usize);
    let win = cap.saturating_sub(pinned + reserve).max(cap / 2).max(3);
    let page = (win / 2).max(1);
    let mut lo = step.saturating_sub(win / 4) / page * page;
    let hi = (lo + win - 1).min(n - 1);
    if hi == n - 1 {
        lo = (hi + 1).saturating_sub(win);
    }
    keep[lo..=hi].iter_mut().for_each(|k| *k = true);
    keep
}

fn runs_hidden(keep: &[bool]) -> usize {
    keep.iter()
        .enumerate()
        .filter(|&(k, &kept)| !kept && (k == 0 || keep[k - 1]))
        .count()
}

#[component]
pub fn Timeline() -> impl IntoView {
    let ctx = use_ctx();
    let scroller = NodeRef::<Div>::new();
    let width = RwSignal::new(0);
    let zoom = RwSignal::new(Zoom::Fit);
    let layout = Memo::new(move |_| {
        let step = ctx.cursor.get().step;
        let w = match width.get() {
            0 => DEFAULT_WIDTH,
            w => w,
        };
        // An embed's lanes are low: a whole run fits a 400 px frame; a presenter's are tall.
        let presenting = use_context::<super::present::Presenter>().is_some_and(|p| p.on.get());
        let layout = if ctx.embed {
            Layout::compact
        } else if presenting {
            Layout::large
        } else {
            Layout::new
        };
        ctx.trace.with(|t| layout(t, w, zoom.get(), step))
    });
    let lanes =
        move || {
            let (lang, step, down) = (ctx.lang.get(), ctx.cursor.get().step, ctx.t().down);
            ctx.trace.with(|t| {
                t.view(step)
                .lanes
                .iter()
                .map(|l| {
                    let class = if l.down { "lane-name down" } else { "lane-name" };
                    let tag = l
                        .down
                        .then(|| view! { <span class="down-tag">"⚡ " {down}</span> });
                    view! { <li class=class><span>{l.name.get(lang).to_string()}</span>{tag}</li> }
                })
                .collect_view()
            })
        };
    let still = move || {
        let (step, lang) = (ctx.cursor.get().step, ctx.lang.get());
        layout.with(|lay| vec![ctx.trace.with(|t| base(t, step, lang, lay))])
    };
    let motion = move || {
        let (step, frac, lang) = (ctx.cursor.get().step, ctx.frac.get(), ctx.lang.get());
        layout.with(|lay| vec![ctx.trace.with(|t| moving(t, step, frac, lang, lay))])
    };
    let strip = move || {
        let step = ctx.cursor.get().step;
        layout.with(|lay| ctx.trace.with(|t| overview(t, step, lay, ctx.t())))
    };
    let tools = move || {
        let (lang, t) = (ctx.lang.get(), ctx.t());
        ctx.trace.with(|tr| toolbar(tr, zoom.get(), lang, t))
    };
    let label = move || {
        let c = ctx.cursor.get();
        format!(
            "{}: {}",
            ctx.t().timeline,
            super::i18n::step_of(ctx.lang.get(), c.step, c.last)
        )
    };
    let seek_at = move |ev: &leptos::ev::MouseEvent, selector: &str| {
        let el = document().query_selector(selector).ok().flatten()?;
        let rect = el.get_bounding_client_rect();
        Some((ev.client_x() as f64 - rect.left(), rect.width()))
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some((px, _)) = seek_at(&ev, ".tl-svg") {
            let k = layout.with_untracked(|l| l.step_at(px as i32));
            ctx.dispatch(PlayerEvent::Seek(k));
        }
    };
    let on_strip = move |ev: leptos::ev::MouseEvent| {
        if let Some((px, w)) = seek_at(&ev, ".tl-overview") {
            let last = ctx.cursor.get_untracked().last;
            let k = (px / w.max(1.0) * (last + 1) as f64).floor().max(0.0) as usize;
            ctx.dispatch(PlayerEvent::Seek(k.min(last)));
        }
    };
    let on_tool = move |ev: leptos::ev::MouseEvent| {
        if Cmd::of(&ev) == Some(Cmd::Zoom) {
            zoom.update(|z| {
                *z = match z {
                    Zoom::Fit => Zoom::Wide,
                    Zoom::Wide => Zoom::Fit,
                }
            });
            Cmd::Zoom.refocus();
        }
    };
    Effect::new(move |_| {
        if let Some(el) = scroller.get() {
            super::browser::observe_width(&el, move |w| width.set(w));
        }
    });
    // Wide columns scroll: keep the current step in view, after the drawing has its width.
    Effect::new(move |_| {
        let step = ctx.cursor.get().step;
        let x = layout.with(|l| (zoom.get() == Zoom::Wide).then(|| l.at(step)));
        let Some(x) = x else { return };
        request_animation_frame(move || {
            if let Some(el) = scroller.get_untracked() {
                let (left, w) = (el.scroll_left(), el.client_width());
                if x > left + w - COL_MAX || x < left + COL_MAX {
                    el.set_scroll_left((x - w * 3 / 5).max(0));
                }
            }
        });
    });
    view! {
        <section class="card timeline" aria-labelledby="timeline-h">
            <h2 id="timeline-h" class="sr-only">{move || ctx.t().timeline}</h2>
            <div class="tl-tools" on:click=on_tool>{drawn("tl-tools-in", ctx.unless_embed(tools))}</div>
            <div class="tl-strip" on:click=on_strip>{drawn("tl-strip-in", strip)}</div>
            <div class="tl">
                <ul class="lanes">{lanes}</ul>
                <div class="tl-scroll" node_ref=scroller tabindex="0" role="img" aria-label=label on:click=on_click>
                    <div class="tl-stack">
                        {patched("tl-svg", still)}
                        {drawn("tl-move", motion)}
                    </div>
                </div>
            </div>
        </section>
    }
}

/// The zoom switch and the legend of every glyph this run draws (a disclosure: reachable by
/// keyboard and touch, unlike `<title>` tooltips).
pub fn toolbar(t: &Trace, zoom: Zoom, lang: Lang, ui: &Ui) -> Vec<Node> {
    let mut kinds: Vec<MarkKind> = Vec::new();
    let mut arrows: Vec<ArrowKind> = Vec::new();
    for s in &t.steps {
        kinds.extend(s.info.marks.iter().map(|m| m.kind));
        arrows.extend(s.info.arrows.iter().map(|a| a.kind));
    }
    let mut list = Node::el("ul").attr("class", "legend-list");
    let item = |glyph: &str, class: String, word: &str| {
        Node::el("li")
            .child(
                Node::el("span")
                    .attr("class", class)
                    .attr("aria-hidden", "true")
                    .text(glyph),
            )
            .text(word)
    };
    for k in MarkKind::ALL.into_iter().filter(|k| kinds.contains(k)) {
        list.push(item(
            k.glyph(),
            format!("lg mark-{}", k.css()),
            k.word(lang),
        ));
    }
    for (kind, glyph, css, word) in [
        (ArrowKind::Message, "→", "msg", ui.lg_message),
        (ArrowKind::Duplicate, "⇢×2", "dup", ui.lg_duplicate),
        (ArrowKind::Lost, "–✕", "lost", ui.lg_lost),
        (ArrowKind::Ghost, "⇢✗", "ghost", ui.lg_ghost),
    ] {
        if arrows.contains(&kind) {
            list.push(item(glyph, format!("lg arrow-{css}"), word));
        }
    }
    list.push(item("▨", "lg down".into(), ui.lg_down));
    list.push(item("✗", "lg viol".into(), ui.lg_violation));
    let legend = Node::el("details")
        .attr("class", "legend")
        .child(Node::el("summary").text(ui.legend))
        .child(list);
    let wide = zoom == Zoom::Wide;
    let zoom_button = Node::el("button")
        .attr("type", "button")
        .attr("class", "btn small")
        .cmd(Cmd::Zoom)
        .attr("aria-pressed", if wide { "true" } else { "false" })
        .text(ui.wide_columns);
    vec![legend, zoom_button]
}

/// A thin map of the whole run under a long timeline: the shown steps, faults (⚡), where an
/// invariant broke (✗) and the current step. Nothing when every step is shown.
pub fn overview(t: &Trace, step: usize, lay: &Layout, ui: &Ui) -> Vec<Node> {
    if lay.gaps.is_empty() {
        return Vec::new();
    }
    let n = t.steps.len() as i32;
    let mut svg = Node::svg("svg")
        .attr("class", "tl-overview")
        .attr("viewBox", format!("0 0 {n} 10"))
        .attr("preserveAspectRatio", "none")
        .attr("aria-hidden", "true")
        .child(rect(0, 0, n, 10).attr("class", "ov-bg"));
    for (a, b) in lay.shown() {
        svg.push(rect(a as i32, 0, (b - a + 1) as i32, 10).attr("class", "ov-shown"));
    }
    for (k, _) in t.steps.iter().enumerate().filter(|(_, s)| s.fault) {
        svg.push(
            rect(k as i32, 0, 1, 10)
                .attr("class", "ov-fault")
                .attr("data-k", k),
        );
    }
    if let Some(end) = t.steps.get(step) {
        for v in end.verdicts.iter().filter(|v| v.status == Status::Violated) {
            let k = v.since.unwrap_or(0) as i32;
            svg.push(rect(k, 0, 1, 10).attr("class", "ov-viol"));
        }
    }
    svg.push(rect(step as i32, 0, 1, 10).attr("class", "ov-now"));
    vec![
        Node::el("p")
            .attr("class", "sr-only")
            .text(ui.overview_hint),
        svg,
    ]
}

fn canvas(w: i32, h: i32) -> Node {
    Node::svg("svg")
        .attr("width", w)
        .attr("height", h)
        .attr("viewBox", format!("0 0 {w} {h}"))
        .attr("aria-hidden", "true")
}

fn defs() -> Node {
    let hatch = Node::svg("pattern")
        .attr("id", "hatch")
        .attr("width", 8)
        .attr("height", 8)
        .attr("patternUnits", "userSpaceOnUse")
        .attr("patternTransform", "rotate(45)")
        .child(
            Node::svg("rect")
                .attr("width", 8)
                .attr("height", 8)
                .attr("class", "hatch-bg"),
        )
        .child(line(0, 0, 0, 8).attr("class", "hatch-line"));
    let head = Node::svg("marker")
        .attr("id", "head")
        .attr("viewBox", "0 0 10 10")
        .attr("refX", 9)
        .attr("refY", 5)
        .attr("markerWidth", 7)
        .attr("markerHeight", 7)
        .attr("orient", "auto-start-reverse")
        .child(
            Node::svg("path")
                .attr("d", "M0,0 L10,5 L0,10 z")
                .attr("class", "head"),
        );
    Node::svg("defs").child(hatch).child(head)
}

/// Everything that stays still during step `step`'s motion: lanes, down intervals, the axis,
/// the violation and every earlier step. Redrawn when the step changes, not on every frame.
pub fn base(t: &Trace, step: usize, lang: Lang, lay: &Layout) -> Node {
    let step = step.min(t.last());
    let first = t.view(0);
    let lanes = &first.lanes;
    let (w, h) = (lay.width, lay.height);
    // Five layers, each a group, so that a step's change touches the end of one list and a few
    // attributes ([`patched`]): lanes, down intervals, columns, the violation, finished marks.
    let mut bands = Node::svg("g");
    for (l, lane) in lanes.iter().enumerate() {
        let band = if l % 2 == 0 { "band" } else { "band alt" };
        let kind = if lane.durable {
            "lane-line durable"
        } else {
            "lane-line volatile"
        };
        let top = TOP + l as i32 * lay.lane_h;
        bands.push(rect(0, top, w, lay.lane_h).attr("class", band));
        bands.push(line(0, lay.y(l), w, lay.y(l)).attr("class", kind));
    }
    let mut downs = Node::svg("g");
    down_intervals(&mut downs, t, lanes.len(), step, lay);
    let mut marks = Node::svg("g");
    // Every drawn step's labels are placed once: a past step's labels are bounded by them.
    let placed: Vec<Vec<Anchor>> = (0..=step)
        .map(|k| {
            lay.x(k)
                .map_or_else(Vec::new, |x| anchors(&t.steps[k], x, lang, lay))
        })
        .collect();
    for k in 1..step {
        step_marks(
            &mut marks,
            &t.steps[k],
            k,
            Place::Past(&placed[k..]),
            1.0,
            lang,
            lay,
        );
    }
    canvas(w, h)
        .child(defs())
        .child(bands)
        .child(downs)
        .child(columns(t, step, lang, lay))
        .child(violation(t, step, lay))
        .child(marks)
}

/// One column per shown step (its number, a hit area, its title), a "⋯" per collapsed stretch.
fn columns(t: &Trace, step: usize, lang: Lang, lay: &Layout) -> Node {
    let h = lay.height;
    let mut cols = Node::svg("g");
    let numbered = |k: usize| lay.col >= 22 || k.is_multiple_of(5) || k == step;
    // The step where an invariant broke keeps its own colour even while current.
    let broke: Vec<usize> = t.steps[step]
        .verdicts
        .iter()
        .filter(|v| v.status == Status::Violated)
        .filter_map(|v| v.since)
        .collect();
    for (k, s) in t.steps.iter().enumerate() {
        let Some(x) = lay.x(k) else { continue };
        let class = match (k.cmp(&step), broke.contains(&k)) {
            (std::cmp::Ordering::Equal, true) => "col current broke",
            (std::cmp::Ordering::Equal, false) => "col current",
            (std::cmp::Ordering::Greater, _) => "col future",
            (std::cmp::Ordering::Less, _) => "col",
        };
        let class = if lay.tinted.get(k).copied().unwrap_or(false) {
            format!("{class} tinted")
        } else {
            class.to_string()
        };
        // Every column has its number's place, so moving the current step changes texts and
        // classes, never the shape of the drawing.
        let number = if numbered(k) {
            k.to_string()
        } else {
            String::new()
        };
        cols.push(
            Node::svg("g")
                .attr("class", class)
                .child(rect(x - lay.col / 2, 0, lay.col, h).attr("class", "hit"))
                .child(text(x, TOP - 8, "tick", number))
                .child(Node::svg("title").text(format!("{k}: {}", s.info.title.get(lang)))),
        );
    }
    for g in &lay.gaps {
        cols.push(
            Node::svg("g")
                .attr("class", "gap")
                .child(line(g.x, TOP, g.x, h).attr("class", "gap-line"))
                .child(
                    Node::svg("text")
                        .attr("x", g.x)
                        .attr("y", TOP - 8)
                        .attr("class", "tick")
                        .text("⋯"),
                )
                .child(Node::svg("title").text(format!("{}–{}", g.from, g.to))),
        );
    }
    cols
}

/// The step where an invariant broke, once the run has reached it: its column in the
/// violation colour with ✗, and a bracket back to the fault that caused it.
fn violation(t: &Trace, step: usize, lay: &Layout) -> Node {
    let mut g = Node::svg("g").attr("class", "viol");
    let Some(now) = t.steps.get(step) else {
        return g;
    };
    let mut seen: Vec<(usize, usize)> = Vec::new();
    for v in now.verdicts.iter().filter(|v| v.status == Status::Violated) {
        let (since, cause) = (v.since.unwrap_or(step), v.cause.unwrap_or(step));
        if seen.contains(&(since, cause)) {
            continue;
        }
        seen.push((since, cause));
        let Some(x) = lay.x(since) else { continue };
        let half = (lay.col / 2).max(5);
        g.push(rect(x - half, TOP, half * 2, lay.height - TOP).attr("class", "viol-col"));
        if cause != since {
            let c = lay.at(cause);
            let d = format!("M{c},{} V6 H{x} V{}", TOP - 20, TOP - 20);
            g.push(Node::svg("path").attr("d", d).attr("class", "viol-link"));
            g.push(
                Node::svg("text")
                    .attr("x", c)
                    .attr("y", 14)
                    .attr("class", "viol-cause")
                    .text("⚡"),
            );
        }
        g.push(
            Node::svg("text")
                .attr("x", x)
                .attr("y", 16)
                .attr("class", "viol-x")
                .text("✗"),
        );
    }
    g
}

/// The current step's messages, `frac` of the way along, and its marks fading in; laid over
/// [`base`] and redrawn on every animation frame (a handful of elements).
pub fn moving(t: &Trace, step: usize, frac: f64, lang: Lang, lay: &Layout) -> Node {
    let step = step.min(t.last());
    let mut svg = canvas(lay.width, lay.height);
    if step > 0 {
        step_marks(
            &mut svg,
            &t.steps[step],
            step,
            Place::Current,
            frac,
            lang,
            lay,
        );
    }
    svg
}

fn rect(x: i32, y: i32, w: i32, h: i32) -> Node {
    Node::svg("rect")
        .attr("x", x)
        .attr("y", y)
        .attr("width", w)
        .attr("height", h)
}

fn line(x1: i32, y1: i32, x2: i32, y2: i32) -> Node {
    Node::svg("line")
        .attr("x1", x1)
        .attr("y1", y1)
        .attr("x2", x2)
        .attr("y2", y2)
}

fn text(x: i32, y: i32, class: &'static str, s: impl Into<String>) -> Node {
    Node::svg("text")
        .attr("x", x)
        .attr("y", y)
        .attr("class", class)
        .text(s)
}

/// Hatched bands over a lane while its actor is down, up to the current step.
fn down_intervals(svg: &mut Node, t: &Trace, lanes: usize, step: usize, lay: &Layout) {
    for l in 0..lanes {
        let mut start = None;
        for k in 0..=step + 1 {
            let down = k <= step && t.steps[k].down.get(l).is_some_and(|d| *d);
            match (down, start) {
                (true, None) => start = Some(k),
                (false, Some(a)) => {
                    let (x1, x2) = (lay.at(a), lay.at(k.min(step)));
                    let top = TOP + l as i32 * lay.lane_h + 4;
                    svg.push(
                        rect(x1, top, (x2 - x1).max(lay.col / 2).max(8), lay.lane_h - 8)
                            .attr("class", "down")
                            .attr("fill", "url(#hatch)"),
                    );
                    start = None;
                }
                _ => {}
            }
        }
    }
}

/// The radius of a mark in columns of width `col`: small dots when narrow, except the marks of
/// what went wrong, which keep their glyph.
fn mark_r(col: i32, kind: MarkKind) -> i32 {
    let r = (col * 2 / 5).clamp(4, 11);
    match kind {
        MarkKind::Crash | MarkKind::Fail | MarkKind::Duplicate | MarkKind::Rollback => r.max(8),
        _ => r,
    }
}

/// Step `k`'s arrow from lane `from` to lane `to` in column `x`: where it starts and where its
/// head ends.
fn arrow_ends(from: usize, to: usize, x: i32, lay: &Layout) -> ((i32, i32), (i32, i32)) {
    let col = lay.col;
    (
        (x - col * 4 / 5, lay.y(from)),
        (x - (col / 5).min(12), lay.y(to)),
    )
}

/// Where the label of an arrow from `(x1, y1)` to `(x2, y2)` across `lanes` lanes is anchored
/// (its text's start, 4 px off the line): the arrow's middle, unless that is on a lane (an
/// arrow over an even number of lanes), where the lane's marks would cover it; then half a lane
/// back towards the sender, still on the arrow, between two lanes.
fn label_at(
    ((x1, y1), (x2, y2)): ((i32, i32), (i32, i32)),
    lanes: usize,
    lane_h: i32,
) -> (i32, i32) {
    let (mut mx, mut my) = ((x1 + x2) / 2, (y1 + y2) / 2);
    if lanes >= 2 && lanes.is_multiple_of(2) {
        mx -= (x2 - x1) * (lane_h / 2) / (y2 - y1).abs();
        my += if y2 > y1 { -lane_h / 2 } else { lane_h / 2 };
    }
    (mx + 4, my - 4)
}

/// Where a step is drawn: the current step (its marks "now", its labels whole), or a past one
/// with its labels' anchors and those of the steps drawn after it, which bound how far its
/// labels may run ([`label_room`]).
#[derive(Clone, Copy)]
enum Place<'a> {
    Current,
    Past(&'a [Vec<Anchor>]),
}

/// One step's arrows and marks. `frac` < 1 draws the message part-way along its arrow and
/// fades the marks in as it arrives.
fn step_marks(
    svg: &mut Node,
    step: &Step,
    k: usize,
    place: Place,
    frac: f64,
    lang: Lang,
    lay: &Layout,
) {
    let Some(x) = lay.x(k) else { return };
    let computed;
    let (current, own, later): (bool, &[Anchor], &[Vec<Anchor>]) = match place {
        Place::Current => {
            computed = anchors(step, x, lang, lay);
            (true, &computed, &[])
        }
        Place::Past(placed) => (false, &placed[0], &placed[1..]),
    };
    let ease = frac * frac * (3.0 - 2.0 * frac);
    let arrived = frac >= 1.0;
    for (a, &at) in step.info.arrows.iter().zip(own) {
        let ends = arrow_ends(a.from, a.to, x, lay);
        // The later steps drawn in columns this label could reach (a collapsed column ends it).
        let room = (later.iter().enumerate())
            .map_while(|(i, n)| lay.x(k + 1 + i).map(|nx| (n, nx)))
            .take_while(|&(_, nx)| nx - lay.col <= at.x + at.w)
            .filter_map(|(n, _)| label_room(at, n, lay))
            .min();
        svg.push(arrow_node(
            a,
            ends,
            ease,
            arrived,
            lang,
            lay,
            ((at.x, at.y), room),
        ));
    }
    // Marks appear as the message lands: invisible for the first 60 % of the motion.
    let percent = if arrived {
        100
    } else {
        (((frac - 0.6) / 0.4).clamp(0.0, 1.0) * 100.0) as i32
    };
    for m in &step.info.marks {
        let r = mark_r(lay.col, m.kind);
        let mut g = Node::svg("g")
            .attr(
                "class",
                format!("mark {}{}", m.kind.css(), if current { " now" } else { "" }),
            )
            .attr("opacity", format!("{}.{:02}", percent / 100, percent % 100))
            .child(
                Node::svg("circle")
                    .attr("cx", x)
                    .attr("cy", lay.y(m.lane))
                    .attr("r", r),
            );
        if r >= 8 {
            g.push(
                text(x, lay.y(m.lane) + r / 2, "glyph", m.kind.glyph()).attr("font-size", r + 2),
            );
        }
        svg.push(g.child(Node::svg("title").text(m.label.get(lang))));
    }
}

/// One arrow, `ease` of the way along (a moving dot) or arrived (line, head, label). A lost
/// message stops half-way at ✕; a ghost is drawn whole, dashed, ending in ✗; a duplicate
/// says which copy it is.
fn arrow_node(
    a: &crate::sim::Arrow,
    ends: ((i32, i32), (i32, i32)),
    ease: f64,
    arrived: bool,
    lang: Lang,
    lay: &Layout,
    (at, room): ((i32, i32), Option<i32>),
) -> Node {
    let ((x1, y1), (x2, y2)) = travelled(a, ends);
    let (class, ease) = match a.kind {
        ArrowKind::Message => ("msg", ease),
        ArrowKind::Duplicate => ("msg dup", ease),
        ArrowKind::Lost => ("msg lost", ease),
        // What never happened does not travel.
        ArrowKind::Ghost => ("msg ghost", 1.0),
    };
    let arrived = arrived || a.kind == ArrowKind::Ghost;
    let hx = x1 + ((x2 - x1) as f64 * ease) as i32;
    let hy = y1 + ((y2 - y1) as f64 * ease) as i32;
    let mut g = Node::svg("g").attr("class", class);
    if !arrived {
        g.push(line(x1, y1, hx, hy));
        g.push(
            Node::svg("circle")
                .attr("cx", hx)
                .attr("cy", hy)
                .attr("r", 5)
                .attr("class", "dot"),
        );
        return g;
    }
    let body = line(x1, y1, x2, y2);
    match a.kind {
        ArrowKind::Message | ArrowKind::Duplicate => g.push(body.attr("marker-end", "url(#head)")),
        ArrowKind::Lost => {
            g.push(body);
            g.push(text(x2, y2 + 5, "end-x", "✕"));
        }
        ArrowKind::Ghost => {
            g.push(body);
            g.push(text(x2, y2 + 5, "end-x", "✗"));
        }
    }
    let label = label_text(a, lang, lay.col);
    let shown = match room {
        Some(w) => fit(&label, w, lay),
        None => label,
    };
    if shown.is_empty() {
        return g;
    }
    g.child(text(at.0, at.1, "msg-label", shown))
}

/// The part of an arrow that is drawn: a lost message stops half-way.
fn travelled(a: &crate::sim::Arrow, ends: ((i32, i32), (i32, i32))) -> ((i32, i32), (i32, i32)) {
    let ((x1, y1), (x2, y2)) = ends;
    if a.kind == ArrowKind::Lost {
        ((x1, y1), ((x1 + x2) / 2, (y1 + y2) / 2))
    } else {
        ends
    }
}

/// What an arrow's label says: its words where columns are wide enough (a ghost's always), and
/// which copy it is.
fn label_text(a: &crate::sim::Arrow, lang: Lang, col: i32) -> String {
    let copies = (a.copy >= 2).then(|| format!("×{}", a.copy));
    match (col >= LABEL_COL || a.kind == ArrowKind::Ghost, copies) {
        (true, Some(c)) => format!("{} {c}", a.label.get(lang)),
        (true, None) => a.label.get(lang).to_string(),
        (false, Some(c)) => c,
        (false, None) => String::new(),
    }
}

/// Where an arrow's label starts, on its own: where a delivered message's would be, which for
/// a lost one is on the half it travelled or at its ✕ (placed on that half alone, a message
/// lost over two lanes had its label on the sender's lane, over the step's own mark); a
/// ghost's sits on the receiver's lane, after its ✗: where the absence is.
fn label_anchor(a: &crate::sim::Arrow, ends: ((i32, i32), (i32, i32)), lay: &Layout) -> (i32, i32) {
    let (_, (x2, y2)) = ends;
    match a.kind {
        ArrowKind::Ghost => (x2 + 9, y2 + 4),
        _ => label_at(ends, a.from.abs_diff(a.to), lay.lane_h),
    }
}

/// Where an arrow's label starts, and how wide it is whole (0: the arrow has no label).
#[derive(Clone, Copy, Debug)]
struct Anchor {
    x: i32,
    y: i32,
    w: i32,
}

/// Where each arrow's label of a step starts: its own place, moved down a line at a time while
/// it would overlap a label placed before it in the same step (a request and its answer between
/// the same two lanes cross at their middles, and read "202T #2" on top of each other).
fn anchors(step: &Step, x: i32, lang: Lang, lay: &Layout) -> Vec<Anchor> {
    let lh = line_h(lay);
    let mut placed: Vec<Anchor> = Vec::new();
    for a in &step.info.arrows {
        let (ax, mut ay) = label_anchor(a, arrow_ends(a.from, a.to, x, lay), lay);
        let w = text_w(&label_text(a, lang, lay.col), lay) / 10;
        let hits = |y: i32, placed: &[Anchor]| {
            (placed.iter()).any(|p| {
                w > 0 && p.w > 0 && (p.y - y).abs() < lh && ax < p.x + p.w + 3 && p.x < ax + w + 3
            })
        };
        while hits(ay, &placed) {
            ay += lh;
        }
        placed.push(Anchor { x: ax, y: ay, w });
    }
    placed
}

/// The height of a line of the timeline's labels (11 px mono; 16 px when presenting).
fn line_h(lay: &Layout) -> i32 {
    if lay.lane_h >= LANE_H_LARGE {
        18
    } else {
        13
    }
}

/// The width of a character in the timeline's labels, in tenths of a pixel: 11 px mono (16 px
/// when presenting) advances 0.6 em; a CJK character takes a whole em.
fn char_w(c: char, lay: &Layout) -> i32 {
    let em = if lay.lane_h >= LANE_H_LARGE { 160 } else { 110 };
    if c.is_ascii() || c == '…' {
        em * 6 / 10
    } else {
        em
    }
}

fn text_w(s: &str, lay: &Layout) -> i32 {
    s.chars().map(|c| char_w(c, lay)).sum()
}

/// How far a label at `at` may run before a later step's label (`later`, that step's anchors)
/// on the same line (`None`: nothing in its way).
fn label_room(at: Anchor, later: &[Anchor], lay: &Layout) -> Option<i32> {
    let line_h = line_h(lay);
    (later.iter())
        .filter(|b| b.w > 0 && (b.y - at.y).abs() < line_h && b.x > at.x)
        .map(|b| b.x - at.x - 3)
        .min()
}

/// `label` cut to `room` pixels with an ellipsis (the step's narration has it whole), or
/// nothing where not even two characters fit.
fn fit(label: &str, room: i32, lay: &Layout) -> String {
    if text_w(label, lay) <= room * 10 {
        return label.to_string();
    }
    let mut left = room * 10 - char_w('…', lay);
    let cut: String = (label.chars())
        .take_while(|&c| {
            left -= char_w(c, lay);
            left >= 0
        })
        .collect();
    let cut = cut.trim_end();
    if cut.chars().count() < 2 {
        String::new()
    } else {
        format!("{cut}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios;

    fn draw(t: &Trace, step: usize, frac: f64) -> String {
        let lay = Layout::new(t, DEFAULT_WIDTH, Zoom::Fit, step);
        crate::ui::dom::html(&[
            base(t, step, Lang::En, &lay),
            moving(t, step, frac, Lang::En, &lay),
        ])
    }

    fn trace() -> Trace {
        scenarios::all()[0].trace(0, &[0, 0, 1])
    }

    /// A lost message's label is on the half it travelled, off the sender's lane where the
    /// step's own marks are; two labels of one step never sit on each other.
    #[test]
    fn labels_of_a_step_keep_clear() {
        let lay = Layout::place(&[true; 4], 44);
        let x = lay.x(1).unwrap_or_default();
        for (from, to) in [(1, 3), (3, 1), (0, 1), (1, 0), (0, 3)] {
            let a = crate::sim::arrow(from, to, "GET refunds", ArrowKind::Lost);
            let ends = arrow_ends(from, to, x, &lay);
            let (_, (_, cross)) = travelled(&a, ends);
            let (_, y) = label_anchor(&a, ends, &lay);
            let sender = lay.y(from);
            // The text stands on its anchor, a line high; a mark's circle is up to 9 px.
            let (top, bottom) = (y - line_h(&lay) + 2, y);
            assert!(
                bottom < sender - 9 || top > sender + 9,
                "{from}→{to}: on the sender's lane"
            );
            assert!(
                (sender.min(cross)..=sender.max(cross)).contains(&(y + 4)),
                "{from}→{to}: off the half it travelled"
            );
        }
        // A request and its answer between the same two lanes, in one step.
        let step = Step {
            info: crate::sim::StepInfo {
                arrows: vec![
                    crate::sim::arrow(0, 1, "POST #2", ArrowKind::Duplicate),
                    crate::sim::arrow(1, 0, "202", ArrowKind::Message),
                ],
                ..Default::default()
            },
            ..Default::default()
        };
        let at = anchors(&step, x, Lang::En, &lay);
        assert!((at[0].y - at[1].y).abs() >= line_h(&lay), "{at:?}");
    }

    /// In every scenario's default run and every mistake's failing run, drawn whole at its
    /// last step, no two labels on one line overlap: a past label stops before any later one
    /// it would reach, not only the next step's, and the labels of one step stack.
    #[test]
    fn no_two_labels_overlap() {
        for (i, sc) in scenarios::all().iter().enumerate() {
            let meta = sc.meta();
            let fails = (meta.variants.iter().enumerate())
                .filter_map(|(v, m)| Some((v, crate::sim::decode_path(m.fails?).0)));
            let defaults = (0..meta.variants.len()).map(|v| (v, Vec::new()));
            for (v, path) in defaults.chain(fails) {
                let t = sc.trace(v, &path);
                let lay = Layout::place(&vec![true; t.steps.len()], 44);
                let step = t.last();
                let html = crate::ui::dom::html(&[
                    base(&t, step, Lang::En, &lay),
                    moving(&t, step, 1.0, Lang::En, &lay),
                ]);
                let num = |piece: &str, attr: &str| -> i32 {
                    let from = piece.find(attr).map_or(0, |p| p + attr.len());
                    let digits: String = piece[from..]
                        .chars()
                        .take_while(|c| *c == '-' || c.is_ascii_digit())
                        .collect();
                    digits.parse().unwrap_or_default()
                };
                let labels: Vec<(i32, i32, i32, String)> = (html.split("<text ").skip(1))
                    .filter_map(|piece| {
                        let (head, rest) = piece.split_once("class=\"msg-label\">")?;
                        let label = rest.split('<').next().unwrap_or_default().to_string();
                        let (x, y) = (num(head, "x=\""), num(head, "y=\""));
                        Some((x, y, text_w(&label, &lay) / 10, label))
                    })
                    .collect();
                for (j, a) in labels.iter().enumerate() {
                    for b in &labels[j + 1..] {
                        let apart = a.0 + a.2 <= b.0 || b.0 + b.2 <= a.0;
                        assert!(
                            (a.1 - b.1).abs() >= line_h(&lay) || apart,
                            "scenario {i}, variant {v}: {a:?} and {b:?}"
                        );
                    }
                }
            }
        }
    }

    /// A label runs no further than the next step's label on its line: it is cut with an
    /// ellipsis, and the current step's label is never cut.
    #[test]
    fn a_label_stops_before_the_next_one() {
        let lay = Layout::place(&[true; 8], 44);
        assert_eq!(fit("COMMIT", 60, &lay), "COMMIT");
        let cut = fit("UPDATE op-1", 40, &lay);
        assert!(
            cut.ends_with('…') && "UPDATE op-1".starts_with(cut.trim_end_matches('…')),
            "{cut}"
        );
        assert!(text_w(&cut, &lay) <= 400, "{cut}");
        assert_eq!(
            fit("UPDATE op-1", 12, &lay),
            "",
            "not even two characters fit"
        );
        // Dual write, commit-then-publish: the order service's COMMIT, then its publish of
        // e-18 to the broker in the next column, whose label is on the same line.
        let t = scenarios::all()[0].trace(0, &[0, 0, 1, 0, 0, 0, 0]);
        let html = |step: usize| {
            let lay = Layout::place(&vec![true; t.steps.len()], 44);
            crate::ui::dom::html(&[
                base(&t, step, Lang::En, &lay),
                moving(&t, step, 1.0, Lang::En, &lay),
            ])
        };
        let (k, _) = (t.steps.iter().enumerate())
            .find(|(_, s)| s.info.arrows.iter().any(|a| a.label.en == "e-18"))
            .expect("e-18 is published");
        let labels = |h: String| {
            (h.split("msg-label\">").skip(1))
                .map(|t| t.split('<').next().unwrap_or_default().to_string())
                .collect::<Vec<_>>()
        };
        let now = labels(html(k));
        let cut = now
            .iter()
            .filter(|l| l.starts_with("CO") && l.ends_with('…'));
        assert_eq!(cut.count(), 1, "COMMIT is cut before e-18: {now:?}");
        let before = labels(html(k - 1));
        assert_eq!(
            before.last().map(String::as_str),
            Some("COMMIT"),
            "the current step's is whole"
        );
    }

    #[test]
    fn an_arrow_s_label_is_on_the_arrow_and_between_lanes() {
        for (from, to) in [
            (0, 1),
            (1, 0),
            (0, 2),
            (2, 4),
            (4, 2),
            (0, 3),
            (0, 4),
            (3, 0),
        ] {
            let lay = Layout::place(&[true; 8], COL_MAX);
            let ends = arrow_ends(from, to, 400, &lay);
            let (lx, ly) = label_at(ends, from.abs_diff(to), LANE_H);
            let (mx, my) = (lx - 4, ly + 4);
            // Between two lanes (lane centres are half a lane below each band's top).
            assert_eq!((my - TOP).rem_euclid(LANE_H), 0, "{from}→{to}");
            // On the segment from the sender to the receiver.
            let ((x1, y1), (x2, y2)) = ends;
            assert!(
                (x1.min(x2)..=x1.max(x2)).contains(&mx),
                "{from}→{to}: x {mx}"
            );
            assert!(
                (y1.min(y2)..=y1.max(y2)).contains(&my),
                "{from}→{to}: y {my}"
            );
            let cross = (x2 - x1) * (my - y1) - (y2 - y1) * (mx - x1);
            assert!(
                cross.abs() <= (y2 - y1).abs() * 2,
                "{from}→{to}: off the line"
            );
        }
    }

    #[test]
    fn drawing_is_a_pure_function_of_step_and_fraction() {
        let t = trace();
        assert_eq!(draw(&t, 3, 0.5), draw(&t, 3, 0.5));
        assert_ne!(draw(&t, 3, 0.5), draw(&t, 3, 1.0), "motion shows");
        assert!(
            draw(&t, 3, 1.0).contains("class=\"mark crash now\""),
            "the crash step's mark moves"
        );
        assert!(
            draw(&t, 4, 1.0).contains("class=\"mark crash\""),
            "and is still afterwards"
        );
        assert!(
            !draw(&t, 2, 1.0).contains("class=\"mark crash\""),
            "the future is not drawn"
        );
    }

    #[test]
    fn only_the_current_step_is_redrawn_per_frame() {
        let t = trace();
        let lay = Layout::new(&t, DEFAULT_WIDTH, Zoom::Fit, 3);
        let still = crate::ui::dom::html(&[base(&t, 3, Lang::En, &lay)]);
        assert!(
            !still.contains("mark crash"),
            "the moving step is not in the still layer"
        );
        assert!(still.contains("class=\"mark commit\""), "earlier steps are");
        let frame = crate::ui::dom::html(&[moving(&t, 3, 0.9, Lang::En, &lay)]);
        assert!(frame.contains("mark crash now") && !frame.contains("mark commit"));
        assert!(!crate::ui::dom::html(&[moving(&t, 0, 0.5, Lang::En, &lay)]).contains("<g"));
    }

    #[test]
    fn a_down_actor_is_hatched_until_it_restarts() {
        let t = trace();
        assert!(draw(&t, 3, 1.0).contains("class=\"down\""));
        assert!(!draw(&t, 2, 1.0).contains("class=\"down\""));
    }

    #[test]
    fn clicks_map_to_the_nearest_shown_column() {
        let t = trace();
        let lay = Layout::new(&t, DEFAULT_WIDTH, Zoom::Fit, 0);
        assert_eq!(lay.step_at(0), 0);
        assert_eq!(lay.step_at(lay.x(3).unwrap()), 3);
        assert_eq!(lay.step_at(lay.x(3).unwrap() + lay.col / 2 - 1), 3);
        assert_eq!(lay.step_at(99_999), t.last());
    }

    #[test]
    fn a_run_of_forty_steps_fits_a_phone_and_a_wide_screen() {
        // The timeline's width on a 390 px phone, and in the stage's left column at 1280 px.
        for width in [350, 590, 1100] {
            let lay = Layout::of(40, width, Zoom::Fit, 20, &[3, 30]);
            assert!(lay.gaps.is_empty(), "{width}");
            assert!((0..40).all(|k| lay.x(k).is_some()), "{width}");
            assert!(lay.width <= width, "{width}: {}", lay.width);
        }
        let wide = Layout::of(40, 590, Zoom::Wide, 20, &[]);
        assert_eq!(wide.col, COL_MAX, "the zoom returns to wide columns");
        assert!(wide.width > 590);
    }

    #[test]
    fn a_long_run_keeps_the_cause_the_violation_and_the_current_step_in_view() {
        let keep = window(625, 580, 300, &[5, 400]);
        for k in [4, 5, 6, 300, 399, 400, 401] {
            assert!(keep[k], "step {k}");
        }
        let lay = Layout::of(625, 580, Zoom::Fit, 300, &[5, 400]);
        assert!(lay.width <= 580, "{}", lay.width);
        assert!(!lay.gaps.is_empty());
        assert!([5, 300, 400].iter().all(|&k| lay.x(k).is_some()));
        // The window moves by half its width at a time: most steps keep the same columns.
        let moved = (300..340)
            .filter(|&s| window(625, 580, s, &[5, 400]) != window(625, 580, s + 1, &[5, 400]))
            .count();
        assert!(moved <= 5, "{moved} of 40 steps moved the window");
        for step in [0, 1, 311, 624] {
            assert!(window(625, 580, step, &[])[step], "{step}");
        }
    }

    #[test]
    fn what_went_wrong_is_drawn() {
        let t = trace();
        let end = t.last();
        let out = draw(&t, end, 1.0);
        assert!(out.contains("class=\"viol-col\""), "the violating column");
        assert!(out.contains("class=\"viol-link\""), "joined to its cause");
        assert!(
            !draw(&t, 2, 1.0).contains("viol-col"),
            "not before it happens"
        );
    }
}
