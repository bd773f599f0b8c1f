//! The scenario registry: slug → scenario. Adding a scenario is one folder and one line in
//! `registry!` below.

/// Generates, from one line per scenario (slug, module, type), the module declarations, `ALL`
/// and `SLUGS` in the picker's order, and the by-slug dispatch of the explorer and the notes.
macro_rules! registry {
    ($($slug:literal => $module:ident :: $ty:ident),* $(,)?) => {
        $(mod $module;)*

        /// Every scenario, in the order the picker shows them, grouped by theme as the home
        /// page lists them. The first is the default. Not in the page's split build, where each
        /// scenario arrives through its loader below.
        #[cfg(not(feature = "split"))]
        static ALL: &[Registered] = &[$(&$module::$ty),*];

        /// The page's split build (feature `split`, built by Trunk and cut by
        /// `tools/split.mjs`): each scenario's code and text sit behind a split point of their
        /// own, so `wasm-split` moves them into a module the page fetches when the scenario is
        /// first shown.
        #[cfg(feature = "split")]
        mod loaders {
            $(pub mod $module {
                use super::super::{LoadFailed, Registered};
                #[wasm_split_helpers::wasm_split($module, fallible)]
                pub fn load() -> Result<Registered, LoadFailed> {
                    Ok(&super::super::$module::$ty)
                }
            })*
        }

        /// Fetches (split build) or finds the scenario at `index` (past the end: the last).
        #[cfg(feature = "split")]
        async fn fetch(index: usize) -> Result<Registered, LoadFailed> {
            match SLUGS[index.min(SLUGS.len() - 1)] {
                $($slug => loaders::$module::load().await,)*
                _ => Err(LoadFailed),
            }
        }

        /// Each scenario's description, by a direct call (the split build reads each from
        /// its loaded scenario, and `CARDS` before that).
        #[cfg(not(feature = "split"))]
        fn metas() -> Vec<ScenarioMeta> {
            vec![$(Scenario::meta(&$module::$ty)),*]
        }

        /// The slugs of `ALL`, in the same order (a test holds them equal to each `meta()`).
        pub const SLUGS: &[&str] = &[$($slug),*];

        /// The worker's split build (feature `split-worker`, index.html): each scenario's
        /// model and its explorer sit behind a split point of their own, so the worker fetches
        /// only the explored scenario's module (`tools/split.mjs` cuts the worker too).
        #[cfg(feature = "split-worker")]
        mod explorers {
            $(pub mod $module {
                use super::super::LoadFailed;
                use crate::sim::{Bounds, Report};
                #[wasm_split_helpers::wasm_split($module, fallible, preload(fetch))]
                pub fn explore(
                    variant: usize,
                    budget: Option<u8>,
                    knobs: &[u32],
                    bounds: Bounds,
                    progress: &mut dyn FnMut(usize),
                ) -> Result<Report, LoadFailed> {
                    Ok(super::super::run::<super::super::$module::$ty>(
                        variant, budget, knobs, bounds, progress,
                    ))
                }
            })*
        }

        /// Fetches the explorer of the scenario with this slug (feature `split-worker`).
        #[cfg(feature = "split-worker")]
        async fn fetch_explorer_of(slug: &str) -> Result<(), LoadFailed> {
            match slug {
                $($slug => Ok(explorers::$module::fetch().await?),)*
                _ => Ok(()),
            }
        }

        /// `explore_slug` after fetching the scenario's module (feature `split-worker`).
        #[cfg(feature = "split-worker")]
        async fn fetch_and_explore(
            slug: &str,
            variant: usize,
            budget: Option<u8>,
            knobs: &[u32],
            bounds: Bounds,
            progress: &mut dyn FnMut(usize),
        ) -> Option<Result<Report, LoadFailed>> {
            Some(match slug {
                $($slug => explorers::$module::explore(variant, budget, knobs, bounds, progress).await,)*
                _ => return None,
            })
        }

        /// Each arm calls its scenario's explorer directly, not through a chosen function
        /// pointer: the pointer cost the worker 3.1 KB of gzip (BENCHMARKS.md, "Bundle").
        #[cfg(not(feature = "split-worker"))]
        fn explore_slug(
            slug: &str,
            variant: usize,
            budget: Option<u8>,
            knobs: &[u32],
            bounds: Bounds,
            progress: &mut dyn FnMut(usize),
        ) -> Option<Report> {
            Some(match slug {
                $($slug => run::<$module::$ty>(variant, budget, knobs, bounds, progress),)*
                _ => return None,
            })
        }

        /// The speaker notes of the scenario with this slug. A plain function, not a `meta()`
        /// field: the page fetches the notes on demand (`notes.json`, written by
        /// `content::notes_json`), so the page's wasm does not carry them.
        pub fn notes(slug: &str) -> Option<Notes> {
            Some(match slug {
                $($slug => $module::notes(),)*
                _ => return None,
            })
        }
    };
}

pub use approval::{
    digest as approval_digest, ApAct, ApState, ApVariant, Approval, ApprovalModel,
    Outcome as ApOutcome, Refusal,
};
pub use backpressure::{Backpressure, BackpressureModel, BpAct, BpState, BpVariant, Rates};
pub use cancellation::{
    CaAct, CaState, CaVariant, Cancellation, CancellationModel, End as CaEnd, Msg as CaMsg,
    OpStatus as CaStatus, Screen as CaScreen, Wait as CaWait,
};
pub use checkpoint_replay::{CheckpointReplay, CrAct, CrState, CrVariant};
pub use dead_letter::{
    DeadLetter, DeadLetterModel, DlAct, DlState, DlVariant, OrderStatus as DlOrder,
    Parked as DlParked,
};
pub use dual_write::{DualWrite, DualWriteModel, DwAct, DwVariant};
pub use duplicate_charge::{
    DcAct, DcState, DcVariant, DuplicateCharge, DuplicateChargeModel, Key as DcKey,
};
pub use event_order::{
    EoAct, EoState, EoVariant, EventOrder, EventOrderModel, Outcome as EoOutcome,
};
pub use lease_fencing::{LeaseFencing, LeaseFencingModel, LfAct, LfState, LfVariant};
pub use order_api::{OaAct, OaState, OaVariant, OrderApi, OrderApiModel, Reply as OaReply};
pub use outbox_relay::{OrAct, OrVariant, OutboxRelay, OutboxRelayModel};
pub use refund_cap::{
    line_of, uncommitted, Answer, Pc, RcAct, RcState, RcVariant, RefundCap, RefundCapModel, Stmt,
    AMOUNT, CAP, KNOB_MAX,
};
pub use retry_layers::{
    call_status, secs, Behaviour, Effect, End, Outcome, RetryLayers, RetryLayersModel, RlState,
    RlVariant, SpanKind,
};
pub use semaphore_scope::{
    Inst as SsInst, SemaphoreScope, SemaphoreScopeModel, Slot as SsSlot, SsAct, SsState, SsVariant,
};
pub use unknown_outcome::{
    Answer as UoAnswer, Op, Outcome as UoOutcome, Reply, ReqPc, Status as OpStatus, UnknownOutcome,
    UnknownOutcomeModel, UoAct, UoState, UoVariant,
};

use crate::sim::{AnyScenario, Bounds, Knob, Notes, Report, Scenario, ScenarioMeta, Text};
use std::sync::OnceLock;

/// A registered scenario. Scenarios are stateless descriptions, so they can live in statics.
pub type Registered = &'static (dyn AnyScenario + Sync);

registry! {
    "dual-write" => dual_write::DualWrite,
    "outbox-relay" => outbox_relay::OutboxRelay,
    "duplicate-charge" => duplicate_charge::DuplicateCharge,
    "order-api" => order_api::OrderApi,
    "event-order" => event_order::EventOrder,
    "refund-cap" => refund_cap::RefundCap,
    "semaphore-scope" => semaphore_scope::SemaphoreScope,
    "lease-fencing" => lease_fencing::LeaseFencing,
    "backpressure" => backpressure::Backpressure,
    "retry-layers" => retry_layers::RetryLayers,
    "unknown-outcome" => unknown_outcome::UnknownOutcome,
    "cancellation" => cancellation::Cancellation,
    "checkpoint-replay" => checkpoint_replay::CheckpointReplay,
    "dead-letter" => dead_letter::DeadLetter,
    "approval" => approval::Approval,
}

/// Whether a listing line starts an SQL statement: how the page knows a step showed SQL and
/// the harness knows which lines of a listing to execute.
pub fn starts_sql(line: &str) -> bool {
    const WORDS: [&str; 8] = [
        "BEGIN", "COMMIT", "ROLLBACK", "INSERT", "UPDATE", "DELETE", "SELECT", "WITH",
    ];
    WORDS.iter().any(|w| line.trim_start().starts_with(w))
}

/// The scenarios whose programs the test suite runs (against PostgreSQL where they touch a
/// database) and compares with the model, and how. Every other JavaScript program is loaded by Node (`tests/it/listings.rs`); the
/// page says which under each program.
pub const PROGRAMS_RUN: &[(&str, ProgramCheck)] = &[
    ("refund-cap", ProgramCheck::RunNode),
    ("semaphore-scope", ProgramCheck::RunInstances),
    ("cancellation", ProgramCheck::RunNodeEnds),
    ("backpressure", ProgramCheck::RunCurves),
    ("checkpoint-replay", ProgramCheck::RunLangGraph),
    ("duplicate-charge", ProgramCheck::RunPython),
];

/// What the test suite did with a program, in the order of `Ui::program_checked`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgramCheck {
    /// Ran it under Node on every schedule, step by step (`tests/it/refund_cap.rs`).
    RunNode,
    /// Ran it as three Node processes, one killed, comparing how they end
    /// (`tests/it/semaphore_scope.rs`).
    RunInstances,
    /// Ran it under Node on every run Node can take, comparing each run's end
    /// (`tests/it/cancellation.rs`).
    RunNodeEnds,
    /// Ran it under Node in virtual time at the scenario's rates, comparing the curves every
    /// five seconds (`tests/it/backpressure.rs`).
    RunCurves,
    /// Ran it under Python on runs through every action, comparing each run's end
    /// (`tests/it/duplicate_charge.rs`).
    RunPython,
    /// Ran it under LangGraph on every run, each crash the death of a process
    /// (`tests/it/checkpoint_replay.rs`).
    RunLangGraph,
}

/// What the test suite does with the programs of scenario `slug` (`tests/it/listings.rs` holds
/// that every program the app shows is run).
pub fn program_checked(slug: &str) -> Option<ProgramCheck> {
    PROGRAMS_RUN.iter().find(|p| p.0 == slug).map(|p| p.1)
}

/// Every scenario (not in the page's split build: there, `load` and `get`).
#[cfg(not(feature = "split"))]
pub fn all() -> &'static [Registered] {
    ALL
}

/// Explores scenario `S` (see `explore`).
fn run<S: Scenario>(
    variant: usize,
    budget: Option<u8>,
    knobs: &[u32],
    bounds: Bounds,
    progress: &mut dyn FnMut(usize),
) -> Report {
    crate::sim::explore_with(&S::model_of(variant, budget, knobs), bounds, progress)
}

/// How many scenarios there are.
pub const COUNT: usize = SLUGS.len();

/// A scenario's module could not be fetched (offline, a 404, a stale cache).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadFailed;

#[cfg(any(feature = "split", feature = "split-worker"))]
impl From<wasm_split_helpers::SplitLoaderError> for LoadFailed {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> LoadFailed {
        LoadFailed
    }
}

#[cfg(feature = "split")]
static LOADED: [OnceLock<Registered>; COUNT] = [const { OnceLock::new() }; COUNT];

/// The scenario at `index` (past the end: the last) if its code is here: always, except in the
/// page's split build before `load` has fetched it.
pub fn get(index: usize) -> Option<Registered> {
    let index = index.min(COUNT - 1);
    #[cfg(feature = "split")]
    return LOADED[index].get().copied();
    #[cfg(not(feature = "split"))]
    Some(ALL[index])
}

/// The scenario at `index` if its code is here, else the first that is. The page mounts only
/// after the scenario it shows has loaded (`ui::start`) and switches only to loaded ones
/// (`Ctx::when_loaded`), so `None` is never seen there.
pub fn shown(index: usize) -> Option<Registered> {
    get(index).or_else(|| (0..COUNT).find_map(get))
}

/// Makes the scenario at `index` (past the end: the last) ready for `get`: in the page's split
/// build, fetches its module the first time (a failure is not remembered, so calling again
/// retries); elsewhere it is already here.
pub async fn load(index: usize) -> Result<Registered, LoadFailed> {
    if let Some(s) = get(index) {
        return Ok(s);
    }
    #[cfg(feature = "split")]
    {
        let s = fetch(index).await?;
        return Ok(*LOADED[index.min(COUNT - 1)].get_or_init(|| s));
    }
    #[allow(unreachable_code)]
    Err(LoadFailed)
}

/// The description of the scenario at `index` (past the end: the last), built once. `meta()`
/// builds every string of it on each call, and the page reads it on every step.
/// In the page's split build, until the scenario's module is here: its card (title, summary,
/// theme, knob keys), with no variants.
pub fn meta(index: usize) -> &'static ScenarioMeta {
    let index = index.min(COUNT - 1);
    #[cfg(feature = "split")]
    {
        static FULL: [OnceLock<ScenarioMeta>; COUNT] = [const { OnceLock::new() }; COUNT];
        static CARD: OnceLock<Vec<ScenarioMeta>> = OnceLock::new();
        if let Some(s) = get(index) {
            return FULL[index].get_or_init(|| s.meta());
        }
        &CARD.get_or_init(|| (0..COUNT).map(|i| card(i).meta()).collect())[index]
    }
    #[cfg(not(feature = "split"))]
    {
        static METAS: OnceLock<Vec<ScenarioMeta>> = OnceLock::new();
        &METAS.get_or_init(metas)[index]
    }
}

/// What the picker and the URL need of a scenario before its code is here: the page's split
/// build keeps each `meta()` in its scenario's module. Written into `scenarios/cards.rs` from
/// the metas (`UPDATE_CONTENT=1 cargo test --test it content::`; that test holds them equal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Card {
    pub slug: &'static str,
    pub theme: [&'static str; 2],
    pub title: [&'static str; 2],
    /// The knobs' URL keys (a link may carry another scenario's knob: the page names it).
    pub knobs: &'static [&'static str],
}

/// What only the home page shows of a scenario, beside its card. Apart from the cards, so that
/// the split build moves it into the home page's own module: a scenario's summary then costs
/// no other entry point a byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blurb {
    /// The summary in English, a line break, then in Chinese. One literal, not two: the linker
    /// merges equal literals, and the scenario's own `meta()` holds each language's, so two
    /// would become data that home and the scenario share, which the split build puts in the
    /// chunks every scenario link fetches.
    pub summary: &'static str,
    pub variants: usize,
}

mod cards;
pub use cards::CARDS;

/// The card of the scenario at `index`: a scenario just added, whose card is not written yet
/// (`tests/it/content.rs` fails until it is), is named by its slug.
pub fn card(index: usize) -> Card {
    let slug = SLUGS[index.min(COUNT - 1)];
    CARDS.get(index).copied().unwrap_or(Card {
        slug,
        theme: [slug; 2],
        title: [slug; 2],
        knobs: &[],
    })
}

/// The home page's blurb of the scenario at `index` (none for one not written yet).
pub fn blurb(index: usize) -> Blurb {
    (cards::BLURBS.get(index).copied()).unwrap_or(Blurb {
        summary: "",
        variants: 0,
    })
}

impl Blurb {
    pub fn summary_in(&self, lang: crate::sim::Lang) -> &'static str {
        let (en, zh) = self.summary.split_once('\n').unwrap_or((self.summary, ""));
        match lang {
            crate::sim::Lang::En => en,
            crate::sim::Lang::Zh => zh,
        }
    }
}

impl Card {
    /// The card as a description with no variants and no summary, its knobs by key only.
    #[cfg_attr(not(feature = "split"), allow(dead_code))]
    fn meta(&self) -> ScenarioMeta {
        let text = |t: [&str; 2]| Text::new(t[0], t[1]);
        ScenarioMeta {
            slug: self.slug,
            theme: text(self.theme),
            title: text(self.title),
            summary: Text::default(),
            variants: Vec::new(),
            knobs: self.knobs.iter().map(|k| Knob::keyed(k)).collect(),
            moves_heading: None,
        }
    }

    /// The Rust source of `scenarios/cards.rs`, from the scenarios' metas.
    pub fn source() -> String {
        let pair = |t: &Text| format!("[{:?}, {:?}]", t.en, t.zh);
        let mut cards = String::from(
            "//! Generated from each scenario's `meta()` by `UPDATE_CONTENT=1 cargo test --test it content::`.\n\
             use super::{Blurb, Card};\n\n#[rustfmt::skip]\npub const CARDS: &[Card] = &[\n",
        );
        let mut blurbs = String::from(
            "\n/// Read by the home page only (see `Blurb`).\n#[rustfmt::skip]\npub const BLURBS: &[Blurb] = &[\n",
        );
        for i in 0..COUNT {
            let m = meta(i);
            let keys: Vec<String> = m.knobs.iter().map(|k| format!("{:?}", k.key)).collect();
            cards += &format!(
                "    Card {{\n        slug: {:?},\n        theme: {},\n        title: {},\n        knobs: &[{}],\n    }},\n",
                m.slug, pair(&m.theme), pair(&m.title), keys.join(", ")
            );
            blurbs += &format!(
                "    Blurb {{\n        summary: {:?},\n        variants: {},\n    }},\n",
                format!("{}\n{}", m.summary.en, m.summary.zh),
                m.variants.len()
            );
        }
        cards + "];\n" + &blurbs + "];\n"
    }
}

/// The index of the scenario with this slug, if there is one.
pub fn index_of(slug: &str) -> Option<usize> {
    SLUGS.iter().position(|&s| s == slug)
}

/// Explores variant `variant` of the scenario at `index` exhaustively with `budget` faults per
/// run (the player's budget when `None`) and the scenario's `knobs` (defaults when empty) within
/// `bounds`, reporting progress (distinct states so far). A plain function rather than a trait
/// method, so that the page, which never explores, does not carry the explorer: only the
/// explorer's worker, the tests and the benchmark link it.
#[cfg(not(feature = "split-worker"))]
pub fn explore(
    index: usize,
    variant: usize,
    budget: Option<u8>,
    knobs: &[u32],
    bounds: Bounds,
    progress: &mut dyn FnMut(usize),
) -> Option<Report> {
    // By slug (`SLUGS`), not through `meta()`: calling a method of the registry's trait
    // objects would link every scenario's player code into the worker.
    explore_slug(SLUGS.get(index)?, variant, budget, knobs, bounds, progress)
}

/// Makes the explorer of the scenario at `index` ready: the worker's split build fetches its
/// module the first time (a failure is not remembered, so calling again retries).
pub async fn fetch_explorer(index: usize) -> Result<(), LoadFailed> {
    #[cfg(feature = "split-worker")]
    if let Some(slug) = SLUGS.get(index) {
        fetch_explorer_of(slug).await?;
    }
    let _ = index;
    Ok(())
}

/// `explore` as the explorer's worker calls it: its split build (feature `split-worker`) first
/// fetches the scenario's module, which can fail (offline, a stale cache); calling again
/// retries. `Ok(None)`: no scenario at `index`.
pub async fn fetch_and_explore_at(
    index: usize,
    variant: usize,
    budget: Option<u8>,
    knobs: &[u32],
    bounds: Bounds,
    progress: &mut dyn FnMut(usize),
) -> Result<Option<Report>, LoadFailed> {
    let Some(slug) = SLUGS.get(index) else {
        return Ok(None);
    };
    #[cfg(feature = "split-worker")]
    return fetch_and_explore(slug, variant, budget, knobs, bounds, progress)
        .await
        .transpose();
    #[cfg(not(feature = "split-worker"))]
    Ok(explore_slug(slug, variant, budget, knobs, bounds, progress))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_explorer_s_slugs_follow_the_registry() {
        let slugs: Vec<&str> = super::all().iter().map(|s| s.meta().slug).collect();
        assert_eq!(slugs, super::SLUGS);
    }

    #[test]
    fn every_scenario_has_speaker_notes_in_both_languages() {
        for slug in super::SLUGS {
            let n = super::notes(slug).expect("notes");
            for t in [&n.say, &n.follow_up, &n.avoid] {
                assert!(!t.en.is_empty() && !t.zh.is_empty(), "{slug}");
            }
        }
        assert!(super::notes("nope").is_none());
    }

    #[test]
    fn the_home_page_s_blurbs_read_back_as_each_summary() {
        use crate::sim::Lang;
        for i in 0..super::COUNT {
            let (meta, blurb) = (super::meta(i), super::blurb(i));
            assert_eq!(blurb.summary_in(Lang::En), meta.summary.en, "{}", meta.slug);
            assert_eq!(blurb.summary_in(Lang::Zh), meta.summary.zh, "{}", meta.slug);
            assert_eq!(blurb.variants, meta.variants.len());
        }
    }
}
