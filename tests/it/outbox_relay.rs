//! The outbox-relay scenario's story, proven: each mistake breaks its named invariant at the
//! expected step, the fixes hold over exhaustive exploration, and the state counts are pinned.

use crate::common::{assert_holds_everywhere, by_labels, table, verdict};
use effectively_once::scenarios::{OrVariant, OutboxRelay, OutboxRelayModel};
use effectively_once::sim::{explore, replay, Bounds, MetricValue, Status, Trace};

const RESERVED_ONCE: &str = "inventory reserved once per order";
const NO_LOST: &str = "no lost event";
const IN_ORDER: &str = "events of one order applied in version order";
const ONE_RELAY: &str = "each row published by one relay at a time";

fn model(v: OrVariant) -> OutboxRelayModel {
    OutboxRelay::model(v, OutboxRelay::budget(v))
}

fn bounds() -> Bounds {
    Bounds {
        max_depth: 64,
        max_states: 2_000_000,
    }
}

/// Create and cancel order 17, claim and publish e-1, then crash the relay.
const RELAY_CRASH: [&str; 5] = [
    "Order service: create order 17",
    "Order service: cancel order 17",
    "Relay: claim e-1",
    "Relay: publish e-1",
    "Crash relay after publish",
];

fn metric(trace: &Trace, step: usize, name: &str) -> Option<u32> {
    trace
        .view(step)
        .metrics
        .iter()
        .find(|m| m.name.en == name)
        .unwrap_or_else(|| panic!("no metric {name}"))
        .value
        .at(step)
}

/// The step whose title is `title`, the `nth` time it occurs (0-based).
fn step_titled(trace: &Trace, title: &str, nth: usize) -> usize {
    trace
        .steps
        .iter()
        .enumerate()
        .filter(|(_, s)| s.info.title.en == title)
        .nth(nth)
        .map(|(i, _)| i)
        .unwrap_or_else(|| panic!("no step '{title}' #{nth}"))
}

#[test]
fn no_dedup_reserves_stock_twice_after_a_relay_crash() {
    let m = model(OrVariant::NoDedup);
    let trace = replay(&m, &by_labels(&m, &RELAY_CRASH));
    let broker: Vec<String> = table(&trace, trace.last(), "broker")
        .into_iter()
        .map(|r| r[1].clone())
        .collect();
    assert_eq!(
        broker,
        ["e-1", "e-1", "e-2"],
        "published again after restart"
    );
    let second = step_titled(&trace, "commit e-1", 1);
    let v = verdict(&trace, second, RESERVED_ONCE);
    assert_eq!(v.status, Status::Violated);
    assert_eq!(v.since, Some(second), "broken when the duplicate commits");
    assert_eq!(v.cause, Some(5), "caused by the crash at step 5");
    assert_eq!(
        verdict(&trace, second - 1, RESERVED_ONCE).status,
        Status::Holds
    );
    assert_eq!(table(&trace, second, "stock")[0][1], "2", "two units held");
    assert_eq!(
        metric(&trace, trace.last(), "duplicates delivered"),
        Some(1)
    );
    assert_eq!(metric(&trace, trace.last(), "duplicates absorbed"), Some(0));
    // The cancellation releases one unit: one stays reserved for a cancelled order.
    assert_eq!(table(&trace, trace.last(), "stock")[0][1], "1");
}

#[test]
fn the_inbox_absorbs_the_same_duplicate() {
    let m = model(OrVariant::Inbox);
    let trace = replay(&m, &by_labels(&m, &RELAY_CRASH));
    let end = trace.last();
    for name in [RESERVED_ONCE, NO_LOST, IN_ORDER] {
        assert_eq!(verdict(&trace, end, name).status, Status::Holds, "{name}");
    }
    let handled: Vec<String> = table(&trace, end, "handled")
        .into_iter()
        .map(|r| format!("{} {}", r[1], r[2]))
        .collect();
    assert_eq!(
        handled,
        ["e-1 reserved 1", "e-1 duplicate: no change", "e-2 released"]
    );
    assert_eq!(metric(&trace, end, "duplicates delivered"), Some(1));
    assert_eq!(metric(&trace, end, "duplicates absorbed"), Some(1));
    assert_eq!(table(&trace, end, "stock")[0][1], "0");
    let inbox: Vec<String> = table(&trace, end, "inbox")
        .into_iter()
        .map(|r| r[0].clone())
        .collect();
    assert_eq!(inbox, ["e-1", "e-2"]);
}

#[test]
fn a_lost_ack_is_a_duplicate_too_and_the_inbox_absorbs_it() {
    let m = model(OrVariant::Inbox);
    let mut labels = RELAY_CRASH.to_vec();
    labels[4] = "Broker ack lost (relay)";
    let trace = replay(&m, &by_labels(&m, &labels));
    assert!(trace.steps[5]
        .info
        .narration
        .en
        .contains("A timeout is not a failure"));
    assert_eq!(metric(&trace, trace.last(), "duplicates absorbed"), Some(1));
    assert_eq!(
        verdict(&trace, trace.last(), RESERVED_ONCE).status,
        Status::Holds
    );
}

#[test]
fn inbox_in_a_separate_transaction_loses_the_effect_on_a_crash_in_between() {
    let m = model(OrVariant::InboxSeparateTx);
    let default = replay(&m, &[]);
    let at = step_titled(&default, "inbox e-1", 0);
    let mut path = default.path[..at].to_vec();
    let crash = replay(&m, &path).steps[at]
        .choices
        .iter()
        .find(|c| c.label.en == "Crash inventory")
        .map(|c| c.index)
        .expect("a crash between the two transactions");
    path.push(crash);
    let trace = replay(&m, &path);
    let end = trace.last();
    let v = verdict(&trace, end, NO_LOST);
    assert_eq!(v.status, Status::Violated);
    assert_eq!(v.cause, Some(at + 1), "the crash between the transactions");
    assert!(
        v.why.en.contains("e-1 is in processed_messages"),
        "{}",
        v.why.en
    );
    assert_eq!(verdict(&trace, end, RESERVED_ONCE).status, Status::Holds);
    // The redelivery is absorbed by the inbox, so the stock never changed.
    assert_eq!(metric(&trace, end, "duplicates absorbed"), Some(1));
}

#[test]
fn delete_after_publish_loses_an_event_the_broker_never_stored() {
    let m = model(OrVariant::DeleteAfterPublish);
    let mut labels = RELAY_CRASH[..3].to_vec();
    labels.push("Publish of e-1 lost (relay)");
    let trace = replay(&m, &by_labels(&m, &labels));
    let end = trace.last();
    assert!(
        !table(&trace, 4, "outbox").iter().any(|r| r[0] == "e-1"),
        "the row is deleted"
    );
    let v = verdict(&trace, end, NO_LOST);
    assert_eq!(v.status, Status::Violated);
    assert_eq!(v.cause, Some(4));
    assert!(v.why.en.contains("never stored"), "{}", v.why.en);
    // The same fault with a relay that marks sent is harmless: the row stays pending.
    let m = model(OrVariant::Inbox);
    let mut labels = RELAY_CRASH[..3].to_vec();
    labels.push("Publish of e-1 lost (relay)");
    let trace = replay(&m, &by_labels(&m, &labels));
    assert_eq!(verdict(&trace, trace.last(), NO_LOST).status, Status::Holds);
}

#[test]
fn two_relays_with_a_plain_select_take_the_same_row() {
    let m = model(OrVariant::TwoRelays);
    let trace = replay(&m, &[]);
    assert_eq!(trace.steps[4].info.title.en, "relay B claims e-1");
    let v = verdict(&trace, 4, ONE_RELAY);
    assert_eq!(v.status, Status::Violated);
    assert_eq!(v.since, Some(4));
    assert_eq!(verdict(&trace, 3, ONE_RELAY).status, Status::Holds);
    assert_eq!(
        metric(&trace, trace.last(), "duplicates absorbed"),
        Some(1),
        "the inbox still saves the stock"
    );
}

#[test]
fn skip_locked_divides_the_rows_and_the_version_guard_absorbs_the_overtaken_event() {
    let m = model(OrVariant::SkipLocked);
    let trace = replay(&m, &[]);
    assert_eq!(trace.steps[4].info.title.en, "relay B claims e-2");
    let broker: Vec<String> = table(&trace, trace.last(), "broker")
        .into_iter()
        .map(|r| format!("{} v{}", r[1], r[2]))
        .collect();
    assert_eq!(broker, ["e-2 v2", "e-1 v1"], "v2 overtook v1");
    let handled: Vec<String> = table(&trace, trace.last(), "handled")
        .into_iter()
        .map(|r| format!("{} {}", r[1], r[2]))
        .collect();
    assert_eq!(handled, ["e-2 released", "e-1 old version: no change"]);
    for name in [RESERVED_ONCE, NO_LOST, IN_ORDER, ONE_RELAY] {
        assert_eq!(
            verdict(&trace, trace.last(), name).status,
            Status::Holds,
            "{name}"
        );
    }
}

#[test]
fn the_oldest_pending_age_counts_steps_since_the_row_committed() {
    let m = model(OrVariant::Inbox);
    let trace = replay(&m, &[]);
    let age: Vec<Option<u32>> = (0..7)
        .map(|t| metric(&trace, t, "oldest pending age (steps)"))
        .collect();
    // e-1 pending from step 1 until marked sent at step 5; then e-2 (pending since step 2).
    assert_eq!(
        age,
        [None, Some(0), Some(1), Some(2), Some(3), Some(3), Some(4)]
    );
    assert_eq!(metric(&trace, 2, "outbox pending"), Some(2));
    assert!(matches!(
        trace.view(0).metrics[1].value,
        MetricValue::Oldest { .. }
    ));
}

#[test]
fn the_fixes_hold_over_every_run_within_the_fault_budget() {
    for v in [OrVariant::Inbox, OrVariant::SkipLocked] {
        assert_holds_everywhere(&OutboxRelay::model(v, 2), bounds());
    }
    assert_holds_everywhere(&OutboxRelay::model(OrVariant::Inbox, 3), bounds());
}

/// A variant, its fault budget, its distinct states, and the invariants it breaks with the
/// length of the shortest counterexample.
type Case = (OrVariant, u8, usize, &'static [(&'static str, usize)]);

#[test]
fn the_explorer_finds_each_mistake_and_pins_the_state_counts() {
    let cases: [Case; 10] = [
        (
            OrVariant::NoDedup,
            2,
            4_028,
            &[(RESERVED_ONCE, 9), (IN_ORDER, 17)],
        ),
        (
            OrVariant::NoDedup,
            3,
            15_157,
            &[(RESERVED_ONCE, 9), (IN_ORDER, 17)],
        ),
        (OrVariant::Inbox, 2, 4_028, &[]),
        (OrVariant::Inbox, 3, 15_157, &[]),
        (OrVariant::InboxSeparateTx, 2, 5_868, &[(NO_LOST, 21)]),
        (OrVariant::InboxSeparateTx, 3, 23_646, &[(NO_LOST, 21)]),
        (OrVariant::DeleteAfterPublish, 2, 488, &[(NO_LOST, 6)]),
        (OrVariant::DeleteAfterPublish, 3, 1_004, &[(NO_LOST, 6)]),
        (OrVariant::TwoRelays, 2, 117_610, &[(ONE_RELAY, 3)]),
        (OrVariant::SkipLocked, 2, 47_462, &[]),
    ];
    for (v, budget, states, broken) in cases {
        let m = OutboxRelay::model(v, budget);
        let r = explore(&m, bounds());
        assert!(!r.truncated && !r.cyclic);
        assert_eq!(r.states, states, "{v:?} with {budget} faults");
        for inv in &r.invariants {
            let name = inv.name.en.as_str();
            match broken.iter().find(|b| b.0 == name) {
                Some(&(_, shortest)) => {
                    let path = inv.counterexample.as_ref().expect("a counterexample");
                    assert_eq!(path.len(), shortest, "{v:?}: {name}");
                    assert!(inv.violating_runs > 0);
                    // The counterexample really breaks it when replayed.
                    let trace = replay(&m, path);
                    assert_eq!(
                        verdict(&trace, trace.last(), name).status,
                        Status::Violated,
                        "{v:?}: {name}"
                    );
                }
                None => assert_eq!(inv.violating_runs, 0, "{v:?}: {name}"),
            }
        }
    }
}

#[test]
fn the_same_fault_schedule_on_the_fix_reserves_once() {
    use effectively_once::sim::AnyScenario;
    let naive = OutboxRelay.trace(0, &by_labels(&model(OrVariant::NoDedup), &RELAY_CRASH));
    let path = OutboxRelay.follow(1, &naive.keys());
    let fixed = OutboxRelay.trace(1, &path);
    assert_eq!(
        fixed.steps[5].info.title.en, "⚡ crash relay",
        "the crash lands at the same step"
    );
    assert_eq!(fixed.keys(), naive.keys(), "same actions throughout");
    let end = fixed.last();
    assert_eq!(verdict(&fixed, end, RESERVED_ONCE).status, Status::Holds);
    assert_eq!(
        verdict(&naive, naive.last(), RESERVED_ONCE).status,
        Status::Violated
    );
}

/// The figure is a ledger: order 17's stock reserved twice against once intended in no-dedup,
/// once in the inbox; a lost effect shows as a missing one.
#[test]
fn the_figure_counts_the_reservations_against_the_one_intended() {
    use effectively_once::scenarios;
    use effectively_once::sim::{decode_path, FigureBody};
    let s = scenarios::all()[scenarios::index_of("outbox-relay").unwrap()];
    let ledger = |v: usize, path: &str| {
        let p = decode_path(path).0;
        let t = s.trace(v, &p);
        let f = t.view(p.len()).figure.clone().unwrap();
        let FigureBody::Ledger(rows) = f.body else {
            panic!("a ledger")
        };
        (
            rows.iter()
                .map(|r| (r.intended, r.executed))
                .collect::<Vec<_>>(),
            f.name.en,
        )
    };
    let (rows, name) = ledger(0, "011222522");
    assert_eq!(rows[0], (1, 2), "reserved twice");
    assert!(
        name.starts_with("stock for order 17 reserved 2 times (once intended)"),
        "{name}"
    );
    let (rows, _) = ledger(1, "011222522");
    assert_eq!(rows[0], (1, 1), "the inbox absorbs it");
    let (rows, _) = ledger(2, "000000000000001110000");
    assert_eq!(rows[1], (2, 1), "one event never took effect");
}

/// The lessons as taught: the stock row is there before the events change it (an UPDATE finds a
/// row, as in PostgreSQL); a version gap is explained, not waved through; the notes have the
/// version check the right way round.
#[test]
fn the_stock_row_exists_and_gaps_are_explained() {
    use effectively_once::content::notes_json;
    use effectively_once::scenarios;
    let s = scenarios::all()[scenarios::index_of("outbox-relay").unwrap()];
    let t = s.trace(0, &[]);
    assert_eq!(table(&t, 0, "stock"), [["17", "0"]], "before any event");
    let skip = s.trace(5, &[]);
    let gap = skip
        .steps
        .iter()
        .find(|st| st.info.narration.en.contains("a gap"));
    let gap = gap
        .expect("the skip-locked run meets a version gap")
        .info
        .narration
        .en
        .clone();
    assert!(
        gap.contains("look up order 17's current state")
            && gap.contains("never drop every late message"),
        "{gap}"
    );
    assert!(!gap.contains("a gap the consumer allows"));
    let notes = notes_json();
    assert!(notes.contains("ignores an older event that arrives after a newer one was applied"));
    assert!(!notes.contains("overtake each other"));
}
