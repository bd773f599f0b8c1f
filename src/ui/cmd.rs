//! What a control does, as one typed value. The markup writes it on the control as `data-cmd`
//! (the parts drawn by `ui::dom` are handled by delegation, one listener per panel); the
//! listener reads it back with [`Cmd::of`] and matches. Focus fix-ups after a redraw name the
//! same value ([`Cmd::refocus`]), so a renamed control cannot leave a stale CSS selector behind.
//!
//! Use a `Cmd` for every control of a `ui::dom` drawing; typed Leptos views (the player bar,
//! the scrubber) keep their own `on:` handlers.

use super::browser;
use crate::player::Theme;
use crate::sim::Lang;

/// A download the export dialog offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
    Markdown,
    Mermaid,
    Json,
}

impl Format {
    pub const ALL: [Format; 5] = [
        Format::Svg,
        Format::Png,
        Format::Markdown,
        Format::Mermaid,
        Format::Json,
    ];

    /// The file's extension, which is also its word in `data-cmd`.
    pub fn ext(self) -> &'static str {
        match self {
            Format::Svg => "svg",
            Format::Png => "png",
            Format::Markdown => "md",
            Format::Mermaid => "mmd",
            Format::Json => "json",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmd {
    // The header.
    Variant(usize),
    VariantMenu,
    Lang(Lang),
    Break,
    Embed,
    Present,
    QuizOpen,
    ExportOpen,
    CopyLink,
    MoreToggle,
    // The page's panels.
    Watch,
    Dismiss,
    /// Fetch again the scenario whose module could not be fetched (`Ctx::retry`).
    LoadRetry,
    More,
    Choice(u8),
    Restart,
    Seek(usize),
    Knob(usize),
    KnobReset,
    Zoom,
    ChallengeRestart,
    ChallengeLeave,
    // The explorer: run, run the fix, compare with the fix, cancel, show a counterexample.
    ExploreRun,
    ExploreFix,
    ExploreCompare,
    ExploreCancel,
    ExploreShow {
        variant: usize,
        path: String,
    },
    // The dialogs.
    EmbedCopy,
    EmbedClose,
    EmbedSize(usize),
    EmbedTheme(Theme),
    Export(Format),
    ExportClose,
    QuizAnswer {
        id: String,
        choice: u8,
    },
    QuizPoint {
        id: String,
        bit: u8,
    },
    QuizClose,
    QuizReset,
    QuizRetry,
    // Presenting.
    PresentExit,
    PresentNotes,
    PresentAudience,
    PresentFullscreen,
    PresentRetry,
    PresentReveal,
}

/// The commands without an argument, with their words.
const WORDS: [(&str, Cmd); 33] = [
    ("variant-menu", Cmd::VariantMenu),
    ("break", Cmd::Break),
    ("embed", Cmd::Embed),
    ("present", Cmd::Present),
    ("quiz-open", Cmd::QuizOpen),
    ("export-open", Cmd::ExportOpen),
    ("copy-link", Cmd::CopyLink),
    ("more-toggle", Cmd::MoreToggle),
    ("watch", Cmd::Watch),
    ("dismiss", Cmd::Dismiss),
    ("load-retry", Cmd::LoadRetry),
    ("more", Cmd::More),
    ("restart", Cmd::Restart),
    ("knob-reset", Cmd::KnobReset),
    ("zoom", Cmd::Zoom),
    ("challenge-restart", Cmd::ChallengeRestart),
    ("challenge-leave", Cmd::ChallengeLeave),
    ("explore-run", Cmd::ExploreRun),
    ("explore-fix", Cmd::ExploreFix),
    ("explore-compare", Cmd::ExploreCompare),
    ("explore-cancel", Cmd::ExploreCancel),
    ("embed-copy", Cmd::EmbedCopy),
    ("embed-close", Cmd::EmbedClose),
    ("export-close", Cmd::ExportClose),
    ("quiz-close", Cmd::QuizClose),
    ("quiz-reset", Cmd::QuizReset),
    ("quiz-retry", Cmd::QuizRetry),
    ("present-exit", Cmd::PresentExit),
    ("present-notes", Cmd::PresentNotes),
    ("present-audience", Cmd::PresentAudience),
    ("present-fullscreen", Cmd::PresentFullscreen),
    ("present-retry", Cmd::PresentRetry),
    ("present-reveal", Cmd::PresentReveal),
];

impl Cmd {
    /// The `data-cmd` value: a word, then its arguments after colons ("variant:2").
    pub fn encode(&self) -> String {
        if let Some((w, _)) = WORDS.iter().find(|(_, c)| c == self) {
            return (*w).to_string();
        }
        match self {
            Cmd::Variant(i) => format!("variant:{i}"),
            Cmd::Lang(l) => format!("lang:{}", l.code()),
            Cmd::Choice(i) => format!("choice:{i}"),
            Cmd::Seek(k) => format!("seek:{k}"),
            Cmd::Knob(i) => format!("knob:{i}"),
            Cmd::ExploreShow { variant, path } => format!("explore-show:{variant}:{path}"),
            Cmd::EmbedSize(i) => format!("embed-size:{i}"),
            Cmd::EmbedTheme(t) => format!("embed-theme:{}", t.word()),
            Cmd::Export(f) => format!("export:{}", f.ext()),
            Cmd::QuizAnswer { id, choice } => format!("quiz-answer:{id}:{choice}"),
            Cmd::QuizPoint { id, bit } => format!("quiz-point:{id}:{bit}"),
            _ => unreachable!("a command without arguments is in WORDS"),
        }
    }

    /// Reads a `data-cmd` value back; `None` for anything [`Cmd::encode`] does not write.
    pub fn decode(s: &str) -> Option<Cmd> {
        if let Some((_, c)) = WORDS.iter().find(|(w, _)| *w == s) {
            return Some(c.clone());
        }
        let (word, rest) = s.split_once(':')?;
        let n = || rest.parse::<usize>().ok();
        // The quiz's ids are the file's: split the argument off the end.
        let keyed = || {
            rest.rsplit_once(':')
                .and_then(|(id, x)| Some((id.to_string(), x.parse().ok()?)))
        };
        Some(match word {
            "variant" => Cmd::Variant(n()?),
            "lang" => Cmd::Lang(Lang::parse(rest)?),
            "choice" => Cmd::Choice(rest.parse().ok()?),
            "seek" => Cmd::Seek(n()?),
            "knob" => Cmd::Knob(n()?),
            "explore-show" => {
                let (v, path) = rest.split_once(':')?;
                Cmd::ExploreShow {
                    variant: v.parse().ok()?,
                    path: path.to_string(),
                }
            }
            "embed-size" => Cmd::EmbedSize(n()?),
            "embed-theme" => Cmd::EmbedTheme(Theme::parse(rest)?),
            "export" => Cmd::Export(*Format::ALL.iter().find(|f| f.ext() == rest)?),
            "quiz-answer" => keyed().map(|(id, choice)| Cmd::QuizAnswer { id, choice })?,
            "quiz-point" => keyed().map(|(id, bit)| Cmd::QuizPoint { id, bit })?,
            _ => return None,
        })
    }

    /// The command of the control an event came from (or of its nearest ancestor with one).
    pub fn of(ev: &web_sys::Event) -> Option<Cmd> {
        Cmd::decode(&browser::data_attr(ev, "data-cmd")?)
    }

    /// The command of a key event's own target (not an ancestor's).
    pub fn of_key(ev: &web_sys::KeyboardEvent) -> Option<Cmd> {
        Cmd::decode(&browser::key_target_attr(ev, "data-cmd")?)
    }

    /// The selector of the control that carries this command.
    pub fn selector(&self) -> String {
        format!("[data-cmd=\"{}\"]", self.encode())
    }

    /// Presses this command's control, if it is on the page.
    pub fn press(&self) {
        if let Some(el) = leptos::prelude::document()
            .query_selector(&self.selector())
            .ok()
            .flatten()
        {
            if let Ok(el) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el) {
                el.click();
            }
        }
    }

    /// Gives keyboard focus back to this command's control once the panel has been redrawn.
    pub fn refocus(&self) {
        browser::focus_after_render(self.selector());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_kind() -> Vec<Cmd> {
        let mut all: Vec<Cmd> = WORDS.iter().map(|(_, c)| c.clone()).collect();
        all.extend([
            Cmd::Variant(3),
            Cmd::Lang(Lang::Zh),
            Cmd::Choice(7),
            Cmd::Seek(624),
            Cmd::Knob(2),
            Cmd::ExploreShow {
                variant: 1,
                path: "0010010".into(),
            },
            Cmd::EmbedSize(2),
            Cmd::EmbedTheme(Theme::Dark),
            Cmd::QuizAnswer {
                id: "c1".into(),
                choice: 2,
            },
            Cmd::QuizPoint {
                id: "oral:7".into(),
                bit: 3,
            },
        ]);
        all.extend(Format::ALL.map(Cmd::Export));
        all
    }

    #[test]
    fn every_command_reads_back_as_itself() {
        let all = every_kind();
        for c in &all {
            assert_eq!(Cmd::decode(&c.encode()).as_ref(), Some(c), "{}", c.encode());
        }
        // Distinct commands are written distinctly.
        let mut words: Vec<String> = all.iter().map(Cmd::encode).collect();
        words.sort();
        words.dedup();
        assert_eq!(words.len(), all.len());
    }

    #[test]
    fn anything_else_is_no_command() {
        for bad in [
            "",
            "variant",
            "variant:",
            "variant:x",
            "variant:-1",
            "lang:fr",
            "seek:1.5",
            "export:pdf",
            "embed-theme:sepia",
            "quiz-answer:c1",
            "quiz-point::x",
            "explore-show:1",
            "explore-show:x:0",
            "nonsense",
            "break:1",
        ] {
            assert_eq!(Cmd::decode(bad), None, "{bad}");
        }
    }
}
