//! The audience window: a presenter opens a second window of the same page (`audience=<id>`)
//! to share with the room, and keeps the speaker notes and the reveal in their own. The two talk
//! over a BroadcastChannel (same browser, no server): the presenter posts its state (the query
//! string and the step awaiting the room's prediction) whenever it changes, and an audience
//! window that opens says hello and is sent the state at once. The audience window only follows:
//! it has no controls and ignores keys.

use super::app::Ctx;
use super::browser;
use super::present::Presenter;
use crate::player::{parse_query, resolve, without_step, AudienceMsg};
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{BroadcastChannel, MessageEvent};

const CHANNEL: &str = "effectively-once-audience";

/// Which side of the pairing this window is on, provided by context.
#[derive(Clone, Copy)]
pub struct Audience {
    /// This window follows the presenter with this id (`audience=<id>` in its URL).
    following: StoredValue<Option<String>>,
    /// The channel, once open, and the id it speaks for.
    channel: StoredValue<Option<(String, BroadcastChannel)>, LocalStorage>,
}

fn open_channel(on_message: impl FnMut(AudienceMsg) + 'static) -> Option<BroadcastChannel> {
    let channel = BroadcastChannel::new(CHANNEL).ok()?;
    let mut on_message = on_message;
    let handler = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        if let Some(msg) = ev
            .data()
            .as_string()
            .as_deref()
            .and_then(AudienceMsg::decode)
        {
            on_message(msg);
        }
    });
    channel.set_onmessage(Some(handler.as_ref().unchecked_ref()));
    // The handler lives as long as the page.
    handler.forget();
    Some(channel)
}

fn post(channel: &BroadcastChannel, msg: &AudienceMsg) {
    let _ = channel.post_message(&JsValue::from_str(&msg.encode()));
}

fn state(ctx: Ctx, p: Presenter, id: &str) -> AudienceMsg {
    AudienceMsg::State {
        id: id.to_string(),
        predict: p.predict.get_untracked(),
        query: untrack(|| ctx.query(false)),
    }
}

impl Audience {
    /// Sets up either side: with `following`, this window is an audience window (presenter
    /// styles on, hello sent); otherwise it is a page that may open one.
    pub fn provide(ctx: Ctx, p: Presenter, following: Option<String>) -> Audience {
        let a = Audience {
            following: StoredValue::new(following.clone()),
            channel: StoredValue::new_local(None),
        };
        provide_context(a);
        if let Some(id) = following {
            p.on.set(true);
            let mine = id.clone();
            // The run last followed (the query without its step).
            let mut run = String::new();
            let channel = open_channel(move |msg| {
                if let AudienceMsg::State { id, predict, query } = msg {
                    if id == mine {
                        follow(ctx, p, predict, &query, &mut run);
                    }
                }
            });
            if let Some(ch) = &channel {
                post(ch, &AudienceMsg::Hello { id: id.clone() });
            }
            a.channel.set_value(channel.map(|c| (id, c)));
        } else {
            // The presenter's side: post every change while presenting (and only then build
            // the query: outside presenter mode this effect follows nothing but `p.on`).
            Effect::new(move |_| {
                if !p.on.get() {
                    return;
                }
                let query = ctx.query(false);
                let predict = p.predict.get();
                a.channel.with_value(|c| {
                    if let Some((id, ch)) = c {
                        let id = id.clone();
                        post(ch, &AudienceMsg::State { id, predict, query });
                    }
                });
            });
        }
        a
    }

    pub fn get() -> Option<Audience> {
        use_context::<Audience>()
    }

    /// The presenter this window follows, if it is an audience window.
    pub fn following(self) -> Option<String> {
        self.following.get_value()
    }

    /// Opens an audience window for this page (the presenter's button), answering its hello.
    pub fn open_window(self, ctx: Ctx, p: Presenter) {
        let id = self
            .channel
            .with_value(|c| c.as_ref().map(|(id, _)| id.clone()));
        let id = match id {
            Some(id) => id,
            None => {
                // Unique enough between two presenting tabs of one browser.
                let id = format!("{:x}", browser::now_ms() as u64);
                let mine = id.clone();
                let channel = open_channel(move |msg| {
                    if msg == (AudienceMsg::Hello { id: mine.clone() }) {
                        let reply = state(ctx, p, &mine);
                        self.channel.with_value(|c| {
                            if let Some((_, ch)) = c {
                                post(ch, &reply);
                            }
                        });
                    }
                });
                let Some(channel) = channel else { return };
                self.channel.set_value(Some((id.clone(), channel)));
                id
            }
        };
        let url = format!("{}&audience={id}", untrack(|| ctx.query(false)));
        browser::open_window(&url, "effectively-once-audience");
    }
}

/// Brings this (audience) window to the presenter's state: a step forward animates as it does
/// for the presenter; anything else jumps. `run` is the run last followed: a message that only
/// moves the step (most of them) is not resolved again, since resolving replays the run.
fn follow(ctx: Ctx, p: Presenter, predict: Option<usize>, query: &str, run: &mut String) {
    let same = without_step(query);
    if *run == same {
        ctx.go_to(parse_query(query).step.unwrap_or(0));
        p.predict.set(predict);
        return;
    }
    *run = same;
    let query = query.to_string();
    let shown = crate::player::shown_scenario(&query);
    ctx.when_loaded(shown, move || {
        ctx.open(resolve(&query, None));
        p.predict.set(predict);
    });
}
