//! The few places that touch browser APIs directly: URL, clipboard, media queries, the clock,
//! and the panic screen. Every call tolerates a missing API instead of panicking.

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

pub fn now_ms() -> f64 {
    js_sys::Date::now()
}

pub fn location_search() -> String {
    window().location().search().unwrap_or_default()
}

/// Replaces the current history entry, so that stepping and playing never flood history.
pub fn replace_query(query: &str) {
    if let Ok(history) = window().history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(query));
    }
}

/// Adds a history entry: Back returns to the one before.
pub fn push_query(query: &str) {
    if let Ok(history) = window().history() {
        let _ = history.push_state_with_url(&JsValue::NULL, "", Some(query));
    }
}

pub fn reload() {
    let _ = window().location().reload();
}

/// The page's address without its query: origin and path.
pub fn location_base() -> String {
    let loc = window().location();
    format!(
        "{}{}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default()
    )
}

/// Opens the `<dialog>` with this id as a modal (focus moves into it; Escape closes it).
pub fn show_modal(id: &str) {
    if let Some(d) = document()
        .get_element_by_id(id)
        .and_then(|e| e.dyn_into::<web_sys::HtmlDialogElement>().ok())
    {
        let _ = d.show_modal();
    }
}

/// Closes the `<dialog>` with this id.
pub fn close_dialog(id: &str) {
    if let Some(d) = document()
        .get_element_by_id(id)
        .and_then(|e| e.dyn_into::<web_sys::HtmlDialogElement>().ok())
    {
        d.close();
    }
}

pub fn location_href() -> String {
    window().location().href().unwrap_or_default()
}

pub fn prefers_reduced_motion() -> bool {
    matches_media("(prefers-reduced-motion: reduce)")
}

fn matches_media(query: &str) -> bool {
    window()
        .match_media(query)
        .ok()
        .flatten()
        .is_some_and(|m| m.matches())
}

pub fn browser_language() -> Option<String> {
    window().navigator().language()
}

/// Writes `text` to the clipboard and reports whether it worked. Plain promise callbacks
/// rather than a future: the async runtime would cost the bundle a few kilobytes.
pub fn copy_text(text: &str, done: impl Fn(bool) + 'static) {
    let promise = window().navigator().clipboard().write_text(text);
    let done = std::rc::Rc::new(done);
    let on_fail = done.clone();
    let ok = Closure::once(move |_: JsValue| done(true));
    let fail = Closure::once(move |_: JsValue| on_fail(false));
    let _ = promise.then2(&ok, &fail);
    // Each callback frees itself when called; the one never called is a few bytes per click.
    ok.forget();
    fail.forget();
}

/// Fetches `url` (a file of this site) as text: `done` gets the body, or a short reason in both
/// languages (the HTTP status, or that the network failed). Promise callbacks, as for the
/// clipboard.
pub fn fetch_text(url: &str, done: impl FnOnce(Result<String, crate::sim::Text>) + 'static) {
    use crate::sim::Text;
    type Done = std::rc::Rc<std::cell::RefCell<Option<Box<dyn FnOnce(Result<String, Text>)>>>>;
    let done: Done = std::rc::Rc::new(std::cell::RefCell::new(Some(Box::new(done))));
    let finish = |done: &Done, r: Result<String, Text>| {
        if let Some(f) = done.borrow_mut().take() {
            f(r);
        }
    };
    let (on_response, on_fail) = (done.clone(), done.clone());
    let response = Closure::once(move |value: JsValue| {
        let Ok(resp) = value.dyn_into::<web_sys::Response>() else {
            return finish(&on_response, Err(Text::new("no response", "没有响应")));
        };
        if !resp.ok() {
            let status = format!("HTTP {}", resp.status());
            return finish(
                &on_response,
                Err(Text::new(status.as_str(), status.as_str())),
            );
        }
        let Ok(body) = resp.text() else {
            return finish(
                &on_response,
                Err(Text::new("unreadable body", "内容无法读取")),
            );
        };
        let (on_text, on_text_fail) = (on_response.clone(), on_response);
        let text = Closure::once(move |v: JsValue| {
            let body = v
                .as_string()
                .ok_or_else(|| Text::new("not text", "不是文本"));
            finish(&on_text, body)
        });
        let text_fail = Closure::once(move |_: JsValue| {
            finish(
                &on_text_fail,
                Err(Text::new("the download broke off", "下载中断")),
            )
        });
        let _ = body.then2(&text, &text_fail);
        text.forget();
        text_fail.forget();
    });
    let fail = Closure::once(move |_: JsValue| {
        finish(&on_fail, Err(Text::new("network error", "网络错误")))
    });
    let _ = window().fetch_with_str(url).then2(&response, &fail);
    // Each callback frees itself when called; the one never called is a few bytes per fetch.
    response.forget();
    fail.forget();
}

/// The value of attribute `name` on the clicked element or its closest ancestor that has it
/// (event delegation for buttons rendered as markup).
pub fn data_attr(ev: &web_sys::Event, name: &str) -> Option<String> {
    let target = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    target
        .closest(&format!("[{name}]"))
        .ok()??
        .get_attribute(name)
}

/// The element matching `selector` at or above `ev`'s target, and where it is on screen (left,
/// top, right, bottom).
pub fn target_place(ev: &web_sys::Event, selector: &str) -> Option<(web_sys::Element, [f64; 4])> {
    let el = ev
        .target()?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest(selector)
        .ok()??;
    let r = el.get_bounding_client_rect();
    Some((el, [r.left(), r.top(), r.right(), r.bottom()]))
}

/// Focuses the first element matching `selector` once the DOM has been updated (a redraw
/// would otherwise drop keyboard focus on the body), without scrolling the page: what the
/// learner watches stays where it is. Only an element entirely off screen is scrolled to, as
/// little as it takes (the sticky player bar is kept clear by `scroll-padding`).
pub fn focus_after_render(selector: impl Into<String>) {
    let selector = selector.into();
    request_animation_frame(move || {
        if let Some(el) = document().query_selector(&selector).ok().flatten() {
            focus_quietly(&el);
        }
    });
}

/// The focused element, if one is (not the body).
pub fn active_element() -> Option<web_sys::Element> {
    document()
        .active_element()
        .filter(|e| e.tag_name() != "BODY")
}

/// Like [`focus_after_render`], but in the microtask after the redraw (Leptos runs its effects
/// in microtasks queued before this one), not a frame later: a key pressed in between would
/// land on the body. For the scenario picker, whose switch may wait for a module.
pub fn focus_after_redraw(selector: &'static str) {
    wasm_bindgen_futures::spawn_local(async move {
        if let Some(el) = document().query_selector(selector).ok().flatten() {
            focus_quietly(&el);
        }
    });
}

fn focus_quietly(el: &web_sys::Element) {
    let Ok(html) = el.clone().dyn_into::<web_sys::HtmlElement>() else {
        return;
    };
    let opts = web_sys::FocusOptions::new();
    opts.set_prevent_scroll(true);
    let _ = html.focus_with_options(&opts);
    let rect = el.get_bounding_client_rect();
    let height = window()
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    if rect.bottom() < 0.0 || rect.top() > height {
        let opts = web_sys::ScrollIntoViewOptions::new();
        opts.set_block(web_sys::ScrollLogicalPosition::Nearest);
        el.scroll_into_view_with_scroll_into_view_options(&opts);
    }
}

/// Calls `width` with the element's inner width now and whenever it changes (a window resize,
/// presenter mode, the layout switching to a phone's). The observer lives as long as the page.
pub fn observe_width(el: &web_sys::Element, width: impl Fn(i32) + 'static) {
    let target = el.clone();
    let report = Closure::<dyn Fn()>::new(move || width(target.client_width()));
    if let Ok(observer) = web_sys::ResizeObserver::new(report.as_ref().unchecked_ref()) {
        observer.observe(el);
    }
    report.forget();
}

/// Calls `near` once, when `el` comes within a screen's height below the viewport (or into it).
pub fn when_near(el: &web_sys::Element, near: impl FnOnce() + 'static) {
    let mut near = Some(near);
    let seen = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        let close = entries.iter().any(|e| {
            e.unchecked_into::<web_sys::IntersectionObserverEntry>()
                .is_intersecting()
        });
        if let Some(near) = near.take_if(|_| close) {
            near();
        }
    });
    let init = web_sys::IntersectionObserverInit::new();
    init.set_root_margin("0px 0px 100% 0px");
    if let Ok(observer) =
        web_sys::IntersectionObserver::new_with_options(seen.as_ref().unchecked_ref(), &init)
    {
        observer.observe(el);
    }
    seen.forget();
}

/// Calls `near` once for each element matching `selector` (as they are now, in document order),
/// when it or one after it comes within a screen's height below the viewport (or into it): a
/// jump to the end of the page passes no element by. One observer for them all. Not shared
/// with [`when_near`]: this one is the home page's alone, so it goes with that part's module,
/// and `when_near` written over it cost the page 364 B.
pub fn each_near(selector: &str, near: impl Fn(&web_sys::Element) + 'static) {
    let Ok(list) = document().query_selector_all(selector) else {
        return;
    };
    let els: Vec<web_sys::Element> = (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into().ok())
        .collect();
    let mut done = vec![false; els.len()];
    let targets = els.clone();
    let seen = Closure::<dyn FnMut(js_sys::Array, web_sys::IntersectionObserver)>::new(
        move |entries: js_sys::Array, observer: web_sys::IntersectionObserver| {
            for e in entries.iter() {
                let e = e.unchecked_into::<web_sys::IntersectionObserverEntry>();
                let at = targets.iter().position(|el| *el == e.target());
                let Some(k) = at.filter(|_| e.is_intersecting()) else {
                    continue;
                };
                for (el, done) in targets.iter().zip(done.iter_mut()).take(k + 1) {
                    if !std::mem::replace(done, true) {
                        observer.unobserve(el);
                        near(el);
                    }
                }
            }
        },
    );
    let init = web_sys::IntersectionObserverInit::new();
    init.set_root_margin("0px 0px 100% 0px");
    if let Ok(observer) =
        web_sys::IntersectionObserver::new_with_options(seen.as_ref().unchecked_ref(), &init)
    {
        els.iter().for_each(|el| observer.observe(el));
    }
    seen.forget();
}

/// Like [`data_attr`], for the element a key was pressed on.
pub fn key_target_attr(ev: &web_sys::KeyboardEvent, name: &str) -> Option<String> {
    let target = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    target.get_attribute(name)
}

pub fn set_document_lang(code: &str) {
    if let Some(root) = document().document_element() {
        let _ = root.set_attribute("lang", code);
    }
}

/// Puts `class` on the root element (the colour scheme: `light`, `dark`; `auto` is no class).
pub fn set_root_class(class: &str) {
    if let Some(root) = document().document_element() {
        if class != "auto" {
            let _ = root.class_list().add_1(class);
        }
    }
}

pub fn set_title(title: &str) {
    document().set_title(title);
}

/// The `content` of `<meta name="{name}">` in index.html: what the build step tells the page
/// (the explorer worker's content-hashed file name).
pub fn meta_content(name: &str) -> Option<String> {
    let selector = format!("meta[name=\"{name}\"]");
    document()
        .query_selector(&selector)
        .ok()
        .flatten()?
        .get_attribute("content")
}

/// Removes the static loading shell from index.html once the app has mounted.
pub fn remove_shell() {
    if let Some(shell) = document().get_element_by_id("shell") {
        shell.remove();
    }
}

/// Replaces a dead page with a visible message and a reload link, and logs the panic's message
/// and location to the console (a stack trace would name nothing: the release build has no names).
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&JsValue::from_str(&info.to_string()));
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Some(body) = doc.body() else { return };
        let screen = crate::ui::dom::Node::el("main")
            .attr("class", "crashed")
            .attr("role", "alert")
            .child(crate::ui::dom::Node::el("h1").text("Something went wrong · 出错了"))
            .child(
                crate::ui::dom::Node::el("p")
                    .text("The app stopped because of a bug. 应用因程序错误而停止。"),
            )
            .child(
                crate::ui::dom::Node::el("p").child(
                    crate::ui::dom::Node::el("a")
                        .attr("href", "")
                        .text("Reload the page · 重新加载"),
                ),
            );
        crate::ui::dom::mount(&body, &[screen]);
    }));
}

/// In place of the loading shell, when the module of the scenario the link shows could not be
/// fetched: what happened and a way to try again (reloading fetches it anew).
pub fn show_load_failure() {
    use crate::ui::dom::Node;
    let Some(shell) = document().get_element_by_id("shell") else {
        return;
    };
    let screen = Node::el("div")
        .attr("class", "notice")
        .attr("role", "alert")
        .child(Node::el("p").text(
            "This scenario could not be loaded: the network is off, or the site was just updated. \
             这个场景未能加载：网络已断开，或网站刚刚更新。",
        ))
        .child(
            Node::el("a")
                .attr("class", "btn primary")
                .attr("href", "")
                .text("Try again · 重试"),
        );
    crate::ui::dom::mount(&shell, &[Node::el("h1").text("Effectively Once"), screen]);
}

/// Offers `text` as a file download named `name`. False if the browser refused.
pub fn download(name: &str, mime: &str, text: &str) -> bool {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else {
        return false;
    };
    download_blob(name, &blob)
}

fn download_blob(name: &str, blob: &web_sys::Blob) -> bool {
    let Ok(url) = web_sys::Url::create_object_url_with_blob(blob) else {
        return false;
    };
    let Some(a) = document()
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    else {
        return false;
    };
    a.set_href(&url);
    a.set_download(name);
    a.click();
    // Revoke after the click has been handled.
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(1),
    );
    true
}

/// Draws an SVG document on a canvas at twice its size and offers it as a PNG download.
pub fn download_png(name: &str, svg: &str) -> bool {
    let Ok(img) = web_sys::HtmlImageElement::new() else {
        return false;
    };
    let name = name.to_string();
    let loaded = img.clone();
    let onload = Closure::once(move || {
        let (w, h) = (loaded.natural_width() * 2, loaded.natural_height() * 2);
        let Some(canvas) = document()
            .create_element("canvas")
            .ok()
            .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        else {
            return;
        };
        canvas.set_width(w);
        canvas.set_height(h);
        let Some(g) = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        let _ = g.draw_image_with_html_image_element_and_dw_and_dh(
            &loaded, 0.0, 0.0, w as f64, h as f64,
        );
        let done = Closure::once(move |blob: Option<web_sys::Blob>| {
            if let Some(blob) = blob {
                download_blob(&name, &blob);
            }
        });
        let _ = canvas.to_blob(done.as_ref().unchecked_ref());
        done.forget();
    });
    img.set_onload(Some(onload.as_ref().unchecked_ref()));
    onload.forget();
    // A data: URL (the page's CSP allows data: images, not blob: ones).
    let src = format!(
        "data:image/svg+xml;charset=utf-8,{}",
        String::from(js_sys::encode_uri_component(svg))
    );
    img.set_src(&src);
    true
}

/// Asks for the whole screen (presenter mode). The browser may refuse (the window is not focused, a policy): the
/// presenter's view works without it, so the refusal is caught rather than left as an
/// unhandled rejection (web-sys' binding drops the promise).
pub fn request_fullscreen() {
    let Some(el) = document().document_element() else {
        return;
    };
    let Some(request) = js_sys::Reflect::get(&el, &JsValue::from_str("requestFullscreen"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    else {
        return;
    };
    if let Some(promise) = request
        .call0(&el)
        .ok()
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok())
    {
        let refused = Closure::once(|_: JsValue| {});
        let _ = promise.catch(&refused);
        refused.forget();
    }
}

/// Opens `url` in the window named `name` (a new one the first time).
pub fn open_window(url: &str, name: &str) {
    let _ = window().open_with_url_and_target(url, name);
}

pub fn exit_fullscreen() {
    if document().fullscreen_element().is_some() {
        document().exit_fullscreen();
    }
}

/// A localStorage value; `Err` when storage is blocked or throws (private modes, policies).
pub fn storage_get(key: &str) -> Result<Option<String>, ()> {
    let storage = window().local_storage().map_err(|_| ())?.ok_or(())?;
    storage.get_item(key).map_err(|_| ())
}

/// Stores a value; false when storage is blocked, full or throws.
pub fn storage_set(key: &str, value: &str) -> bool {
    match window().local_storage() {
        Ok(Some(s)) => s.set_item(key, value).is_ok(),
        _ => false,
    }
}
