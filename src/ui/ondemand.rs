//! Text the page fetches when it is first needed rather than carrying it in its wasm (the quiz,
//! the speaker notes; see `crate::content`). Fetched once and kept for the page's life; a
//! failure keeps its reason for the part that shows it, with a way to try again.

use super::browser;
use super::cmd::Cmd;
use super::dom::Node;
use super::i18n::Ui;
use crate::sim::{Lang, Text};
use leptos::prelude::*;

#[derive(Clone, Debug, PartialEq)]
pub enum Fetched<T> {
    Idle,
    Loading,
    Ready(T),
    Failed(Text),
}

impl<T> Fetched<T> {
    /// Why it failed, if it did.
    pub fn failure(&self) -> Option<&Text> {
        match self {
            Fetched::Failed(why) => Some(why),
            _ => None,
        }
    }
}

/// One file of text fetched on demand and read by `read`.
pub struct OnDemand<T: Send + Sync + 'static> {
    file: &'static str,
    /// What the file holds, for the failure message ("The quiz").
    what: (&'static str, &'static str),
    read: fn(&str) -> Result<T, Text>,
    pub state: RwSignal<Fetched<T>>,
}

impl<T: Send + Sync + 'static> Clone for OnDemand<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Send + Sync + 'static> Copy for OnDemand<T> {}

impl<T: Send + Sync + 'static> OnDemand<T> {
    pub fn new(
        file: &'static str,
        what: (&'static str, &'static str),
        read: fn(&str) -> Result<T, Text>,
    ) -> Self {
        OnDemand {
            file,
            what,
            read,
            state: RwSignal::new(Fetched::Idle),
        }
    }

    /// Fetches the file again unless it is loading (a "Try again" button: what was read may be
    /// stale).
    pub fn reload(self) {
        if self
            .state
            .with_untracked(|s| matches!(s, Fetched::Ready(_)))
        {
            self.state.set(Fetched::Idle);
        }
        self.want();
    }

    /// Fetches the file unless it is loaded or loading; after a failure, fetches it again.
    pub fn want(self) {
        if self
            .state
            .with_untracked(|s| matches!(s, Fetched::Loading | Fetched::Ready(_)))
        {
            return;
        }
        self.state.set(Fetched::Loading);
        browser::fetch_text(self.file, move |result| {
            let (en, zh) = self.what;
            let next = match result {
                Ok(text) => match (self.read)(&text) {
                    Ok(value) => Fetched::Ready(value),
                    Err(why) => Fetched::Failed(why),
                },
                Err(why) => Fetched::Failed(Text::new(
                    format!(
                        "{en} could not be loaded ({}). Check the connection and try again.",
                        why.en
                    ),
                    format!("{zh}无法加载（{}）。请检查网络后重试。", why.zh),
                )),
            };
            // The page may be gone (a test's navigation): then there is nothing to update.
            let _ = self.state.try_set(next);
        });
    }
}

/// What a part shows in place of fetched text that is not ready: "Loading…", or the reason it
/// failed (`failure`) and a row of buttons: "Try again" (carrying `retry_attr`) and `more` (a
/// Close).
pub fn placeholder(
    failure: Option<&Text>,
    lang: Lang,
    t: &Ui,
    retry: Cmd,
    more: Option<Node>,
) -> Vec<Node> {
    let mut buttons = Node::el("div").attr("class", "buttons");
    let message = match failure {
        Some(why) => {
            buttons.push(
                Node::el("button")
                    .attr("type", "button")
                    .attr("class", "btn")
                    .cmd(retry)
                    .text(t.try_again),
            );
            Node::el("p")
                .attr("class", "load-failed")
                .attr("role", "alert")
                .text(why.get(lang))
        }
        None => Node::el("p")
            .attr("class", "muted")
            .attr("role", "status")
            .text(t.loading),
    };
    if let Some(more) = more {
        buttons.push(more);
    }
    vec![message, buttons]
}
