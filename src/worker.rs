//! The explorer's Web Worker: receives [`explorer::Request`]s, explores exhaustively, and posts
//! progress and the result back as text ([`crate::explorer`]). Exploring takes the worker's
//! thread for as long as it runs, so the page stays responsive, and cancelling is
//! `Worker.terminate()`, which is immediate.

use crate::explorer::{self, Request};
use crate::scenarios::{self, LoadFailed};
use crate::sim::{Bounds, Report};
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

/// Installs the message handler and says "ready".
pub fn serve() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        let reply = reply.clone();
        let post = move |text: String| {
            let _ = reply.post_message(&JsValue::from_str(&text));
        };
        let text = ev.data().as_string().unwrap_or_default();
        let Some(req) = Request::decode(&text) else {
            post(explorer::encode_failure(0, "malformed request"));
            return;
        };
        // A task of its own: the worker's split build fetches the scenario's module first.
        wasm_bindgen_futures::spawn_local(explore(req, post));
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    let _ = scope.post_message(&JsValue::from_str("ready"));
}

/// Explores as `req` asks and posts its progress and its report (or why there is none).
async fn explore(req: Request, post: impl Fn(String)) {
    let reply = match report(&req, &post).await {
        Ok(Some((r, ms))) => explorer::encode_report(req.id, &r, ms),
        Ok(None) => explorer::encode_failure(req.id, "no such scenario"),
        Err(_) => explorer::encode_failure(req.id, explorer::NOT_FETCHED),
    };
    post(reply);
}

/// The exploration `req` asks for and how long it took, timed from when the scenario's module
/// is here.
async fn report(
    req: &Request,
    post: &impl Fn(String),
) -> Result<Option<(Report, u64)>, LoadFailed> {
    scenarios::fetch_explorer(req.scenario).await?;
    let start = js_sys::Date::now();
    let mut progress = |states: usize| post(explorer::encode_progress(req.id, states));
    let report = scenarios::fetch_and_explore_at(
        req.scenario,
        req.variant,
        Some(req.budget),
        &req.knobs,
        Bounds::default(),
        &mut progress,
    )
    .await?;
    let ms = (js_sys::Date::now() - start).max(0.0) as u64;
    Ok(report.map(|r| (r, ms)))
}
