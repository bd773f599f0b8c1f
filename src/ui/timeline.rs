//! The timeline: one swimlane per actor, steps along the time axis, messages as arrows from
//! sender to receiver, marks for commit, publish, rollback, crash and the rest. What is drawn is
//! a pure function of (trace, step, frac): playing and scrubbing draw the same frames.

use super::app::use_ctx;
use crate::player::PlayerEvent;
use crate::sim::{ArrowKind, Lang, Step, Trace};
use leptos::html::Div;
use leptos::prelude::*;

const LANE_H: f64 = 52.0;
const TOP: f64 = 26.0;
const COL_W: f64 = 66.0;
const X0: f64 = 28.0;

fn x(step: usize) -> f64 {
    X0 + step as f64 * COL_W
}

fn y(lane: usize) -> f64 {
    TOP + lane as f64 * LANE_H + LANE_H / 2.0
}

#[component]
pub fn Timeline() -> impl IntoView {
    let ctx = use_ctx();
    let scroller = NodeRef::<Div>::new();
    let lanes = move || {
        let lang = ctx.lang.get();
        let step = ctx.cursor.get().step;
        ctx.trace.with(|t| {
            t.steps[step.min(t.last())]
                .view
                .lanes
                .iter()
                .map(|l| {
                    let class = if l.down { "lane-name down" } else { "lane-name" };
                    let down = l.down.then(|| view! { <span class="down-tag">{format!("⚡ {}", ctx.t().down)}</span> });
                    view! { <li class=class style=format!("height:{LANE_H}px")><span>{l.name.get(lang).to_string()}</span>{down}</li> }
                })
                .collect_view()
        })
    };
    // Keep the current step in view while playing or stepping.
    Effect::new(move |_| {
        let step = ctx.cursor.get().step;
        if let Some(el) = scroller.get() {
            let width = el.client_width() as f64;
            let target = x(step) - width * 0.6;
            if x(step) > el.scroll_left() as f64 + width - COL_W || x(step) < el.scroll_left() as f64 + COL_W {
                el.set_scroll_left(target.max(0.0) as i32);
            }
        }
    });
    view! {
        <section class="card timeline" aria-labelledby="timeline-h">
            <h2 id="timeline-h" class="sr-only">{move || ctx.t().timeline}</h2>
            <div class="tl">
                <ul class="lanes" style=format!("padding-top:{TOP}px")>{lanes}</ul>
                <div class="tl-scroll" node_ref=scroller>
                    <TimelineSvg/>
                </div>
            </div>
        </section>
    }
}

#[component]
fn TimelineSvg() -> impl IntoView {
    let ctx = use_ctx();
    let size = move || {
        ctx.trace.with(|t| {
            let lanes = t.steps[0].view.lanes.len();
            (x(t.last()) + COL_W, TOP + lanes as f64 * LANE_H + 6.0)
        })
    };
    let still = move || {
        let step = ctx.cursor.get().step;
        let lang = ctx.lang.get();
        ctx.trace.with(|t| still_layer(t, step, lang, ctx))
    };
    let moving = move || {
        let step = ctx.cursor.get().step;
        let frac = ctx.frac.get();
        let lang = ctx.lang.get();
        ctx.trace.with(|t| t.steps.get(step).filter(|_| step > 0).map(|s| step_layer(s, step, frac, lang)))
    };
    let label = move || {
        let c = ctx.cursor.get();
        let lang = ctx.lang.get();
        format!("{}: {}", ctx.t().timeline, super::i18n::step_of(lang, c.step, c.last))
    };
    view! {
        <svg class="tl-svg" role="img" aria-label=label
            width=move || size().0 height=move || size().1
            viewBox=move || format!("0 0 {} {}", size().0, size().1)>
            <defs>
                <pattern id="hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                    <rect width="8" height="8" class="hatch-bg"/>
                    <line x1="0" y1="0" x2="0" y2="8" class="hatch-line"/>
                </pattern>
                <marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d="M0,0 L10,5 L0,10 z" class="head"/>
                </marker>
            </defs>
            {still}
            {moving}
        </svg>
    }
}

/// Lanes, down intervals, the time axis and every step before the current one.
fn still_layer(t: &Trace, step: usize, lang: Lang, ctx: super::app::Ctx) -> impl IntoView {
    let width = x(t.last()) + COL_W;
    let lanes = &t.steps[0].view.lanes;
    let bands = lanes
        .iter()
        .enumerate()
        .map(|(l, lane)| {
            let cls = if lane.durable { "lane-line durable" } else { "lane-line volatile" };
            view! {
                <rect x="0" y=TOP + l as f64 * LANE_H width=width height=LANE_H class=if l % 2 == 0 { "band" } else { "band alt" }/>
                <line x1="0" x2=width y1=y(l) y2=y(l) class=cls/>
            }
        })
        .collect_view();
    let mut down = Vec::new();
    for l in 0..lanes.len() {
        let mut start = None;
        for k in 0..=step.min(t.last()) {
            let is_down = t.steps[k].view.lanes.get(l).is_some_and(|v| v.down);
            match (is_down, start) {
                (true, None) => start = Some(k),
                (false, Some(a)) => {
                    down.push((l, a, k));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(a) = start {
            down.push((l, a, step));
        }
    }
    let down = down
        .into_iter()
        .map(|(l, a, b)| {
            let w = (x(b) - x(a)).max(14.0);
            view! { <rect x=x(a) y=TOP + l as f64 * LANE_H + 4.0 width=w height=LANE_H - 8.0 class="down" fill="url(#hatch)"/> }
        })
        .collect_view();
    let axis = (0..=t.last())
        .map(|k| {
            let cls = if k == step { "col current" } else if k > step { "col future" } else { "col" };
            let title = t.steps[k].info.title.get(lang).to_string();
            view! {
                <g class=cls on:click=move |_| ctx.dispatch(PlayerEvent::Seek(k))>
                    <rect x=x(k) - COL_W / 2.0 y="0" width=COL_W height=TOP + lanes.len() as f64 * LANE_H class="hit"/>
                    <text x=x(k) y="17" class="tick">{k}</text>
                    <title>{format!("{k}: {title}")}</title>
                </g>
            }
        })
        .collect_view();
    let past = (1..step.min(t.last() + 1))
        .map(|k| step_layer(&t.steps[k], k, 1.0, lang))
        .collect_view();
    view! { <g>{bands}{down}{axis}{past}</g> }
}

/// One step's arrows and marks. `frac` < 1 draws the message part-way along its arrow.
fn step_layer(s: &Step, k: usize, frac: f64, lang: Lang) -> impl IntoView {
    let ease = frac * frac * (3.0 - 2.0 * frac);
    let arrows = s
        .info
        .arrows
        .iter()
        .map(|a| {
            let (x1, y1) = (x(k) - COL_W * 0.78, y(a.from));
            let (x2, y2) = (x(k) - 12.0, y(a.to));
            let (hx, hy) = (x1 + (x2 - x1) * ease, y1 + (y2 - y1) * ease);
            let cls = match a.kind {
                ArrowKind::Message => "msg",
                ArrowKind::Duplicate => "msg dup",
                ArrowKind::Lost => "msg lost",
            };
            let arrived = frac >= 1.0;
            let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
            view! {
                <g class=cls>
                    <line x1=x1 y1=y1 x2=hx y2=hy marker-end=if arrived { "url(#head)" } else { "" }/>
                    {(!arrived).then(|| view! { <circle cx=hx cy=hy r="5" class="dot"/> })}
                    {arrived.then(|| view! { <text x=mx + 4.0 y=my - 4.0 class="msg-label">{a.label.clone()}</text> })}
                </g>
            }
        })
        .collect_view();
    let opacity = if frac >= 1.0 { 1.0 } else { ((frac - 0.6) / 0.4).clamp(0.0, 1.0) };
    let marks = s
        .info
        .marks
        .iter()
        .map(|m| {
            let label = m.label.get(lang).to_string();
            view! {
                <g class=format!("mark {}", m.kind.css()) opacity=opacity>
                    <circle cx=x(k) cy=y(m.lane) r="11"/>
                    <text x=x(k) y=y(m.lane) + 4.5 class="glyph">{m.kind.glyph()}</text>
                    <title>{label}</title>
                </g>
            }
        })
        .collect_view();
    view! { <g class="step">{arrows}{marks}</g> }
}
