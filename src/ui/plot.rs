//! Line charts over time (`StateView::plots`): a queue's length, the age of its oldest message.
//!
//! The curves are SVG stretched to the card's width with strokes that do not scale; the axis
//! numbers, the legend and the one-sentence summary are HTML, readable at any width. Series are
//! told apart by dash pattern and name as well as colour; the summary says the numbers in words.

use super::calls::tone;
use super::dom::Node;
use crate::sim::{grouped, Lang, Plot};

/// The drawing's coordinate system: x in thousandths of the axis, y in thousandths of its height.
const W: u64 = 1000;
const H: u64 = 300;

/// Every plot of the view, each a figure; nothing when there are none.
pub fn plots(plots: &[Plot], lang: Lang) -> Vec<Node> {
    plots.iter().map(|p| plot(p, lang)).collect()
}

fn px(t: u32, end: u32) -> u64 {
    (t as u64 * W / end.max(1) as u64).min(W)
}

fn py(v: u32, max: u32) -> u64 {
    H - (v as u64 * H / max.max(1) as u64).min(H)
}

/// A legend entry: a sample of the line's stroke, then its name and value in words.
fn key(class: String, name: &str, value: u32, unit: &str) -> Node {
    let sample = Node::svg("line")
        .attr("x1", 0)
        .attr("x2", 24)
        .attr("y1", 4)
        .attr("y2", 4)
        .attr("class", class);
    Node::el("li")
        .child(
            Node::svg("svg")
                .attr("class", "plot-key")
                .attr("viewBox", "0 0 24 8")
                .attr("aria-hidden", "true")
                .child(sample),
        )
        .text(format!("{name}: {} {unit}", grouped(value)))
}

pub fn plot(p: &Plot, lang: Lang) -> Node {
    let (end, max) = (p.x_end.max(1), p.y_max.max(1));
    let mut svg = Node::svg("svg")
        .attr("class", "plot-svg")
        .attr("viewBox", format!("0 0 {W} {H}"))
        .attr("preserveAspectRatio", "none")
        .attr("aria-hidden", "true");
    for q in [1, 2, 3] {
        let y = H * q / 4;
        svg.push(
            Node::svg("line")
                .attr("x1", 0)
                .attr("x2", W)
                .attr("y1", y)
                .attr("y2", y)
                .attr("class", "grid"),
        );
    }
    if let Some((v, _)) = &p.limit {
        let y = py(*v, max);
        svg.push(
            Node::svg("line")
                .attr("x1", 0)
                .attr("x2", W)
                .attr("y1", y)
                .attr("y2", y)
                .attr("class", "limit"),
        );
    }
    let mut legend = Node::el("ul").attr("class", "plot-legend");
    for s in &p.series {
        let points: Vec<String> = s
            .points
            .iter()
            .map(|&(t, v)| format!("{},{}", px(t, end), py(v, max)))
            .collect();
        let class = format!(
            "line {}{}",
            tone(s.tone),
            if s.dashed { " dashed" } else { "" }
        );
        svg.push(
            Node::svg("polyline")
                .attr("points", points.join(" "))
                .attr("class", class.clone()),
        );
        let now = s.points.last().map_or(0, |&(_, v)| v);
        legend.push(key(class, s.name.get(lang), now, p.unit.get(lang)));
    }
    if let Some((v, name)) = &p.limit {
        legend.push(key("limit".into(), name.get(lang), *v, p.unit.get(lang)));
    }
    let axis = Node::el("div")
        .attr("class", "span-axis")
        .attr("aria-hidden", "true")
        .child(Node::el("span").text("0 s"))
        .child(Node::el("span").text(format!("{} s", end / 2)))
        .child(Node::el("span").text(format!("{end} s")));
    Node::el("figure")
        .attr("class", "plot")
        .child(
            Node::el("figcaption")
                .child(Node::el("strong").text(p.title.get(lang)))
                .text(" ")
                .text(p.summary.get(lang)),
        )
        .child(
            Node::el("div")
                .attr("class", "plot-box")
                .child(
                    Node::el("span")
                        .attr("class", "plot-top")
                        .attr("aria-hidden", "true")
                        .text(format!("{} {}", grouped(max), p.unit.get(lang))),
                )
                .child(svg),
        )
        .child(axis)
        .child(legend)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Series, Text, Tone};
    use crate::ui::dom::html;

    #[test]
    fn a_plot_scales_its_points_and_names_every_line_in_words() {
        let p = Plot {
            title: Text::new("Queue length", "队列长度"),
            unit: Text::new("orders", "条"),
            x_end: 120,
            y_max: 12_000,
            series: vec![Series {
                name: Text::new("Queued", "排队"),
                points: vec![(0, 0), (60, 9_600), (120, 0)],
                dashed: false,
                tone: Tone::Bad,
            }],
            limit: Some((6_000, Text::new("Limit", "上限"))),
            summary: Text::new("9,600 queued.", "排队 9,600 条。"),
        };
        let out = html(&[plot(&p, Lang::En)]);
        assert!(out.contains(r#"points="0,300 500,60 1000,300""#), "{out}");
        assert!(
            out.contains("Queued: 0 orders"),
            "the value now, in words: {out}"
        );
        assert!(out.contains("Limit: 6,000 orders"), "{out}");
        assert!(out.contains("12,000 orders"), "the top of the axis: {out}");
        let zh = html(&[plot(&p, Lang::Zh)]);
        assert!(zh.contains("排队 9,600 条。"), "{zh}");
    }
}
