//! Transport icons as inline SVG, so they render the same everywhere (no font fallback).

use super::dom::Node;
use leptos::prelude::*;

/// The icons the transport bar uses.
#[derive(Clone, Copy)]
pub enum Icon {
    Start,
    Back,
    Play,
    Pause,
    Forward,
    End,
    Link,
}

fn path(which: Icon) -> &'static str {
    match which {
        Icon::Start => "M6 5h2v14H6zM20 5v14L9 12z",
        Icon::Back => "M18 5v14L7 12z",
        Icon::Play => "M8 5v14l11-7z",
        Icon::Pause => "M7 5h4v14H7zM13 5h4v14h-4z",
        Icon::Forward => "M6 5v14l11-7zM17 5h2v14h-2z",
        Icon::End => "M4 5v14l11-7zM16 5h2v14h-2z",
        Icon::Link => "M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1",
    }
}

/// The same icon as an element tree, for parts drawn with `ui::dom`.
pub fn node(which: Icon) -> Node {
    let (fill, stroke) = if matches!(which, Icon::Link) {
        ("none", "currentColor")
    } else {
        ("currentColor", "none")
    };
    Node::svg("svg")
        .attr("class", "icon")
        .attr("viewBox", "0 0 24 24")
        .attr("width", 20)
        .attr("height", 20)
        .attr("aria-hidden", "true")
        .attr("focusable", "false")
        .child(
            Node::svg("path")
                .attr("d", path(which))
                .attr("fill", fill)
                .attr("stroke", stroke)
                .attr("stroke-width", 2)
                .attr("stroke-linecap", "round"),
        )
}

pub fn icon(which: Icon) -> impl IntoView {
    let d = path(which);
    let stroke = matches!(which, Icon::Link);
    view! {
        <svg class="icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <path d=d fill=if stroke { "none" } else { "currentColor" }
                stroke=if stroke { "currentColor" } else { "none" } stroke-width="2" stroke-linecap="round"/>
        </svg>
    }
}
