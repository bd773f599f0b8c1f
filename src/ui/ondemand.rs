//! Text the page fetches when it is first needed rather than carrying it in its wasm (the quiz,
//! the speaker notes; see `crate::content`). Fetched once and kept for the page's life; a
//! failure keeps its reason for the part that shows it, with a way to try again. The page starts
//! the fetch; the part that shows the text reads it, so the reader (a JSON parser) is that part's
//! code, not the page's.

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
    /// Fetched, not read yet: no part has asked for it with its reader.
    Unread(String),
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

type Reader<T> = fn(&str) -> Result<T, Text>;

/// One file of text fetched on demand and read by the reader a part gives `want`.
pub struct OnDemand<T: Send + Sync + 'static> {
    file: &'static str,
    /// What the file holds, for the failure message ("The quiz").
    what: (&'static str, &'static str),
    read: StoredValue<Option<Reader<T>>>,
    pub state: RwSignal<Fetched<T>>,
}

impl<T: Send + Sync + 'static> Clone for OnDemand<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Send + Sync + 'static> Copy for OnDemand<T> {}

impl<T: Send + Sync + 'static> OnDemand<T> {
    pub fn new(file: &'static str, what: (&'static str, &'static str)) -> Self {
        OnDemand {
            file,
            what,
            read: StoredValue::new(None),
            state: RwSignal::new(Fetched::Idle),
        }
    }

    /// Fetches the file again unless it is loading (a "Try again" button: what was read may be
    /// stale).
    pub fn reload(self) {
        if self
            .state
            .with_untracked(|s| matches!(s, Fetched::Ready(_) | Fetched::Unread(_)))
        {
            self.state.set(Fetched::Idle);
        }
        self.fetch();
    }

    /// What the part that shows the text calls: reads it with `read` once it is here, and
    /// fetches it if no one has yet (a failure stays until "Try again", `reload`).
    pub fn want(self, read: Reader<T>) {
        self.read.set_value(Some(read));
        let unread = self.state.with_untracked(|s| match s {
            Fetched::Unread(text) => Some(read_with(read, text)),
            _ => None,
        });
        match unread {
            Some(next) => self.state.set(next),
            None if self.state.with_untracked(|s| matches!(s, Fetched::Idle)) => self.fetch(),
            None => {}
        }
    }

    /// Fetches the file unless it is here or on its way; after a failure, fetches it again. It is
    /// read when it arrives if a part has asked already, else kept until one does.
    pub fn fetch(self) {
        if self.state.with_untracked(|s| {
            matches!(s, Fetched::Loading | Fetched::Unread(_) | Fetched::Ready(_))
        }) {
            return;
        }
        self.state.set(Fetched::Loading);
        browser::fetch_text(self.file, move |result| {
            let (en, zh) = self.what;
            let next = match result {
                Ok(text) => match self.read.try_get_value().flatten() {
                    Some(read) => read_with(read, &text),
                    None => Fetched::Unread(text),
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

fn read_with<T>(read: Reader<T>, text: &str) -> Fetched<T> {
    match read(text) {
        Ok(value) => Fetched::Ready(value),
        Err(why) => Fetched::Failed(why),
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
