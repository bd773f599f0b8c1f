//! The timeline: one swimlane per actor, steps along the time axis, messages as arrows from
//! sender to receiver, marks for commit, publish, rollback, crash and the rest.
//!
//! The SVG is built as a string by [`svg`], a pure function of (trace, step, frac, lang), so
//! playing and scrubbing draw the same frames and the drawing is testable natively. Building
//! markup directly (rather than hundreds of typed view nodes) also keeps the bundle small.
//! Coordinates are whole pixels: integer formatting is all the drawing needs.

use super::app::use_ctx;
use crate::player::PlayerEvent;
use crate::sim::{ArrowKind, Lang, Step, Trace};
use leptos::html::Div;
use leptos::prelude::*;
use std::fmt::Write;

const LANE_H: i32 = 52;
const TOP: i32 = 26;
const COL_W: i32 = 66;
const X0: i32 = 28;

fn x(step: usize) -> i32 {
    X0 + step as i32 * COL_W
}

fn y(lane: usize) -> i32 {
    TOP + lane as i32 * LANE_H + LANE_H / 2
}

/// The step whose column contains pixel `px` of the drawing.
pub fn step_at(px: i32, last: usize) -> usize {
    (((px - X0 + COL_W / 2).max(0) / COL_W) as usize).min(last)
}

#[component]
pub fn Timeline() -> impl IntoView {
    let ctx = use_ctx();
    let scroller = NodeRef::<Div>::new();
    let lanes =
        move || {
            let lang = ctx.lang.get();
            let step = ctx.cursor.get().step;
            let down = ctx.t().down;
            ctx.trace.with(|t| {
                t.steps[step.min(t.last())]
                .view
                .lanes
                .iter()
                .map(|l| {
                    let class = if l.down { "lane-name down" } else { "lane-name" };
                    let tag = l.down.then(|| view! { <span class="down-tag">"⚡ " {down}</span> });
                    view! { <li class=class><span>{l.name.get(lang).to_string()}</span>{tag}</li> }
                })
                .collect_view()
            })
        };
    let drawing = move || {
        let c = ctx.cursor.get();
        let (frac, lang) = (ctx.frac.get(), ctx.lang.get());
        ctx.trace.with(|t| svg(t, c.step, frac, lang))
    };
    let label = move || {
        let c = ctx.cursor.get();
        format!(
            "{}: {}",
            ctx.t().timeline,
            super::i18n::step_of(ctx.lang.get(), c.step, c.last)
        )
    };
    let drawing_el = NodeRef::<Div>::new();
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some(el) = drawing_el.get() else { return };
        let px = ev.client_x() - el.get_bounding_client_rect().left() as i32;
        ctx.dispatch(PlayerEvent::Seek(step_at(
            px,
            ctx.cursor.get_untracked().last,
        )));
    };
    // Keep the current step in view while playing or stepping.
    Effect::new(move |_| {
        let step = ctx.cursor.get().step;
        if let Some(el) = scroller.get() {
            let (left, width) = (el.scroll_left(), el.client_width());
            if x(step) > left + width - COL_W || x(step) < left + COL_W {
                el.set_scroll_left((x(step) - width * 3 / 5).max(0));
            }
        }
    });
    view! {
        <section class="card timeline" aria-labelledby="timeline-h">
            <h2 id="timeline-h" class="sr-only">{move || ctx.t().timeline}</h2>
            <div class="tl">
                <ul class="lanes">{lanes}</ul>
                <div class="tl-scroll" node_ref=scroller tabindex="0" role="img" aria-label=label on:click=on_click>
                    <div class="tl-svg" node_ref=drawing_el inner_html=drawing></div>
                </div>
            </div>
        </section>
    }
}

/// The whole drawing for `step`, with the current step's messages `frac` of the way along.
pub fn svg(t: &Trace, step: usize, frac: f64, lang: Lang) -> String {
    let step = step.min(t.last());
    let lanes = &t.steps[0].view.lanes;
    let (w, h) = (x(t.last()) + COL_W, TOP + lanes.len() as i32 * LANE_H + 6);
    let mut s = String::with_capacity(8 * 1024);
    let _ = write!(
        s,
        "<svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" aria-hidden=\"true\">\
         <defs><pattern id=\"hatch\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">\
         <rect width=\"8\" height=\"8\" class=\"hatch-bg\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" class=\"hatch-line\"/></pattern>\
         <marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">\
         <path d=\"M0,0 L10,5 L0,10 z\" class=\"head\"/></marker></defs>"
    );
    for (l, lane) in lanes.iter().enumerate() {
        let band = if l % 2 == 0 { "band" } else { "band alt" };
        let line = if lane.durable { "durable" } else { "volatile" };
        let top = TOP + l as i32 * LANE_H;
        let _ = write!(
            s,
            "<rect x=\"0\" y=\"{top}\" width=\"{w}\" height=\"{LANE_H}\" class=\"{band}\"/>\
             <line x1=\"0\" x2=\"{w}\" y1=\"{}\" y2=\"{}\" class=\"lane-line {line}\"/>",
            y(l),
            y(l)
        );
    }
    down_intervals(&mut s, t, lanes.len(), step);
    for k in 0..=t.last() {
        let class = if k == step {
            "col current"
        } else if k > step {
            "col future"
        } else {
            "col"
        };
        let _ = write!(
            s,
            "<g class=\"{class}\"><rect x=\"{}\" y=\"0\" width=\"{COL_W}\" height=\"{h}\" class=\"hit\"/>\
             <text x=\"{}\" y=\"17\" class=\"tick\">{k}</text><title>{k}: {}</title></g>",
            x(k) - COL_W / 2,
            x(k),
            escape(t.steps[k].info.title.get(lang))
        );
    }
    for k in 1..=step {
        step_marks(
            &mut s,
            &t.steps[k],
            k,
            if k == step { frac } else { 1.0 },
            lang,
        );
    }
    s.push_str("</svg>");
    s
}

/// Hatched bands over a lane while its actor is down, up to the current step.
fn down_intervals(s: &mut String, t: &Trace, lanes: usize, step: usize) {
    for l in 0..lanes {
        let mut start = None;
        for k in 0..=step + 1 {
            let down = k <= step && t.steps[k].view.lanes.get(l).is_some_and(|v| v.down);
            match (down, start) {
                (true, None) => start = Some(k),
                (false, Some(a)) => {
                    let b = k.min(step);
                    let width = (x(b) - x(a)).max(14);
                    let top = TOP + l as i32 * LANE_H + 4;
                    let _ = write!(
                        s,
                        "<rect x=\"{}\" y=\"{top}\" width=\"{width}\" height=\"{}\" class=\"down\" fill=\"url(#hatch)\"/>",
                        x(a),
                        LANE_H - 8
                    );
                    start = None;
                }
                _ => {}
            }
        }
    }
}

/// One step's arrows and marks. `frac` < 1 draws the message part-way along its arrow and
/// fades the marks in as it arrives.
fn step_marks(s: &mut String, step: &Step, k: usize, frac: f64, lang: Lang) {
    let ease = frac * frac * (3.0 - 2.0 * frac);
    let arrived = frac >= 1.0;
    for a in &step.info.arrows {
        let (x1, y1) = (x(k) - COL_W * 4 / 5, y(a.from));
        let (x2, y2) = (x(k) - 12, y(a.to));
        let hx = x1 + ((x2 - x1) as f64 * ease) as i32;
        let hy = y1 + ((y2 - y1) as f64 * ease) as i32;
        let class = match a.kind {
            ArrowKind::Message => "msg",
            ArrowKind::Duplicate => "msg dup",
            ArrowKind::Lost => "msg lost",
        };
        let _ = write!(
            s,
            "<g class=\"{class}\"><line x1=\"{x1}\" y1=\"{y1}\" x2=\"{hx}\" y2=\"{hy}\""
        );
        if arrived {
            let (mx, my) = ((x1 + x2) / 2 + 4, (y1 + y2) / 2 - 4);
            let _ = write!(
                s,
                " marker-end=\"url(#head)\"/><text x=\"{mx}\" y=\"{my}\" class=\"msg-label\">{}</text></g>",
                escape(&a.label)
            );
        } else {
            let _ = write!(
                s,
                "/><circle cx=\"{hx}\" cy=\"{hy}\" r=\"5\" class=\"dot\"/></g>"
            );
        }
    }
    // Marks appear as the message lands: invisible for the first 60 % of the motion.
    let percent = if arrived {
        100
    } else {
        (((frac - 0.6) / 0.4).clamp(0.0, 1.0) * 100.0) as i32
    };
    for m in &step.info.marks {
        let _ = write!(
            s,
            "<g class=\"mark {}\" opacity=\"{}.{:02}\"><circle cx=\"{}\" cy=\"{}\" r=\"11\"/>\
             <text x=\"{}\" y=\"{}\" class=\"glyph\">{}</text><title>{}</title></g>",
            m.kind.css(),
            percent / 100,
            percent % 100,
            x(k),
            y(m.lane),
            x(k),
            y(m.lane) + 5,
            m.kind.glyph(),
            escape(m.label.get(lang))
        );
    }
}

/// Escapes text for use inside SVG markup.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios;

    fn trace() -> Trace {
        scenarios::all()[0].trace(0, &[0, 0, 1])
    }

    #[test]
    fn drawing_is_a_pure_function_of_step_and_fraction() {
        let t = trace();
        assert_eq!(svg(&t, 3, 0.5, Lang::En), svg(&t, 3, 0.5, Lang::En));
        assert_ne!(
            svg(&t, 3, 0.5, Lang::En),
            svg(&t, 3, 1.0, Lang::En),
            "motion shows"
        );
        // A finished step draws the same whether reached by playing or by scrubbing back.
        assert_eq!(svg(&t, 3, 1.0, Lang::En), svg(&t, 3, 1.0, Lang::En));
        assert!(svg(&t, 3, 1.0, Lang::En).contains("class=\"mark crash\""));
        assert!(
            !svg(&t, 2, 1.0, Lang::En).contains("class=\"mark crash\""),
            "the future is not drawn"
        );
    }

    #[test]
    fn a_down_actor_is_hatched_until_it_restarts() {
        let t = trace();
        assert!(svg(&t, 3, 1.0, Lang::En).contains("class=\"down\""));
        assert!(!svg(&t, 2, 1.0, Lang::En).contains("class=\"down\""));
    }

    #[test]
    fn clicks_map_to_columns() {
        assert_eq!(step_at(0, 10), 0);
        assert_eq!(step_at(x(3), 10), 3);
        assert_eq!(step_at(x(3) + COL_W / 2 - 1, 10), 3);
        assert_eq!(step_at(x(99), 10), 10);
    }

    #[test]
    fn markup_is_escaped() {
        assert_eq!(escape("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
    }
}
