//! The explorer's Web Worker: receives [`explorer::Request`]s, explores exhaustively, and posts
//! progress and the result back as text ([`crate::explorer`]). Exploring takes the worker's
//! thread for as long as it runs, so the page stays responsive, and cancelling is
//! `Worker.terminate()`, which is immediate.

use crate::explorer::{self, Request};
use crate::scenarios;
use crate::sim::Bounds;
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

/// Installs the message handler and says "ready".
pub fn serve() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        let post = |text: String| {
            let _ = reply.post_message(&JsValue::from_str(&text));
        };
        let text = ev.data().as_string().unwrap_or_default();
        let Some(req) = Request::decode(&text) else {
            post(explorer::encode_failure(0, "malformed request"));
            return;
        };
        let start = js_sys::Date::now();
        let mut progress = |states: usize| post(explorer::encode_progress(req.id, states));
        let report = scenarios::explore(
            req.scenario,
            req.variant,
            Some(req.budget),
            &req.knobs,
            Bounds::default(),
            &mut progress,
        );
        let ms = (js_sys::Date::now() - start).max(0.0) as u64;
        post(match report {
            Some(r) => explorer::encode_report(req.id, &r, ms),
            None => explorer::encode_failure(req.id, "no such scenario"),
        });
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    let _ = scope.post_message(&JsValue::from_str("ready"));
}
