//! Events as a state machine, proven: applying whatever arrives takes a status back on a late
//! event and counts a duplicate twice; a version guard is safe against both but accepts a gap and
//! then drops the events that fill it, so a payment is never recorded; a state machine that looks
//! the payment up on a gap keeps the books equal to the provider's — in every order of arrival,
//! with two and three duplicates.

use crate::common::{assert_holds_everywhere, explored, table, verdict};
use effectively_once::scenarios::{EoVariant, EventOrder};
use effectively_once::sim::{decode_path, replay, Bounds, Status};

const BACK: &str = "the status never goes back";
const ONCE: &str = "each effect counted once";
const BOOKS: &str = "the books match the provider";

fn run(v: EoVariant, path: &str) -> effectively_once::sim::Trace {
    replay(&EventOrder::model(v, 2), &decode_path(path).0)
}

#[test]
fn in_order_every_consumer_matches_the_provider() {
    for v in EoVariant::ALL {
        let t = run(v, "");
        let end = t.last();
        assert_eq!(
            table(&t, end, "payments"),
            [["pay-1701", "REFUNDED", "4", "100.00", "80.00"]],
            "{v:?}"
        );
        for name in [BACK, ONCE, BOOKS] {
            assert_eq!(verdict(&t, end, name).status, Status::Holds, "{v:?} {name}");
        }
    }
}

#[test]
fn last_write_wins_goes_back_and_counts_twice() {
    let t = run(EoVariant::LastWriteWins, "10");
    assert_eq!(table(&t, 2, "payments")[0][1], "PROCESSING");
    assert_eq!(verdict(&t, 2, BACK).status, Status::Violated);
    // v3 delivered again: 100.00 counted twice.
    let t = run(EoVariant::LastWriteWins, "12");
    assert_eq!(table(&t, 2, "payments")[0][3], "200.00");
    assert_eq!(verdict(&t, 2, ONCE).status, Status::Violated);
}

#[test]
fn a_version_guard_accepts_a_gap_and_loses_the_payment() {
    let t = run(EoVariant::VersionGuard, "200");
    let end = t.last();
    assert_eq!(
        table(&t, end, "payments"),
        [["pay-1701", "REFUNDED", "4", "0.00", "80.00"]]
    );
    assert_eq!(verdict(&t, end, BOOKS).status, Status::Violated);
    assert_eq!(verdict(&t, end, BACK).status, Status::Holds);
}

#[test]
fn a_state_machine_looks_up_on_a_gap() {
    let t = run(EoVariant::StateMachine, "200");
    assert_eq!(table(&t, 1, "deliveries")[0][3], "gap: looked up");
    let end = t.last();
    assert_eq!(
        table(&t, end, "payments"),
        [["pay-1701", "REFUNDED", "4", "100.00", "80.00"]]
    );
    assert_eq!(verdict(&t, end, BOOKS).status, Status::Holds);
}

#[test]
fn exploration_proves_the_state_machine_and_finds_each_mistake() {
    let mut states = Vec::new();
    for v in EoVariant::ALL {
        for budget in [2, 3] {
            let (n, broken) = explored(&EventOrder::model(v, budget));
            states.push(n);
            let want = match v {
                EoVariant::LastWriteWins => [true, true, true],
                EoVariant::VersionGuard => [false, false, true],
                EoVariant::StateMachine => [false; 3],
            };
            assert_eq!(broken, want, "{v:?} at budget {budget}");
        }
    }
    assert_eq!(
        states,
        [181, 271, 181, 271, 181, 271],
        "distinct states, budgets 2 and 3, pinned"
    );
    for budget in [2, 3] {
        assert_holds_everywhere(
            &EventOrder::model(EoVariant::StateMachine, budget),
            Bounds::default(),
        );
    }
}
