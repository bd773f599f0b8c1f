//! The timeline: one swimlane per actor, steps along the time axis, messages as arrows from
//! sender to receiver, marks for commit, publish, rollback, crash and the rest.
//!
//! The SVG is built by [`base`] and [`moving`], pure functions of (trace, step, frac, lang), so
//! playing and scrubbing draw the same frames and the drawing is testable natively. Building
//! markup directly (rather than hundreds of typed view nodes) also keeps the bundle small.
//! Coordinates are whole pixels: integer formatting is all the drawing needs.

use super::app::use_ctx;
use super::dom::{drawn, patched, Node};
use crate::player::PlayerEvent;
use crate::sim::{ArrowKind, Lang, Step, Trace};
use leptos::html::Div;
use leptos::prelude::*;

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
    let still = move || {
        let (step, lang) = (ctx.cursor.get().step, ctx.lang.get());
        vec![ctx.trace.with(|t| base(t, step, lang))]
    };
    let motion = move || {
        let (step, frac, lang) = (ctx.cursor.get().step, ctx.frac.get(), ctx.lang.get());
        vec![ctx.trace.with(|t| moving(t, step, frac, lang))]
    };
    let label = move || {
        let c = ctx.cursor.get();
        format!(
            "{}: {}",
            ctx.t().timeline,
            super::i18n::step_of(ctx.lang.get(), c.step, c.last)
        )
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some(el) = document().query_selector(".tl-svg").ok().flatten() else {
            return;
        };
        let px = ev.client_x() - el.get_bounding_client_rect().left() as i32;
        ctx.dispatch(PlayerEvent::Seek(step_at(
            px,
            ctx.cursor.get_untracked().last,
        )));
    };
    // Keep the current step in view while playing or stepping. After the next frame, so that
    // the drawing (another effect) has its full width when the scroll position is set.
    Effect::new(move |_| {
        let step = ctx.cursor.get().step;
        request_animation_frame(move || {
            if let Some(el) = scroller.get_untracked() {
                let (left, width) = (el.scroll_left(), el.client_width());
                if x(step) > left + width - COL_W || x(step) < left + COL_W {
                    el.set_scroll_left((x(step) - width * 3 / 5).max(0));
                }
            }
        });
    });
    view! {
        <section class="card timeline" aria-labelledby="timeline-h">
            <h2 id="timeline-h" class="sr-only">{move || ctx.t().timeline}</h2>
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

/// The vertical centre of lane `lane`.
pub fn lane_y(lane: usize) -> i32 {
    y(lane)
}

/// The drawing's width and height for trace `t`.
pub fn size(t: &Trace) -> (i32, i32) {
    let lanes = t.steps[0].view.lanes.len() as i32;
    (x(t.last()) + COL_W, TOP + lanes * LANE_H + 6)
}

fn canvas(w: i32, h: i32) -> Node {
    Node::svg("svg")
        .attr("width", w)
        .attr("height", h)
        .attr("viewBox", format!("0 0 {w} {h}"))
        .attr("aria-hidden", "true")
}

/// Everything that stays still during step `step`'s motion: lanes, down intervals, the axis and
/// every earlier step. Redrawn when the step changes, not on every animation frame.
pub fn base(t: &Trace, step: usize, lang: Lang) -> Node {
    let step = step.min(t.last());
    let lanes = &t.steps[0].view.lanes;
    let (w, h) = size(t);
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
    // Four layers, each a group, so that a step's change touches the end of one list and a few
    // attributes ([`patched`]): lanes, down intervals, columns, and the finished steps' marks.
    let mut bands = Node::svg("g");
    for (l, lane) in lanes.iter().enumerate() {
        let band = if l % 2 == 0 { "band" } else { "band alt" };
        let kind = if lane.durable {
            "lane-line durable"
        } else {
            "lane-line volatile"
        };
        bands.push(rect(0, TOP + l as i32 * LANE_H, w, LANE_H).attr("class", band));
        bands.push(line(0, y(l), w, y(l)).attr("class", kind));
    }
    let mut downs = Node::svg("g");
    down_intervals(&mut downs, t, lanes.len(), step);
    let mut cols = Node::svg("g");
    for k in 0..=t.last() {
        let class = if k == step {
            "col current"
        } else if k > step {
            "col future"
        } else {
            "col"
        };
        let title = format!("{k}: {}", t.steps[k].info.title.get(lang));
        cols.push(
            Node::svg("g")
                .attr("class", class)
                .child(rect(x(k) - COL_W / 2, 0, COL_W, h).attr("class", "hit"))
                .child(
                    Node::svg("text")
                        .attr("x", x(k))
                        .attr("y", 17)
                        .attr("class", "tick")
                        .text(k.to_string()),
                )
                .child(Node::svg("title").text(title)),
        );
    }
    let mut marks = Node::svg("g");
    for k in 1..step {
        step_marks(&mut marks, &t.steps[k], k, 1.0, lang, false);
    }
    canvas(w, h)
        .child(Node::svg("defs").child(hatch).child(head))
        .child(bands)
        .child(downs)
        .child(cols)
        .child(marks)
}

/// The current step's messages, `frac` of the way along, and its marks fading in; laid over
/// [`base`] and redrawn on every animation frame (a handful of elements).
pub fn moving(t: &Trace, step: usize, frac: f64, lang: Lang) -> Node {
    let step = step.min(t.last());
    let (w, h) = size(t);
    let mut svg = canvas(w, h);
    if step > 0 {
        step_marks(&mut svg, &t.steps[step], step, frac, lang, true);
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

/// Hatched bands over a lane while its actor is down, up to the current step.
fn down_intervals(svg: &mut Node, t: &Trace, lanes: usize, step: usize) {
    for l in 0..lanes {
        let mut start = None;
        for k in 0..=step + 1 {
            let down = k <= step && t.steps[k].view.lanes.get(l).is_some_and(|v| v.down);
            match (down, start) {
                (true, None) => start = Some(k),
                (false, Some(a)) => {
                    let width = (x(k.min(step)) - x(a)).max(14);
                    let top = TOP + l as i32 * LANE_H + 4;
                    svg.push(
                        rect(x(a), top, width, LANE_H - 8)
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

/// Step `k`'s arrow from lane `from` to lane `to`: where it starts and where its head ends.
fn arrow_ends(from: usize, to: usize, k: usize) -> ((i32, i32), (i32, i32)) {
    ((x(k) - COL_W * 4 / 5, y(from)), (x(k) - 12, y(to)))
}

/// Where the label of step `k`'s arrow from lane `from` to lane `to` is anchored (its text's
/// start, 4 px off the line): the arrow's middle, unless that is on a lane (an arrow over an even
/// number of lanes), where the lane's marks would cover it; then half a lane back towards the
/// sender, still on the arrow, between two lanes.
fn label_at(from: usize, to: usize, k: usize) -> (i32, i32) {
    let ((x1, y1), (x2, y2)) = arrow_ends(from, to, k);
    let (mut mx, mut my) = ((x1 + x2) / 2, (y1 + y2) / 2);
    let lanes = from.abs_diff(to);
    if lanes >= 2 && lanes.is_multiple_of(2) {
        mx -= (x2 - x1) * (LANE_H / 2) / (y2 - y1).abs();
        my += if y2 > y1 { -LANE_H / 2 } else { LANE_H / 2 };
    }
    (mx + 4, my - 4)
}

/// One step's arrows and marks. `frac` < 1 draws the message part-way along its arrow and
/// fades the marks in as it arrives.
fn step_marks(svg: &mut Node, step: &Step, k: usize, frac: f64, lang: Lang, current: bool) {
    let ease = frac * frac * (3.0 - 2.0 * frac);
    let arrived = frac >= 1.0;
    for a in &step.info.arrows {
        let ((x1, y1), (x2, y2)) = arrow_ends(a.from, a.to, k);
        let hx = x1 + ((x2 - x1) as f64 * ease) as i32;
        let hy = y1 + ((y2 - y1) as f64 * ease) as i32;
        let class = match a.kind {
            ArrowKind::Message => "msg",
            ArrowKind::Duplicate => "msg dup",
            ArrowKind::Lost => "msg lost",
        };
        let mut g = Node::svg("g").attr("class", class);
        if arrived {
            let (mx, my) = label_at(a.from, a.to, k);
            g.push(line(x1, y1, hx, hy).attr("marker-end", "url(#head)"));
            g.push(
                Node::svg("text")
                    .attr("x", mx)
                    .attr("y", my)
                    .attr("class", "msg-label")
                    .text(a.label.clone()),
            );
        } else {
            g.push(line(x1, y1, hx, hy));
            g.push(
                Node::svg("circle")
                    .attr("cx", hx)
                    .attr("cy", hy)
                    .attr("r", 5)
                    .attr("class", "dot"),
            );
        }
        svg.push(g);
    }
    // Marks appear as the message lands: invisible for the first 60 % of the motion.
    let percent = if arrived {
        100
    } else {
        (((frac - 0.6) / 0.4).clamp(0.0, 1.0) * 100.0) as i32
    };
    for m in &step.info.marks {
        svg.push(
            Node::svg("g")
                .attr(
                    "class",
                    format!("mark {}{}", m.kind.css(), if current { " now" } else { "" }),
                )
                .attr("opacity", format!("{}.{:02}", percent / 100, percent % 100))
                .child(
                    Node::svg("circle")
                        .attr("cx", x(k))
                        .attr("cy", y(m.lane))
                        .attr("r", 11),
                )
                .child(
                    Node::svg("text")
                        .attr("x", x(k))
                        .attr("y", y(m.lane) + 5)
                        .attr("class", "glyph")
                        .text(m.kind.glyph()),
                )
                .child(Node::svg("title").text(m.label.get(lang))),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios;

    fn draw(t: &Trace, step: usize, frac: f64) -> String {
        crate::ui::dom::html(&[base(t, step, Lang::En), moving(t, step, frac, Lang::En)])
    }

    fn trace() -> Trace {
        scenarios::all()[0].trace(0, &[0, 0, 1])
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
            let (lx, ly) = label_at(from, to, 5);
            let (mx, my) = (lx - 4, ly + 4);
            // Between two lanes (lane centres are half a lane below each band's top).
            assert_eq!((my - TOP).rem_euclid(LANE_H), 0, "{from}→{to}");
            // On the segment from the sender to the receiver.
            let ((x1, y1), (x2, y2)) = arrow_ends(from, to, 5);
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
        // A finished step draws the same whether reached by playing or by scrubbing back.
        assert_eq!(draw(&t, 3, 1.0), draw(&t, 3, 1.0));
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
        let still = crate::ui::dom::html(&[base(&t, 3, Lang::En)]);
        assert!(
            !still.contains("mark crash"),
            "the moving step is not in the still layer"
        );
        assert!(still.contains("COMMIT"), "earlier steps are");
        let frame = crate::ui::dom::html(&[moving(&t, 3, 0.9, Lang::En)]);
        assert!(frame.contains("mark crash now") && !frame.contains("COMMIT"));
        assert!(!crate::ui::dom::html(&[moving(&t, 0, 0.5, Lang::En)]).contains("<g"));
    }

    #[test]
    fn a_down_actor_is_hatched_until_it_restarts() {
        let t = trace();
        assert!(draw(&t, 3, 1.0).contains("class=\"down\""));
        assert!(!draw(&t, 2, 1.0).contains("class=\"down\""));
    }

    #[test]
    fn clicks_map_to_columns() {
        assert_eq!(step_at(0, 10), 0);
        assert_eq!(step_at(x(3), 10), 3);
        assert_eq!(step_at(x(3) + COL_W / 2 - 1, 10), 3);
        assert_eq!(step_at(x(99), 10), 10);
    }
}
