//! Optional parts of the page: the home page, the comparison, the challenge, the presenter's
//! panel, the quiz, embed and export dialogs, and the explorer's panel. In the page's split
//! build each sits behind a split point of its own, so `wasm-split` moves its code into a module
//! fetched when the part is first shown (BENCHMARKS.md, "Parts on demand"); elsewhere it is here
//! at once. The explorer's panel is fetched when it comes within a screen of the viewport, or
//! when its stand-in's button is pressed (an embed never shows it).
//!
//! A part is drawn in its `<Part/>` slot once its module is here. A fetch that fails changes
//! nothing but a notice with "Try again" (`Retry::Part`); the next use tries again too.

use super::app::{Ctx, Retry};
use crate::scenarios::LoadFailed;
use crate::sim::Text;
use leptos::prelude::*;
use std::sync::OnceLock;

/// Draws a part: a component of its module, called from the page.
type Draw = fn() -> AnyView;

/// Generates, from one line per part (name, split point, what it is called in a notice, its
/// component), `PartId`, the loaders and the by-part dispatch.
macro_rules! parts {
    ($($id:ident $module:ident ($en:literal, $zh:literal) => $component:path),* $(,)?) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum PartId {
            $($id),*
        }

        const ALL: &[PartId] = &[$(PartId::$id),*];

        /// Each part's component, behind a split point named `part_<name>`
        /// (`tools/split.mjs` reports those as parts, the others as scenarios).
        #[cfg(feature = "split")]
        mod loaders {
            use super::*;
            $(
                #[wasm_split_helpers::wasm_split($module, fallible)]
                pub fn $module() -> Result<Draw, LoadFailed> {
                    Ok(|| view! { <$component/> }.into_any())
                }
            )*
        }

        /// Fetches (split build) or finds part `id`'s component.
        async fn fetch(id: PartId) -> Result<Draw, LoadFailed> {
            match id {
                $(PartId::$id => {
                    #[cfg(feature = "split")]
                    return loaders::$module().await;
                    #[cfg(not(feature = "split"))]
                    return Ok(|| view! { <$component/> }.into_any());
                })*
            }
        }

        impl PartId {
            /// What the part is called when it could not be fetched.
            fn name(self) -> (&'static str, &'static str) {
                match self {
                    $(PartId::$id => ($en, $zh)),*
                }
            }
        }
    };
}

parts! {
    Home part_home ("The home page", "首页") => crate::ui::home::Home,
    Compare part_compare ("The comparison", "对比视图") => crate::ui::compare::Compare,
    BreakIt part_challenge ("The challenge", "挑战") => crate::ui::compare::BreakIt,
    Presenter part_presenter ("The presenter's panel", "演示面板") => crate::ui::present::PresenterPanel,
    Quiz part_quiz ("The quiz", "测验") => crate::ui::quiz::QuizDialog,
    Embed part_embed ("The embed dialog", "嵌入对话框") => crate::ui::panels::EmbedDialog,
    Export part_export_dialog ("The export dialog", "导出对话框") => crate::ui::export::ExportDialog,
    Explorer part_explorer ("The explorer's panel", "穷举检查面板") => crate::ui::explore::Explorer,
}

const COUNT: usize = ALL.len();

/// Each part's component once its module is here (kept for the page's life).
static LOADED: [OnceLock<Draw>; COUNT] = [const { OnceLock::new() }; COUNT];

/// Makes part `id` ready to draw: fetches its module the first time (a failure is not
/// remembered, so calling again retries).
pub async fn load(id: PartId) -> Result<(), LoadFailed> {
    if LOADED[id as usize].get().is_none() {
        let draw = fetch(id).await?;
        LOADED[id as usize].get_or_init(|| draw);
    }
    Ok(())
}

/// Where a part is on its way to the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Idle,
    Loading,
    Ready,
    /// The fetch failed: fetched again by "Try again" or the next use, never by itself.
    Failed,
}

/// What to do once a part is drawn (open its dialog), kept across a failed fetch so that
/// "Try again" finishes what was asked.
type Then = Option<Box<dyn FnOnce()>>;

/// The parts' phases, for the slots that draw them (a context of the app).
#[derive(Clone, Copy)]
pub struct Parts {
    phases: RwSignal<[Phase; COUNT]>,
    pending: StoredValue<[Then; COUNT], LocalStorage>,
    ctx: Ctx,
}

impl Parts {
    /// Provides the parts' phases; a part fetched before mounting (the home page's) is ready.
    pub fn provide(ctx: Ctx) {
        let phases = std::array::from_fn(|i| match LOADED[i].get() {
            Some(_) => Phase::Ready,
            None => Phase::Idle,
        });
        provide_context(Parts {
            phases: RwSignal::new(phases),
            pending: StoredValue::new_local(std::array::from_fn(|_| None)),
            ctx,
        });
    }

    /// The handle (from a component's setup; `None` outside the app).
    pub fn get() -> Option<Parts> {
        use_context::<Parts>()
    }

    /// Whether part `id` is here and drawn (tracked).
    pub fn ready(self, id: PartId) -> bool {
        self.phase(id) == Phase::Ready
    }

    fn phase(self, id: PartId) -> Phase {
        self.phases.with(|p| p[id as usize])
    }

    fn set(self, id: PartId, phase: Phase) {
        // The page may be gone (a test's navigation): then there is nothing to update.
        let _ = self.phases.try_update(|p| p[id as usize] = phase);
    }

    /// Shows part `id`, then runs `then`: at once if it is drawn, else once its module has
    /// arrived and it is drawn. If the module cannot be fetched, a notice says so, with "Try
    /// again", which fetches it again and then runs `then`.
    pub fn open(self, id: PartId, then: impl FnOnce() + 'static) {
        self.pending
            .update_value(|p| p[id as usize] = Some(Box::new(then)));
        self.fetch(id);
    }

    /// Fetches part `id` unless it is here or on its way; runs what is pending once it is.
    pub fn fetch(self, id: PartId) {
        let run = move || {
            if let Some(then) = self
                .pending
                .try_update_value(|p| p[id as usize].take())
                .flatten()
            {
                then();
            }
        };
        match self.phases.with_untracked(|p| p[id as usize]) {
            Phase::Ready => return run(),
            Phase::Loading => return,
            Phase::Idle | Phase::Failed => self.set(id, Phase::Loading),
        }
        leptos::task::spawn_local(async move {
            match load(id).await {
                Ok(()) => {
                    self.set(id, Phase::Ready);
                    // The slot draws the part before the next frame.
                    request_animation_frame(run);
                }
                Err(LoadFailed) => {
                    self.set(id, Phase::Failed);
                    self.failed(id);
                }
            }
        });
    }

    /// Says that part `id` did not arrive, and offers to fetch it again.
    fn failed(self, id: PartId) {
        let (en, zh) = id.name();
        let why = Text::new(
            format!("{en} could not be loaded (offline, or the site was updated). Nothing else changed; try again."),
            format!("{zh}未能加载（离线，或网站已更新）。其他部分没有改变；请再试一次。"),
        );
        let _ = self.ctx.notices.try_update(|n| {
            if !n.contains(&why) {
                n.push(why);
            }
        });
        let _ = self.ctx.retry.try_set(Some(Retry::Part(id)));
    }
}

/// Where part `id` is drawn once its module is here. With `when`, the part is fetched each
/// time `when` comes to hold (a comparison in the link, presenting) until it is here; without,
/// by `Parts::open`. Only a change of `when` fetches: a failed fetch is never repeated by itself.
#[component]
pub fn Part(id: PartId, #[prop(optional, into)] when: Option<Signal<bool>>) -> impl IntoView {
    let parts = Parts::get();
    if let (Some(parts), Some(when)) = (parts, when) {
        Effect::new(move |held: Option<bool>| {
            let holds = when.get();
            if holds && held != Some(true) {
                parts.fetch(id);
            }
            holds
        });
    }
    let ready = Memo::new(move |_| parts.is_some_and(|p| p.phase(id) == Phase::Ready));
    move || {
        ready
            .get()
            .then(|| LOADED[id as usize].get().map(|draw| draw()))
    }
}
