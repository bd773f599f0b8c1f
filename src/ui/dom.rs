//! A small element tree built by pure functions and turned into DOM nodes with
//! `createElement`, `setAttribute` and text nodes: no HTML is ever parsed, so nothing the engine,
//! the URL or a file says can become markup. Parts of the page that change as a whole (the
//! timeline, the tables, the buttons, the invariants, the header) are drawn this way; as typed
//! Leptos views they cost several times the bundle (BENCHMARKS.md, "Design decisions, measured").

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
    /// Replaced rather than patched when it differs from what was drawn before ([`patched`]):
    /// for an element whose CSS animation must start again.
    fresh: bool,
}

impl Node {
    /// An HTML element.
    pub fn el(tag: &'static str) -> Node {
        Node {
            tag,
            svg: false,
            attrs: Vec::new(),
            children: Vec::new(),
            fresh: false,
        }
    }

    /// An SVG element (created in the SVG namespace).
    pub fn svg(tag: &'static str) -> Node {
        Node {
            svg: true,
            ..Node::el(tag)
        }
    }

    /// Rectangles `(x, y, width, height)` as one SVG path of class `class`. A long run draws
    /// hundreds of boxes or bars: as one element per class, scrubbing lays out and patches a
    /// few elements instead of one per box (BENCHMARKS.md, "Scrubbing a long run").
    pub fn boxes(class: impl ToString, rects: impl IntoIterator<Item = [u64; 4]>) -> Node {
        use std::fmt::Write;
        let mut d = String::new();
        for [x, y, w, h] in rects {
            let _ = write!(d, "M{x} {y}h{w}v{h}h-{w}z");
        }
        Node::svg("path").attr("class", class).attr("d", d)
    }

    pub fn attr(mut self, name: &'static str, value: impl ToString) -> Node {
        self.attrs.push((name, value.to_string()));
        self
    }

    /// Writes what the control does ([`super::cmd::Cmd`]), for its panel's delegated listener.
    pub fn cmd(self, c: super::cmd::Cmd) -> Node {
        self.attr("data-cmd", c.encode())
    }

    /// Marks the element to be drawn anew whenever it changes (see the field).
    pub fn fresh(mut self) -> Node {
        self.fresh = true;
        self
    }

    pub fn child(mut self, node: Node) -> Node {
        self.children.push(Child::El(node));
        self
    }

    pub fn children(mut self, nodes: impl IntoIterator<Item = Node>) -> Node {
        self.children.extend(nodes.into_iter().map(Child::El));
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

/// Like [`drawn`], for large drawings that change a little at a time (the timeline's still
/// layer, thousands of elements on a long run): the tree drawn last time is kept, and the DOM
/// is brought to the new one in place, touching only the attributes, texts and elements that
/// differ. Nothing here may hold state the tree does not (a form control's value, an animation
/// that should restart) unless it is marked [`Node::fresh`]; the rest use [`drawn`], which
/// replaces everything.
pub fn patched(class: &'static str, draw: impl Fn() -> Vec<Node> + 'static) -> impl IntoView {
    let target = NodeRef::<Div>::new();
    Effect::new(move |drawn_before: Option<Option<Vec<Node>>>| {
        let nodes = draw();
        let el = target.get()?;
        let el: &web_sys::Element = el.unchecked_ref();
        match (drawn_before.flatten(), el.owner_document()) {
            (Some(old), Some(doc)) => {
                let old: Vec<Part> = old.iter().map(Part::El).collect();
                let new: Vec<Part> = nodes.iter().map(Part::El).collect();
                patch_list(&doc, el, &old, &new);
            }
            _ => mount(el, &nodes),
        }
        Some(nodes)
    });
    view! { <div class=class node_ref=target></div> }
}

/// A child seen by reference, for comparing two trees without copying them.
#[derive(Clone, Copy, PartialEq)]
enum Part<'a> {
    El(&'a Node),
    Text(&'a str),
}

impl<'a> Part<'a> {
    fn of(child: &'a Child) -> Part<'a> {
        match child {
            Child::El(node) => Part::El(node),
            Child::Text(text) => Part::Text(text),
        }
    }

    fn build(self, doc: &web_sys::Document) -> Option<web_sys::Node> {
        match self {
            Part::El(node) => node.build(doc).map(Into::into),
            Part::Text(text) => Some(doc.create_text_node(text).into()),
        }
    }
}

/// Brings `parent`'s children, drawn from `old`, to `new`: equal children are skipped, elements
/// of the same tag are patched, anything else is replaced; the tail is appended or removed.
fn patch_list(doc: &web_sys::Document, parent: &web_sys::Node, old: &[Part], new: &[Part]) {
    let kids = parent.child_nodes();
    if kids.length() as usize != old.len() {
        // Not what was drawn (should not happen): draw it afresh.
        parent.set_text_content(None);
        for part in new {
            if let Some(node) = part.build(doc) {
                let _ = parent.append_child(&node);
            }
        }
        return;
    }
    for (i, (was, now)) in old.iter().zip(new).enumerate() {
        if was == now {
            continue;
        }
        let Some(dom) = kids.item(i as u32) else {
            continue;
        };
        match (was, now) {
            (Part::El(a), Part::El(b)) if a.tag == b.tag && a.svg == b.svg && !b.fresh => {
                if let Some(el) = dom.dyn_ref::<web_sys::Element>() {
                    patch_element(doc, el, a, b);
                }
            }
            (Part::Text(_), Part::Text(text)) => dom.set_node_value(Some(text)),
            _ => {
                if let Some(fresh) = now.build(doc) {
                    let _ = parent.replace_child(&fresh, &dom);
                }
            }
        }
    }
    for i in (new.len()..old.len()).rev() {
        if let Some(dom) = kids.item(i as u32) {
            let _ = parent.remove_child(&dom);
        }
    }
    for part in new.iter().skip(old.len()) {
        if let Some(node) = part.build(doc) {
            let _ = parent.append_child(&node);
        }
    }
}

fn patch_element(doc: &web_sys::Document, el: &web_sys::Element, old: &Node, new: &Node) {
    for (name, value) in &new.attrs {
        if !old.attrs.iter().any(|(n, v)| n == name && v == value) {
            let _ = el.set_attribute(name, value);
        }
    }
    for (name, _) in &old.attrs {
        if !new.attrs.iter().any(|(n, _)| n == name) {
            let _ = el.remove_attribute(name);
        }
    }
    // Not compared as a whole first: `patch_list` compares child by child, and that is the
    // only deep comparison each subtree gets on the way down.
    let old: Vec<Part> = old.children.iter().map(Part::of).collect();
    let new: Vec<Part> = new.children.iter().map(Part::of).collect();
    patch_list(doc, el, &old, &new);
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

#[cfg(all(test, target_arch = "wasm32"))]
mod browser_tests {
    use super::*;
    use crate::scenarios;
    use crate::sim::Lang;
    use crate::ui::timeline;
    use wasm_bindgen_test::*;

    wasm_bindgen_test_configure!(run_in_browser);

    fn host() -> web_sys::Element {
        document().create_element("div").unwrap()
    }

    /// The DOM under `node` as text: tags, attributes in order, texts (read back, not parsed).
    fn dom(node: &web_sys::Node) -> String {
        let mut out = String::new();
        let kids = node.child_nodes();
        for i in 0..kids.length() {
            let Some(kid) = kids.item(i) else { continue };
            match kid.dyn_ref::<web_sys::Element>() {
                Some(el) => {
                    out.push_str(&format!("<{}", el.tag_name()));
                    for name in el.get_attribute_names().iter() {
                        let name = name.as_string().unwrap();
                        let value = el.get_attribute(&name).unwrap_or_default();
                        out.push_str(&format!(" {name}={value:?}"));
                    }
                    out.push('>');
                    out.push_str(&dom(&kid));
                    out.push_str("</>");
                }
                None => out.push_str(&format!("{:?}", kid.node_value().unwrap_or_default())),
            }
        }
        out
    }

    /// Patching from each drawing to the next leaves exactly what mounting the next draws.
    #[wasm_bindgen_test]
    fn patching_draws_what_a_fresh_mount_draws() {
        let all = scenarios::all();
        let short = all[0].trace(0, &[0, 0, 1]);
        let long = all[1].trace(0, &[]);
        let mut drawings: Vec<Vec<Node>> = Vec::new();
        for (t, step, lang) in [
            (&short, 0, Lang::En),
            (&short, 3, Lang::En),
            (&short, 4, Lang::En),
            (&short, short.last(), Lang::En),
            (&short, 2, Lang::En),
            (&short, 2, Lang::Zh),
            (&long, 5, Lang::Zh),
            (&long, long.last(), Lang::En),
            (&short, 1, Lang::En),
        ] {
            let lay = timeline::Layout::new(t, timeline::DEFAULT_WIDTH, timeline::Zoom::Fit, step);
            drawings.push(vec![timeline::base(t, step, lang, &lay)]);
        }
        // Text becomes an element and back, attributes come and go, lists grow and shrink.
        let p = |n: Node| vec![Node::el("div").attr("id", "x").child(n)];
        drawings.push(p(Node::el("p").text("a")));
        drawings.push(p(Node::el("p").child(Node::el("b").text("a")).text("c")));
        drawings.push(p(Node::el("p").attr("class", "k").text("a")));
        drawings.push(p(Node::el("p").text("a")));
        drawings.push(p(Node::el("p").attr("class", "k").text("a")));
        drawings.push(p(Node::svg("g").attr("class", "k")));
        drawings.push(vec![]);
        drawings.push(p(Node::el("p").text("z")));

        let patched = host();
        mount(&patched, &drawings[0]);
        let doc = document();
        for pair in drawings.windows(2) {
            let old: Vec<Part> = pair[0].iter().map(Part::El).collect();
            let new: Vec<Part> = pair[1].iter().map(Part::El).collect();
            patch_list(&doc, &patched, &old, &new);
            let fresh = host();
            mount(&fresh, &pair[1]);
            assert_eq!(dom(&patched), dom(&fresh));
        }
    }

    /// A changed element marked fresh is a new DOM node (its animation starts again); an
    /// unmarked one is patched in place.
    #[wasm_bindgen_test]
    fn a_fresh_element_is_drawn_anew() {
        let row = |text: &str| Node::el("p").attr("class", "changed").text(text);
        for (fresh, kept) in [(true, false), (false, true)] {
            let el = host();
            let first = vec![row("a")];
            mount(&el, &first);
            let before = el.first_element_child().unwrap();
            let second = [if fresh { row("b").fresh() } else { row("b") }];
            patch_list(
                &document(),
                &el,
                &[Part::El(&first[0])],
                &[Part::El(&second[0])],
            );
            assert_eq!(before.is_same_node(el.first_child().as_ref()), kept);
            assert_eq!(el.text_content().unwrap(), "b");
        }
    }

    /// An unchanged element is the same DOM node afterwards: nothing was rebuilt.
    #[wasm_bindgen_test]
    fn a_step_keeps_the_columns_it_does_not_change() {
        let t = scenarios::all()[0].trace(0, &[0, 0, 1]);
        let el = host();
        let lay =
            |step| timeline::Layout::new(&t, timeline::DEFAULT_WIDTH, timeline::Zoom::Fit, step);
        let first = vec![timeline::base(&t, 2, Lang::En, &lay(2))];
        mount(&el, &first);
        let col = |el: &web_sys::Element| el.query_selector(".col:first-child").unwrap().unwrap();
        let before = col(&el);
        let second = [timeline::base(&t, 3, Lang::En, &lay(3))];
        let old: Vec<Part> = first.iter().map(Part::El).collect();
        let new: Vec<Part> = second.iter().map(Part::El).collect();
        patch_list(&document(), &el, &old, &new);
        assert!(before.is_same_node(Some(&col(&el))));
        assert_eq!(
            el.query_selector(".col.current text")
                .unwrap()
                .unwrap()
                .text_content(),
            Some("3".into())
        );
    }
}
