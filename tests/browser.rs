//! Component tests in headless Chromium (wasm-bindgen-test): the real <App/> mounted into a
//! fresh element, driven by clicks, read back through the DOM.
#![cfg(target_arch = "wasm32")]

use effectively_once::ui::{App, Opening};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts the app at a scenario's link (the bare address is the home page, which has no player).
fn mount() -> (HtmlElement, impl Sized) {
    window()
        .history()
        .unwrap()
        .replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some("?s=dual-write&lang=en"),
        )
        .unwrap();
    let root: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&root).unwrap();
    let handle =
        leptos::mount::mount_to(root.clone(), || view! { <App opening=Opening::of_link()/> });
    (root, handle)
}

fn find(root: &Element, selector: &str) -> HtmlElement {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("nothing matches {selector}"))
        .unchecked_into()
}

fn button(root: &Element, text: &str) -> HtmlElement {
    let all = root.query_selector_all("button").unwrap();
    for i in 0..all.length() {
        let b: HtmlElement = all.item(i).unwrap().unchecked_into();
        let name = b
            .get_attribute("aria-label")
            .unwrap_or_else(|| b.text_content().unwrap_or_default());
        if name.trim() == text {
            return b;
        }
    }
    panic!("no button named '{text}'");
}

fn text(root: &Element, selector: &str) -> String {
    find(root, selector).text_content().unwrap_or_default()
}

#[wasm_bindgen_test]
async fn every_transport_control_has_its_accessible_name() {
    let (root, _handle) = mount();
    leptos::task::tick().await;
    for name in [
        "Play",
        "Step back",
        "Step forward",
        "Go to start",
        "Go to end",
    ] {
        button(&root, name);
    }
    assert_eq!(
        find(&root, "input[type=range]")
            .get_attribute("aria-label")
            .as_deref(),
        Some("Timeline position")
    );
    assert_eq!(
        find(&root, ".speed select")
            .get_attribute("aria-label")
            .as_deref(),
        Some("Speed")
    );
    root.remove();
}

#[wasm_bindgen_test]
async fn stepping_forward_and_back_restores_the_tables_exactly() {
    let (root, _handle) = mount();
    leptos::task::tick().await;
    let before = text(&root, ".tables");
    assert!(text(&root, ".counter").starts_with("Step 0 of"));
    button(&root, "Step forward").click();
    leptos::task::tick().await;
    assert!(text(&root, ".counter").starts_with("Step 1 of"));
    assert!(text(&root, ".tables").contains("uncommitted"));
    button(&root, "Step back").click();
    leptos::task::tick().await;
    assert_eq!(text(&root, ".tables"), before);
    root.remove();
}

#[wasm_bindgen_test]
async fn a_crash_after_commit_is_shown_as_a_lost_event_and_the_outbox_holds() {
    let (root, _handle) = mount();
    leptos::task::tick().await;
    button(&root, "Step forward").click();
    button(&root, "Step forward").click();
    leptos::task::tick().await;
    button(&root, "⚡ Crash order service").click();
    leptos::task::tick().await;
    assert!(
        text(&root, ".lanes").contains("down"),
        "the crashed lane says so"
    );
    assert!(text(&root, ".tables").contains("lost in the crash"));
    button(&root, "Go to end").click();
    leptos::task::tick().await;
    let panel = text(&root, ".invariants");
    assert!(panel.contains("violated at step"), "{panel}");
    assert!(panel.contains("Order 17"), "{panel}");

    // The same crash on the outbox variant: every invariant holds.
    find(&root, "button[role=radio]:nth-child(3)").click();
    leptos::task::tick().await;
    assert!(text(&root, ".lanes").contains("Relay"));
    button(&root, "Go to start").click();
    button(&root, "Step forward").click();
    button(&root, "Step forward").click();
    leptos::task::tick().await;
    button(&root, "⚡ Crash order service").click();
    button(&root, "Go to end").click();
    leptos::task::tick().await;
    let panel = text(&root, ".invariants");
    assert!(!panel.contains("violated"), "{panel}");
    assert_eq!(root.query_selector_all(".inv.holds").unwrap().length(), 2);
    root.remove();
}
