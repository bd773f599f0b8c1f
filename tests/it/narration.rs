//! Every reachable state of every variant, at the player's fault budget and default knobs,
//! speaks both languages: every offered action has a label, every step a title and narration,
//! every table a title; what the replay keeps of each view (`Present::kept`) is the view's.
//! The explorer proves the models; this walks the same graph through their presentation.

use effectively_once::scenarios::{
    Approval, Backpressure, Cancellation, CheckpointReplay, DeadLetter, DualWrite, DuplicateCharge,
    EventOrder, LeaseFencing, OrderApi, OutboxRelay, RefundCap, RetryLayers, SemaphoreScope,
    UnknownOutcome,
};
use effectively_once::sim::kit::Variants;
use effectively_once::sim::{AnyScenario, Kept, Present, Scenario, Text};
use std::collections::{HashSet, VecDeque};

fn said(t: &Text) -> bool {
    !t.en.trim().is_empty() && !t.zh.trim().is_empty()
}

/// Walks every state reachable within the budget (faults counted beside the state, as the
/// engine does), checking each offered action's label and each step's title and narration.
/// Returns the number of states seen.
fn walk<M: Present>(model: &M, name: &str) -> usize {
    assert!(said(&model.intro()), "{name}: intro");
    let start = (model.init(), 0u8);
    let mut seen = HashSet::from([start.clone()]);
    let mut queue = VecDeque::from([start]);
    let mut actions = Vec::new();
    while let Some((state, faults)) = queue.pop_front() {
        let view = model.view(&state);
        assert_eq!(
            model.kept(&state),
            Kept::of(&view),
            "{name}: kept in {state:?}"
        );
        for table in view.tables {
            assert!(
                said(&table.title),
                "{name}: table {} has no title",
                table.key
            );
        }
        actions.clear();
        model.actions(&state, &mut actions);
        actions.retain(|a| faults < model.fault_budget() || !model.is_fault(a));
        for a in &actions {
            let label = model.label(&state, a);
            assert!(said(&label), "{name}: no label for {a:?} in {state:?}");
            let next = model.next(&state, a);
            let info = model.describe(&state, a, &next);
            assert!(
                said(&info.title),
                "{name}: no title after {a:?} ({})",
                label.en
            );
            assert!(
                said(&info.narration),
                "{name}: no narration after {a:?} ({})",
                label.en
            );
            let next = (next, faults + u8::from(model.is_fault(a)));
            if seen.insert(next.clone()) {
                queue.push_back(next);
            }
        }
    }
    seen.len()
}

fn every_variant<S: Scenario>(scenario: S) {
    let meta = scenario.meta();
    assert_eq!(S::Variant::ALL.len(), meta.variants.len(), "{}", meta.slug);
    for (v, variant) in meta.variants.iter().enumerate() {
        let name = format!("{}/{}", meta.slug, variant.slug);
        let states = walk(&S::model_of(v, None, &[]), &name);
        assert!(states > 1, "{name}");
    }
}

#[test]
fn dual_write_speaks_in_every_state() {
    every_variant(DualWrite);
}
#[test]
fn outbox_relay_speaks_in_every_state() {
    every_variant(OutboxRelay);
}
#[test]
fn duplicate_charge_speaks_in_every_state() {
    every_variant(DuplicateCharge);
}
#[test]
fn refund_cap_speaks_in_every_state() {
    every_variant(RefundCap);
}
#[test]
fn semaphore_scope_speaks_in_every_state() {
    every_variant(SemaphoreScope);
}
#[test]
fn backpressure_speaks_in_every_state() {
    every_variant(Backpressure);
}
#[test]
fn retry_layers_speaks_in_every_state() {
    every_variant(RetryLayers);
    // The longest run of the knobs' range (4 layers × 5 attempts, always timing out: 625
    // calls), where what the replay keeps is said without drawing the view.
    let longest = RetryLayers.trace_with(0, &[4, 5, 0, 2, 600, 7], &[]);
    assert!(longest.last() > 600);
    for (t, step) in longest.steps.iter().enumerate() {
        assert_eq!(step.down, Kept::of(&longest.view(t)).down, "step {t}");
    }
}
#[test]
fn unknown_outcome_speaks_in_every_state() {
    every_variant(UnknownOutcome);
}
#[test]
fn cancellation_speaks_in_every_state() {
    every_variant(Cancellation);
}
#[test]
fn checkpoint_replay_speaks_in_every_state() {
    every_variant(CheckpointReplay);
}
#[test]
fn dead_letter_speaks_in_every_state() {
    every_variant(DeadLetter);
}
#[test]
fn order_api_speaks_in_every_state() {
    every_variant(OrderApi);
}
#[test]
fn lease_fencing_speaks_in_every_state() {
    every_variant(LeaseFencing);
}
#[test]
fn event_order_speaks_in_every_state() {
    every_variant(EventOrder);
}
#[test]
fn approval_speaks_in_every_state() {
    every_variant(Approval);
}
