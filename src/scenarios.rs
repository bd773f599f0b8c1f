//! The scenario registry: slug → scenario. Adding a scenario is one file and one line here.

mod approval;
mod backpressure;
mod cancellation;
mod checkpoint_replay;
mod dual_write;
mod duplicate_charge;
mod outbox_relay;
mod refund_cap;
mod retry_layers;
mod semaphore_scope;
mod unknown_outcome;

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
pub use dual_write::{DualWrite, DualWriteModel, DwAct, DwVariant};
pub use duplicate_charge::{
    DcAct, DcState, DcVariant, DuplicateCharge, DuplicateChargeModel, Key as DcKey,
};
pub use outbox_relay::{OrAct, OrVariant, OutboxRelay, OutboxRelayModel};
pub use refund_cap::{
    line_of, Answer, Pc, RcAct, RcState, RcVariant, RefundCap, RefundCapModel, Stmt, AMOUNT, CAP,
    KNOB_MAX,
};
pub use retry_layers::{
    call_status, secs, Behaviour, Effect, End, Outcome, RetryLayers, RetryLayersModel, RlState,
    RlVariant, SpanKind,
};
pub use semaphore_scope::{
    Inst as SsInst, SemaphoreScope, SemaphoreScopeModel, Slot as SsSlot, SsAct, SsState, SsVariant,
};
pub use unknown_outcome::{
    Answer as UoAnswer, Op, Reply, ReqPc, Status as OpStatus, UnknownOutcome, UnknownOutcomeModel,
    UoAct, UoState, UoVariant,
};

use crate::sim::{AnyScenario, Bounds, Notes, Report, Scenario, ScenarioMeta};
use std::sync::OnceLock;

/// A registered scenario. Scenarios are stateless descriptions, so they can live in statics.
pub type Registered = &'static (dyn AnyScenario + Sync);

/// Every scenario, in the order the picker shows them, grouped by theme as the home page lists
/// them. The first is the default.
static ALL: &[Registered] = &[
    &DualWrite,
    &OutboxRelay,
    &DuplicateCharge,
    &RefundCap,
    &SemaphoreScope,
    &Backpressure,
    &RetryLayers,
    &UnknownOutcome,
    &Cancellation,
    &CheckpointReplay,
    &Approval,
];

/// The slugs of `ALL`, in the same order (a test holds them equal).
pub const SLUGS: &[&str] = &[
    "dual-write",
    "outbox-relay",
    "duplicate-charge",
    "refund-cap",
    "semaphore-scope",
    "backpressure",
    "retry-layers",
    "unknown-outcome",
    "cancellation",
    "checkpoint-replay",
    "approval",
];

pub fn all() -> &'static [Registered] {
    ALL
}

/// The description of the scenario at `index` (past the end: the last), built once. `meta()`
/// builds every string of it on each call, and the page reads it on every step.
pub fn meta(index: usize) -> &'static ScenarioMeta {
    static METAS: OnceLock<Vec<ScenarioMeta>> = OnceLock::new();
    let metas = METAS.get_or_init(|| ALL.iter().map(|s| s.meta()).collect());
    &metas[index.min(metas.len() - 1)]
}

/// The index of the scenario with this slug, if there is one.
pub fn index_of(slug: &str) -> Option<usize> {
    SLUGS.iter().position(|&s| s == slug)
}

/// Explores variant `variant` of the scenario at `index` exhaustively with `budget` faults per
/// run (the player's budget when `None`) and the scenario's `knobs` (defaults when empty) within
/// `bounds`, reporting progress (distinct states so far). A plain function rather than a trait method, so that the page, which never explores,
/// does not carry the explorer: only the explorer's worker, the tests and the benchmark link it.
pub fn explore(
    index: usize,
    variant: usize,
    budget: Option<u8>,
    knobs: &[u32],
    bounds: Bounds,
    progress: &mut dyn FnMut(usize),
) -> Option<Report> {
    // By slug, not position, so the picker's order can change without touching this. The
    // slugs come from `SLUGS`, not `meta()`: calling a method of the registry's trait objects
    // would link every scenario's player code into the worker.
    fn run<S: Scenario>(
        variant: usize,
        budget: Option<u8>,
        knobs: &[u32],
        bounds: Bounds,
        progress: &mut dyn FnMut(usize),
    ) -> Report {
        crate::sim::explore_with(&S::model_of(variant, budget, knobs), bounds, progress)
    }
    // Called in each arm, not through a chosen function pointer: the pointer cost the worker
    // 3.1 KB of gzip (BENCHMARKS.md, "Bundle").
    let (v, b, k, p) = (variant, budget, knobs, progress);
    Some(match *SLUGS.get(index)? {
        "dual-write" => run::<DualWrite>(v, b, k, bounds, p),
        "outbox-relay" => run::<OutboxRelay>(v, b, k, bounds, p),
        "refund-cap" => run::<RefundCap>(v, b, k, bounds, p),
        "retry-layers" => run::<RetryLayers>(v, b, k, bounds, p),
        "unknown-outcome" => run::<UnknownOutcome>(v, b, k, bounds, p),
        "checkpoint-replay" => run::<CheckpointReplay>(v, b, k, bounds, p),
        "backpressure" => run::<Backpressure>(v, b, k, bounds, p),
        "duplicate-charge" => run::<DuplicateCharge>(v, b, k, bounds, p),
        "cancellation" => run::<Cancellation>(v, b, k, bounds, p),
        "approval" => run::<Approval>(v, b, k, bounds, p),
        "semaphore-scope" => run::<SemaphoreScope>(v, b, k, bounds, p),
        _ => return None,
    })
}

/// The speaker notes of the scenario with this slug. A plain function, not a `meta()` field:
/// the page fetches the notes on demand (`notes.json`, written by `content::notes_json`), so
/// the page's wasm does not carry them.
pub fn notes(slug: &str) -> Option<Notes> {
    Some(match slug {
        "dual-write" => dual_write::notes(),
        "outbox-relay" => outbox_relay::notes(),
        "duplicate-charge" => duplicate_charge::notes(),
        "refund-cap" => refund_cap::notes(),
        "semaphore-scope" => semaphore_scope::notes(),
        "backpressure" => backpressure::notes(),
        "retry-layers" => retry_layers::notes(),
        "unknown-outcome" => unknown_outcome::notes(),
        "cancellation" => cancellation::notes(),
        "checkpoint-replay" => checkpoint_replay::notes(),
        "approval" => approval::notes(),
        _ => return None,
    })
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
}
