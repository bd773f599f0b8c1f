//! A small element tree built by pure functions and turned into DOM nodes with
//! `createElement`, `setAttribute` and text nodes: no HTML is ever parsed, so nothing the engine,
//! the URL or a file says can become markup. Parts of the page that change as a whole (the
//! timeline, the tables, the buttons, the invariants, the header) are drawn this way; as typed
//! Leptos views they cost several times the bundle (see ARCHITECTURE.md).

use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

const SVG_NS: &str = "http://www.w3.org/2000/svg";

#[derive(Clone, Debug, PartialEq)]
pub enum Child {
    El(Node),
    Text(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    tag: &'static str,
    svg: bool,
    attrs: Vec<(&'static str, String)>,
    children: Vec<Child>,
}

impl Node {
    /// An HTML element.
    pub fn el(tag: &'static str) -> Node {
        Node {
            tag,
            svg: false,
            attrs: Vec::new(),
            children: Vec::new(),
        }
    }

    /// An SVG element (created in the SVG namespace).
    pub fn svg(tag: &'static str) -> Node {
        Node {
            svg: true,
            ..Node::el(tag)
        }
    }

    pub fn attr(mut self, name: &'static str, value: impl ToString) -> Node {
        self.attrs.push((name, value.to_string()));
        self
    }

    pub fn child(mut self, node: Node) -> Node {
        self.children.push(Child::El(node));
        self
    }

    pub fn text(mut self, text: impl Into<String>) -> Node {
        self.children.push(Child::Text(text.into()));
        self
    }

    pub fn push(&mut self, node: Node) {
        self.children.push(Child::El(node));
    }

    pub fn push_text(&mut self, text: impl Into<String>) {
        self.children.push(Child::Text(text.into()));
    }

    fn build(&self, doc: &web_sys::Document) -> Option<web_sys::Element> {
        let el = if self.svg {
            doc.create_element_ns(Some(SVG_NS), self.tag).ok()?
        } else {
            doc.create_element(self.tag).ok()?
        };
        for (name, value) in &self.attrs {
            let _ = el.set_attribute(name, value);
        }
        for child in &self.children {
            let _ = match child {
                Child::El(node) => node.build(doc).map(|c| el.append_child(&c)),
                Child::Text(text) => Some(el.append_child(&doc.create_text_node(text))),
            };
        }
        Some(el)
    }
}

/// Replaces the children of `container` with `nodes`.
pub fn mount(container: &web_sys::Element, nodes: &[Node]) {
    let Some(doc) = container.owner_document() else {
        return;
    };
    container.set_text_content(None);
    for node in nodes {
        if let Some(el) = node.build(&doc) {
            let _ = container.append_child(&el);
        }
    }
}

/// A `<div>` whose children are redrawn from `draw` whenever what it reads changes.
pub fn drawn(class: &'static str, draw: impl Fn() -> Vec<Node> + 'static) -> impl IntoView {
    let target = NodeRef::<Div>::new();
    Effect::new(move |_| {
        let nodes = draw();
        if let Some(el) = target.get() {
            mount(el.unchecked_ref(), &nodes);
        }
    });
    view! { <div class=class node_ref=target></div> }
}

/// Serialises a tree as HTML, for tests and for reading it in a failure message.
#[cfg(test)]
pub fn html(nodes: &[Node]) -> String {
    markup(nodes)
}

/// Serialises a tree as markup (HTML, or an SVG document for the export), every text escaped.
pub fn markup(nodes: &[Node]) -> String {
    fn esc(s: &str) -> String {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    }
    fn write(out: &mut String, n: &Node) {
        out.push('<');
        out.push_str(n.tag);
        for (k, v) in &n.attrs {
            out.push_str(&format!(" {k}=\"{}\"", esc(v)));
        }
        out.push('>');
        for c in &n.children {
            match c {
                Child::El(e) => write(out, e),
                Child::Text(t) => out.push_str(&esc(t)),
            }
        }
        out.push_str(&format!("</{}>", n.tag));
    }
    let mut out = String::new();
    for n in nodes {
        write(&mut out, n);
    }
    out
}
