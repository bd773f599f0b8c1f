//! The dual-write scenario's story, proven: the naive variants break the named invariant at the
//! expected step, the outbox holds over exhaustive exploration, and the state counts are pinned.

use crate::common::{assert_holds_everywhere, by_labels, verdict};
use effectively_once::scenarios::{DualWrite, DwVariant};
use effectively_once::sim::{explore, replay, Bounds, Status};

const CTP: DwVariant = DwVariant::CommitThenPublish;
const PTC: DwVariant = DwVariant::PublishThenCommit;
const OUTBOX: DwVariant = DwVariant::Outbox;

/// Order 17 inserted and committed, then `fault`.
fn after_commit(fault: &str) -> [&str; 3] {
    [
        "Order service: insert order 17",
        "Order service: commit order 17",
        fault,
    ]
}

fn model(v: DwVariant) -> effectively_once::scenarios::DualWriteModel {
    DualWrite::model(v, DualWrite::FAULT_BUDGET)
}

#[test]
fn commit_then_publish_loses_the_event_when_the_service_crashes_after_commit() {
    let m = model(CTP);
    let path = by_labels(&m, &after_commit("Crash order service"));
    let trace = replay(&m, &path);
    // Right after the crash the event is only pending: the run can still make progress.
    assert_eq!(verdict(&trace, 3, "no lost event").status, Status::Pending);
    let end = verdict(&trace, trace.last(), "no lost event");
    assert_eq!(end.status, Status::Violated);
    assert_eq!(end.cause, Some(3), "the crash at step 3 caused it");
    assert!(end.why.en.contains("Order 17"), "{}", end.why.en);
    assert!(end.why.en.contains("e-17"), "{}", end.why.en);
    assert!(end.why.en.contains("step 3"), "{}", end.why.en);
    assert_eq!(
        verdict(&trace, trace.last(), "no phantom event").status,
        Status::Holds
    );
    // Order 18 is unaffected: it was committed and published after the restart.
    let end = trace.view(trace.last());
    let broker = &end.tables.iter().find(|t| t.key == "broker").unwrap().rows;
    assert_eq!(broker.len(), 1);
    assert_eq!(broker[0].cells[1].en, "e-18");
}

#[test]
fn commit_then_publish_loses_the_event_when_the_broker_is_unavailable() {
    let m = model(CTP);
    let path = by_labels(&m, &after_commit("Broker unavailable"));
    let trace = replay(&m, &path);
    assert_eq!(
        verdict(&trace, trace.last(), "no lost event").status,
        Status::Violated
    );
    let requests = &trace.view(trace.last()).tables[0];
    assert_eq!(
        requests.rows[0].cells[1].en, "201 Created",
        "the client was told it worked"
    );
}

#[test]
fn publish_then_commit_invents_an_event_when_the_transaction_rolls_back() {
    let m = model(PTC);
    for fault in ["Roll back transaction", "Crash order service"] {
        let path = by_labels(
            &m,
            &[
                "Order service: insert order 17",
                "Order service: publish e-17",
                fault,
            ],
        );
        let trace = replay(&m, &path);
        assert_eq!(
            verdict(&trace, 2, "no phantom event").status,
            Status::Holds,
            "{fault}"
        );
        let v = verdict(&trace, 3, "no phantom event");
        assert_eq!(v.status, Status::Violated, "{fault}");
        assert_eq!((v.since, v.cause), (Some(3), Some(3)), "{fault}");
        assert!(
            v.why.en.contains("e-17") && v.why.en.contains("order 17"),
            "{}",
            v.why.en
        );
        // Violations are sticky: the run stays broken to its end.
        assert_eq!(
            verdict(&trace, trace.last(), "no phantom event").status,
            Status::Violated
        );
    }
}

#[test]
fn the_outbox_survives_the_same_crash() {
    let m = model(OUTBOX);
    let path = by_labels(&m, &after_commit("Crash order service"));
    let trace = replay(&m, &path);
    for v in &trace.steps[trace.last()].verdicts {
        assert_eq!(v.status, Status::Holds, "{}: {}", v.name.en, v.why.en);
    }
}

#[test]
fn a_relay_crash_after_publish_publishes_twice_and_that_is_visible() {
    let m = model(OUTBOX);
    let path = by_labels(
        &m,
        &[
            "Order service: insert order 17",
            "Order service: commit order 17",
            "Relay: publish e-17",
            "Crash relay",
            "Restart relay",
            "Relay: publish e-17",
        ],
    );
    assert_eq!(path.len(), 6);
    let trace = replay(&m, &path);
    let step = &trace.steps[6];
    assert!(step
        .info
        .marks
        .iter()
        .any(|mk| mk.kind == effectively_once::sim::MarkKind::Duplicate));
    let end = trace.view(trace.last());
    let received = &end
        .tables
        .iter()
        .find(|t| t.key == "inventory")
        .unwrap()
        .rows;
    let notes: Vec<&str> = received.iter().map(|r| r.cells[2].en.as_str()).collect();
    assert_eq!(
        notes.iter().filter(|n| **n == "duplicate delivery").count(),
        1,
        "{notes:?}"
    );
    for v in &trace.steps[trace.last()].verdicts {
        assert_eq!(v.status, Status::Holds, "{}", v.name.en);
    }
}

#[test]
fn the_explorer_finds_each_naive_bug_and_proves_the_outbox() {
    let bounds = Bounds::default();
    let ctp = explore(&DualWrite::model(CTP, 2), bounds);
    let lost = &ctp.invariants[0];
    assert_eq!(lost.name.en, "no lost event");
    assert!(lost.violating_runs > 0);
    // Replaying the shortest counterexample really breaks the invariant.
    let cx = lost.counterexample.clone().expect("a counterexample");
    let trace = replay(&DualWrite::model(CTP, 2), &cx);
    assert_eq!(trace.path, cx, "a counterexample ends in a quiet state");
    assert_eq!(
        verdict(&trace, trace.last(), "no lost event").status,
        Status::Violated
    );

    let ptc = explore(&DualWrite::model(PTC, 2), bounds);
    let cx = ptc.invariants[1]
        .counterexample
        .clone()
        .expect("a counterexample");
    assert_eq!(cx.len(), 3, "insert, publish, then a fault");
    let trace = replay(&DualWrite::model(PTC, 2), &cx);
    assert_eq!(
        verdict(&trace, 3, "no phantom event").status,
        Status::Violated
    );

    for budget in [2, 3] {
        assert_holds_everywhere(&DualWrite::model(OUTBOX, budget), bounds);
    }
}

/// Tripwires: a change to the model that changes its reachable states shows up here.
#[test]
fn distinct_state_counts_are_pinned() {
    let counts: Vec<(DwVariant, u8, usize)> = vec![
        (CTP, 2, 153),
        (PTC, 2, 171),
        (OUTBOX, 2, 896),
        (CTP, 3, 187),
        (PTC, 3, 215),
        (OUTBOX, 3, 2243),
    ];
    for (v, budget, states) in counts {
        let r = explore(&DualWrite::model(v, budget), Bounds::default());
        assert!(!r.truncated && !r.cyclic, "{v:?}");
        assert_eq!(r.states, states, "{v:?} with fault budget {budget}");
    }
}
