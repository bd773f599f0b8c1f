//! Leases and fencing, proven: a worker that pauses past its lease wakes up and, unfenced,
//! refunds again and writes over the new holder's outcome; fenced, its write is refused (UPDATE
//! 0) but its refund call already went out; with the operation's idempotency key the provider
//! replays the first refund — exhaustively, within two and three pauses.

use crate::common::{assert_holds_everywhere, by_labels, explored, table, verdict};
use effectively_once::scenarios::{LeaseFencing, LfVariant};
use effectively_once::sim::{replay, Bounds, Status};

const ONCE: &str = "one refund per run";
const FENCED: &str = "a stale worker never overwrites";

/// A claims, pauses past its lease; B takes over and finishes; A wakes and finishes.
const STALE: [&str; 9] = [
    "Worker A claims r-7",
    "Pause worker A (GC)",
    "30 s pass: the lease expires",
    "Worker B claims r-7",
    "Worker B sends the refund",
    "Worker B writes COMPLETED",
    "Worker A wakes up",
    "Worker A sends the refund",
    "Worker A writes COMPLETED",
];

fn stale_run(v: LfVariant) -> effectively_once::sim::Trace {
    let m = LeaseFencing::model(v, 2);
    replay(&m, &by_labels(&m, &STALE))
}

#[test]
fn without_a_pause_one_worker_refunds_once() {
    for v in LfVariant::ALL {
        let t = replay(&LeaseFencing::model(v, 2), &[]);
        let end = t.last();
        assert_eq!(
            table(&t, end, "runs"),
            [["r-7", "COMPLETED", "A", "1", "A"]],
            "{v:?}"
        );
        assert_eq!(table(&t, end, "ledger").len(), 1);
    }
}

#[test]
fn unfenced_the_stale_worker_refunds_again_and_overwrites() {
    let t = stale_run(LfVariant::NoFencing);
    let end = t.last();
    assert_eq!(
        table(&t, end, "runs"),
        [["r-7", "COMPLETED", "B", "2", "A"]]
    );
    assert_eq!(table(&t, end, "ledger").len(), 2);
    assert_eq!(verdict(&t, end, ONCE).status, Status::Violated);
    assert_eq!(verdict(&t, end, FENCED).status, Status::Violated);
}

#[test]
fn fenced_the_write_is_refused_but_the_refund_went_out() {
    let t = stale_run(LfVariant::Fenced);
    let end = t.last();
    assert_eq!(
        table(&t, end, "runs"),
        [["r-7", "COMPLETED", "B", "2", "B"]]
    );
    assert!(t.steps[end]
        .info
        .code
        .as_deref()
        .unwrap_or("")
        .ends_with("-- UPDATE 0"));
    assert_eq!(table(&t, end, "ledger").len(), 2);
    assert_eq!(verdict(&t, end, ONCE).status, Status::Violated);
    assert_eq!(verdict(&t, end, FENCED).status, Status::Holds);
}

#[test]
fn with_the_key_the_provider_replays_the_first_refund() {
    let t = stale_run(LfVariant::FencedWithKey);
    let end = t.last();
    assert_eq!(table(&t, end, "ledger"), [["re_1", "r-7", "B", "op-r7"]]);
    assert_eq!(t.steps[8].info.title.en, "A's refund: replayed re_1");
    assert_eq!(verdict(&t, end, ONCE).status, Status::Holds);
    assert_eq!(verdict(&t, end, FENCED).status, Status::Holds);
}

#[test]
fn exploration_proves_the_key_and_finds_each_mistake() {
    let mut states = Vec::new();
    for v in LfVariant::ALL {
        for budget in [2, 3] {
            let (n, broken) = explored(&LeaseFencing::model(v, budget));
            states.push(n);
            let want = match v {
                LfVariant::NoFencing => [true, true],
                LfVariant::Fenced => [true, false],
                LfVariant::FencedWithKey => [false, false],
            };
            assert_eq!(broken, want, "{v:?} at budget {budget}");
        }
    }
    assert_eq!(
        states,
        [75, 123, 69, 113, 69, 113],
        "distinct states, budgets 2 and 3, pinned"
    );
    for budget in [2, 3] {
        assert_holds_everywhere(
            &LeaseFencing::model(LfVariant::FencedWithKey, budget),
            Bounds::default(),
        );
    }
}
