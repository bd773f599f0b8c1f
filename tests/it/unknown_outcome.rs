//! The refund-timeout drill, proven: a timeout treated as a failure refunds twice; treated as
//! unknown and retried with the same key, once; check-then-insert creates two operations for one
//! key, the unique constraint one; and exhaustive exploration with two faults per run proves the
//! safe variants hold all four invariants.

use crate::common::{assert_holds_everywhere, by_labels, table, verdict};
use effectively_once::scenarios::{UnknownOutcome, UoVariant};
use effectively_once::scenarios::{UoOutcome as Outcome, UoState};
use effectively_once::sim::{explore, replay, Bounds, Model, Status};
use std::collections::{BTreeSet, HashSet};

const REFUNDABLE: &str = "refunded ≤ refundable";
const ONCE: &str = "at most one refund per operation";
const KEPT: &str = "no reservation released while the outcome is unknown";
const ONE_OP: &str = "one operation per idempotency key";
const ALL: [&str; 4] = [REFUNDABLE, ONCE, KEPT, ONE_OP];

fn bounds() -> Bounds {
    Bounds {
        max_depth: 64,
        max_states: 2_000_000,
    }
}

#[test]
fn without_faults_every_single_request_variant_refunds_once() {
    for v in [UoVariant::MarkFailedNewKey, UoVariant::UnknownSameKey] {
        let m = UnknownOutcome::model(v, 2);
        let t = replay(&m, &[]);
        let last = t.last();
        assert!(t.steps[last].quiet);
        assert_eq!(table(&t, last, "ledger").len(), 1, "{v:?}");
        assert_eq!(table(&t, last, "ops")[0][3], "SUCCEEDED");
        assert_eq!(table(&t, last, "orders")[0][2..], ["0.00", "80.00"]);
        for name in ALL {
            assert_eq!(
                verdict(&t, last, name).status,
                Status::Holds,
                "{v:?} {name}"
            );
        }
    }
}

/// The drill: the provider refunds, its answer is lost, the worker times out.
const DRILL: [&str; 6] = [
    "API: A's INSERT and reserve",
    "Worker: claim op-1",
    "Worker: send the refund",
    "Provider: process the request ({key})",
    "Lose the provider's answer",
    "Worker: time out (5 s)",
];

fn drill(v: UoVariant, key: &str) -> Vec<u8> {
    let labels: Vec<String> = DRILL.iter().map(|l| l.replace("{key}", key)).collect();
    let labels: Vec<&str> = labels.iter().map(|s| s.as_str()).collect();
    by_labels(&UnknownOutcome::model(v, 2), &labels)
}

#[test]
fn the_drill_marked_failed_refunds_twice() {
    let m = UnknownOutcome::model(UoVariant::MarkFailedNewKey, 2);
    let path = drill(UoVariant::MarkFailedNewKey, "op-1-a1");
    let t = replay(&m, &path);
    // After the timeout: FAILED, reservation released, while the provider has refunded.
    let at = path.len();
    assert_eq!(table(&t, at, "ops")[0][3], "FAILED");
    assert_eq!(table(&t, at, "orders")[0][2], "0.00", "released");
    let kept = verdict(&t, at, KEPT);
    assert_eq!(kept.status, Status::Violated);
    assert!(
        kept.why.en.contains("the provider had already refunded it"),
        "{}",
        kept.why.en
    );
    // The default continuation retries under a new key: a second refund.
    let last = t.last();
    let ledger = table(&t, last, "ledger");
    assert_eq!(ledger.len(), 2, "{ledger:?}");
    assert_eq!(
        [ledger[0][1].as_str(), ledger[1][1].as_str()],
        ["op-1-a1", "op-1-a2"]
    );
    assert_eq!(verdict(&t, last, ONCE).status, Status::Violated);
    let over = verdict(&t, last, REFUNDABLE);
    assert_eq!(over.status, Status::Violated);
    assert!(
        over.why.en.contains("has refunded 160.00"),
        "{}",
        over.why.en
    );
}

#[test]
fn the_drill_as_unknown_keeps_the_reservation_and_refunds_once() {
    let m = UnknownOutcome::model(UoVariant::UnknownSameKey, 2);
    let path = drill(UoVariant::UnknownSameKey, "op-1");
    let t = replay(&m, &path);
    let at = path.len();
    assert_eq!(table(&t, at, "ops")[0][3], "UNKNOWN (reconciling)");
    assert_eq!(
        table(&t, at, "orders")[0][2],
        "80.00",
        "the reservation is kept"
    );
    let last = t.last();
    assert_eq!(table(&t, last, "ledger").len(), 1);
    assert_eq!(table(&t, last, "ops")[0][3], "SUCCEEDED");
    assert_eq!(table(&t, last, "orders")[0][2..], ["0.00", "80.00"]);
    // The retry with the same key was answered from the provider's saved result.
    let replay = (t.steps.iter())
        .find(|s| s.info.title.en == "replay op-1")
        .expect("the same key is answered from the saved result");
    // What Stripe API v1 promises about that saved result (SOURCES.md): failures are replayed
    // too, and a key is kept at least 24 hours.
    let said = &replay.info.narration;
    for (en, zh) in [("saved failure", "失败"), ("24 hours", "24 小时")] {
        assert!(said.en.contains(en) && said.zh.contains(zh), "{said:?}");
    }
    for name in ALL {
        assert_eq!(verdict(&t, last, name).status, Status::Holds, "{name}");
    }
}

#[test]
fn a_crash_after_sending_is_a_failure_to_one_and_unknown_to_the_other() {
    let prefix = [
        "API: A's INSERT and reserve",
        "Worker: claim op-1",
        "Worker: send the refund",
        "Crash the worker (sent, not saved)",
        "Restart the worker",
    ];
    let m = UnknownOutcome::model(UoVariant::MarkFailedNewKey, 2);
    let t = replay(&m, &by_labels(&m, &prefix));
    assert_eq!(
        table(&t, t.last(), "ledger").len(),
        2,
        "a new key refunds again"
    );
    let m = UnknownOutcome::model(UoVariant::UnknownSameKey, 2);
    let path = by_labels(&m, &prefix);
    let t = replay(&m, &path);
    assert_eq!(table(&t, path.len(), "ops")[0][3], "UNKNOWN (reconciling)");
    assert_eq!(table(&t, t.last(), "ledger").len(), 1);
    for name in ALL {
        assert_eq!(verdict(&t, t.last(), name).status, Status::Holds);
    }
}

#[test]
fn creating_the_operation_twice_at_once() {
    // Check-then-insert: both checks, then both inserts: two operations, two refunds.
    let m = UnknownOutcome::model(UoVariant::CheckThenInsert, 2);
    let t = replay(&m, &[]);
    let last = t.last();
    assert_eq!(table(&t, last, "ops").len(), 2);
    assert_eq!(table(&t, last, "ledger").len(), 2);
    assert_eq!(verdict(&t, last, ONE_OP).status, Status::Violated);
    assert_eq!(verdict(&t, last, REFUNDABLE).status, Status::Violated);
    // The unique constraint: one operation, returned to both.
    let m = UnknownOutcome::model(UoVariant::UniqueConstraint, 2);
    let t = replay(&m, &[]);
    let last = t.last();
    let reqs = table(&t, last, "requests");
    assert_eq!(reqs[0][3], "202 op-1");
    assert_eq!(reqs[1][3], "200 op-1 (the existing one)");
    assert_eq!(table(&t, last, "ledger").len(), 1);
    // Same key, other amount: 409, and the operation keeps its 80.00.
    let m = UnknownOutcome::model(UoVariant::ChangedParameters, 2);
    let t = replay(&m, &[]);
    let last = t.last();
    let reqs = table(&t, last, "requests");
    assert_eq!(reqs[1][2], "50.00");
    assert_eq!(reqs[1][3], "409 key reused with other parameters");
    assert_eq!(table(&t, last, "ops")[0][2], "h(ord-1701,80)");
    assert_eq!(table(&t, last, "ledger")[0][2], "80.00");
}

#[test]
fn exploration_proves_the_safe_variants_and_breaks_the_others() {
    // (variant, budget, distinct states, [violating runs per invariant])
    let mut got = Vec::new();
    for v in UoVariant::ALL {
        for budget in [2, 3] {
            let m = UnknownOutcome::model(v, budget);
            let r = explore(&m, bounds());
            assert!(!r.truncated && !r.cyclic, "{v:?} budget {budget}");
            let bad: Vec<u128> = r.invariants.iter().map(|i| i.violating_runs).collect();
            println!(
                "{v:?} budget {budget}: {} states, {} runs, {bad:?}",
                r.states, r.runs
            );
            // Every counterexample breaks its invariant when replayed.
            for inv in &r.invariants {
                if let Some(cx) = &inv.counterexample {
                    let t = replay(&m, cx);
                    assert_eq!(verdict(&t, cx.len(), &inv.name.en).status, Status::Violated);
                }
            }
            got.push((v, budget, r.states, bad));
        }
    }
    for (v, _, _, bad) in &got {
        let safe = matches!(
            v,
            UoVariant::UnknownSameKey
                | UoVariant::ReconcileFirst
                | UoVariant::UniqueConstraint
                | UoVariant::ChangedParameters
        );
        assert_eq!(bad.iter().all(|&b| b == 0), safe, "{v:?}: {bad:?}");
    }
    for v in [
        UoVariant::UnknownSameKey,
        UoVariant::ReconcileFirst,
        UoVariant::UniqueConstraint,
        UoVariant::ChangedParameters,
    ] {
        assert_holds_everywhere(&UnknownOutcome::model(v, 2), bounds());
    }
    let naive = &got[0].3;
    assert!(naive[0] > 0 && naive[1] > 0 && naive[2] > 0, "{naive:?}");
    let expired = &got[4].3;
    assert!(expired[0] > 0 && expired[1] > 0, "key-expired: {expired:?}");
    // A 400 to the retry under a pruned key is about a new request: it releases a reservation
    // the provider had already refunded.
    assert!(expired[2] > 0, "key-expired: {expired:?}");
    let twice = &got[8].3;
    assert!(twice[3] > 0, "check-then-insert: two operations");
    let states: Vec<usize> = got.iter().map(|g| g.2).collect();
    assert_eq!(
        states,
        [253, 656, 633, 2365, 364, 2134, 162, 789, 13930, 56914, 1177, 2485, 1177, 2485],
        "distinct states per (variant, budget 2 and 3), pinned"
    );
}

/// The figure is a ledger of refunds: the drill taken for a failure and retried under a new key
/// ends with two refunds (160.00) for the one intended (80.00); the same key keeps it at one.
#[test]
fn the_figure_counts_refunds_against_the_one_intended() {
    use effectively_once::sim::FigureBody;
    let ledger = |v: UoVariant, key: &str| {
        let t = replay(&UnknownOutcome::model(v, 2), &drill(v, key));
        let f = t.view(t.last()).figure.clone().unwrap();
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
    let (rows, name) = ledger(UoVariant::MarkFailedNewKey, "op-1-a1");
    assert_eq!(rows, [(1, 2), (8_000, 16_000), (1, 1)], "{name}");
    assert!(
        name.starts_with("2 refunds executed for one intended"),
        "{name}"
    );
    let (rows, _) = ledger(UoVariant::UnknownSameKey, "op-1");
    assert_eq!(rows, [(1, 1), (8_000, 8_000), (1, 1)]);
}

/// Two requests for one key race: each has its own lane, so "both SELECTs, then both INSERTs"
/// is a zigzag between them.
#[test]
fn two_racing_requests_have_a_lane_each() {
    let m = UnknownOutcome::model(UoVariant::CheckThenInsert, 2);
    let t = replay(&m, &[0, 0, 0, 0]);
    let first = t.view(0);
    let lanes: Vec<&str> = first.lanes.iter().map(|l| l.name.en.as_str()).collect();
    assert_eq!(
        lanes,
        [
            "API · request A",
            "API · request B",
            "Worker",
            "Database",
            "Payment provider"
        ]
    );
    let from: Vec<usize> = t.steps[1..=4]
        .iter()
        .map(|s| s.info.arrows[0].from)
        .collect();
    assert_eq!(
        from,
        [0, 1, 0, 1],
        "A's SELECT, B's SELECT, A's INSERT, B's INSERT"
    );
    assert!(
        t.steps[1..=4].iter().all(|s| s.info.arrows[0].to == 3),
        "to the database"
    );
}

/// Every statement shown is the statement that makes the drawn change: the request that loses
/// the unique insert reserves nothing (no UPDATE of orders, and the table says 80.00); success
/// moves the reservation into refunded in the same statement that sets SUCCEEDED; a guard that
/// matches nothing moves nothing. (Before, the loser was shown running an unconditional
/// `reserved = reserved + 80`, which in PostgreSQL ends at 160.00.)
#[test]
fn the_sql_shown_makes_the_change_drawn() {
    let m = UnknownOutcome::model(UoVariant::UniqueConstraint, 2);
    let t = replay(&m, &[0, 0, 0, 0]);
    let creates: Vec<&str> = t.steps[1..=4]
        .iter()
        .filter_map(|s| {
            s.info
                .code
                .as_deref()
                .filter(|c| c.contains("INSERT INTO refund_operations"))
        })
        .collect();
    assert_eq!(creates.len(), 2, "{creates:?}");
    assert!(
        creates[0].contains("UPDATE orders SET reserved = reserved + 80.00"),
        "{}",
        creates[0]
    );
    assert!(
        !creates[1].contains("UPDATE orders"),
        "the loser reserves nothing: {}",
        creates[1]
    );
    assert!(
        creates[1].contains("READ COMMITTED")
            || t.steps
                .iter()
                .any(|s| s.info.narration.en.contains("READ COMMITTED"))
    );
    assert_eq!(
        table(&t, t.last(), "orders")[0][2],
        "0.00",
        "nothing left reserved at the end"
    );
    // Success: one statement sets SUCCEEDED and moves the money.
    let m = UnknownOutcome::model(UoVariant::UnknownSameKey, 2);
    let t = replay(&m, &[]);
    let settle = t
        .steps
        .iter()
        .filter_map(|s| s.info.code.as_deref())
        .find(|c| c.contains("SET status = 'SUCCEEDED'"));
    let settle = settle.expect("a settle statement");
    assert!(
        settle.contains("refunded = refunded + op.amount, reserved = reserved - op.amount"),
        "{settle}"
    );
    assert!(settle.contains("-- UPDATE 1"), "{settle}");
}

/// The late retry job: the provider refunded, the worker timed out, and the day passed.
const A_DAY_LATER: [&str; 6] = [
    "API: A's INSERT and reserve",
    "Worker: claim op-1",
    "Worker: send the refund",
    "Provider slow: the worker times out first",
    "Provider: process the request (op-1)",
    "A day passes: the provider prunes old keys",
];

/// After the provider prunes the key (Stripe keeps one at least 24 hours), the same key is a
/// new request: the second refund carries the very same key.
#[test]
fn a_key_a_day_old_is_a_new_request() {
    let m = UnknownOutcome::model(UoVariant::KeyExpired, 2);
    let path = by_labels(&m, &A_DAY_LATER);
    let t = replay(&m, &path);
    let ledger = table(&t, path.len(), "ledger");
    assert_eq!(ledger, [["re_1", "op-1", "80.00", "key pruned after 24 h"]]);
    let last = t.last();
    let ledger = table(&t, last, "ledger");
    assert_eq!(ledger.len(), 2, "{ledger:?}");
    assert!(
        ledger.iter().all(|r| r[1] == "op-1"),
        "the same key: {ledger:?}"
    );
    assert_eq!(verdict(&t, last, ONCE).status, Status::Violated);
    assert_eq!(verdict(&t, last, REFUNDABLE).status, Status::Violated);
    let retry = t
        .steps
        .iter()
        .find(|s| s.info.title.en == "retry op-1, same key");
    let said = &retry.expect("the retry").info.narration;
    assert!(
        said.en.contains("pruned") && said.zh.contains("清除"),
        "{said:?}"
    );
}

/// Reconcile-first looks the refund up instead: it finds re_1 and settles without sending;
/// when the lookup cannot tell, a person decides and the reservation stays.
#[test]
fn reconcile_first_looks_the_refund_up_and_escalates_when_it_cannot_tell() {
    let m = UnknownOutcome::model(UoVariant::ReconcileFirst, 2);
    let t = replay(&m, &by_labels(&m, &A_DAY_LATER));
    let last = t.last();
    assert_eq!(table(&t, last, "ledger").len(), 1);
    assert_eq!(table(&t, last, "ops")[0][3], "SUCCEEDED");
    assert_eq!(table(&t, last, "orders")[0][2..], ["0.00", "80.00"]);
    let look = t.steps.iter().find(|s| s.info.title.en == "look op-1 up");
    let code = look
        .expect("a lookup")
        .info
        .code
        .clone()
        .unwrap_or_default();
    assert!(code.starts_with("GET /v1/refunds?charge=ch_1701"), "{code}");
    let mut labels = A_DAY_LATER.to_vec();
    labels.push("The lookup is inconclusive (503)");
    let path = by_labels(&m, &labels);
    let t = replay(&m, &path);
    let at = path.len();
    assert_eq!(
        table(&t, at, "ops")[0][3],
        "NEEDS_REVIEW (a person decides)"
    );
    assert_eq!(
        table(&t, at, "orders")[0][2],
        "80.00",
        "the reservation stays"
    );
    for name in ALL {
        assert_eq!(verdict(&t, at, name).status, Status::Holds, "{name}");
    }
    // The provider's late callback is the evidence the person waits for: it settles the refund.
    let last = t.last();
    assert_eq!(t.steps[last].info.title.en, "callback for op-1");
    assert_eq!(table(&t, last, "ops")[0][3], "SUCCEEDED");
    assert_eq!(table(&t, last, "orders")[0][2..], ["0.00", "80.00"]);
}

/// Every state the model can reach with two faults, as (state, faults spent).
fn reachable(v: UoVariant) -> Vec<UoState> {
    let m = UnknownOutcome::model(v, 2);
    let mut seen = HashSet::new();
    let mut todo = vec![(m.init(), 0u8)];
    let mut out = Vec::new();
    while let Some((s, spent)) = todo.pop() {
        if !seen.insert((s.clone(), spent)) {
            continue;
        }
        let mut acts = Vec::new();
        m.actions(&s, &mut acts);
        for a in acts {
            let spent = spent + u8::from(m.is_fault(&a));
            if spent <= m.fault_budget() {
                todo.push((m.next(&s, &a), spent));
            }
        }
        out.push(s);
    }
    out
}

/// The four things a send can end in all occur, in the fixes as in the mistakes; and no
/// variant but the naive one ever sends a second key for its operation.
#[test]
fn never_sent_refused_succeeded_and_unknown_all_occur() {
    for v in [
        UoVariant::MarkFailedNewKey,
        UoVariant::UnknownSameKey,
        UoVariant::KeyExpired,
        UoVariant::ReconcileFirst,
    ] {
        let states = reachable(v);
        let seen: BTreeSet<Outcome> = states
            .iter()
            .flat_map(|s| s.log.iter().map(|l| l.2))
            .collect();
        assert_eq!(seen.len(), 4, "{v:?}: {seen:?}");
        let keys: BTreeSet<u8> = states
            .iter()
            .flat_map(|s| s.ledger.iter().map(|c| c.1))
            .collect();
        let one_key = v != UoVariant::MarkFailedNewKey;
        assert_eq!(keys.len() == 1, one_key, "{v:?}: attempts {keys:?}");
    }
}

/// A 400 is definite: FAILED and released, and every invariant holds; a refused connection
/// never sent anything: the operation is sent again under its key.
#[test]
fn a_definite_answer_settles_it_without_asking() {
    let m = UnknownOutcome::model(UoVariant::UnknownSameKey, 2);
    let labels = [
        "API: A's INSERT and reserve",
        "Worker: claim op-1",
        "Worker: send the refund",
        "Provider refuses (400: charge disputed)",
        "Worker: read the answer",
    ];
    let t = replay(&m, &by_labels(&m, &labels));
    let at = labels.len();
    assert_eq!(table(&t, at, "ops")[0][3], "FAILED");
    assert_eq!(table(&t, at, "orders")[0][2..], ["0.00", "0.00"]);
    assert_eq!(
        table(&t, at, "log"),
        [["#1", "op-1", "definitely refused (400)"]]
    );
    for name in ALL {
        assert_eq!(verdict(&t, t.last(), name).status, Status::Holds, "{name}");
    }
    let labels = [
        "API: A's INSERT and reserve",
        "Worker: claim op-1",
        "Connection refused: the request never leaves",
    ];
    let t = replay(&m, &by_labels(&m, &labels));
    assert_eq!(table(&t, 3, "ops")[0][3], "PENDING");
    let last = t.last();
    assert_eq!(table(&t, last, "ledger").len(), 1);
    let log = table(&t, last, "log");
    assert_eq!(
        log,
        [
            ["#1", "op-1", "never sent"],
            ["#2", "op-1", "known success (200)"]
        ]
    );
}
