//! Dead letters, proven: retrying in place for ever stops the partition behind the unreadable
//! m-2; giving up with a log line loses it; bounded retries with a dead letter drain the
//! partition and keep a record of every give-up; a blind replay charges a cancelled order or
//! charges twice, and a replay that re-checks does neither — exhaustively, within two and three
//! faults.

use crate::common::{assert_holds_everywhere, by_labels, explored, table, verdict};
use effectively_once::scenarios::{DeadLetter, DlVariant};
use effectively_once::sim::{decode_path, replay, Bounds, FigureBody, Status};

const DRAINS: &str = "the queue keeps draining";
const RECORDED: &str = "no message disappears without a record";
const FRESH: &str = "no stale command executes";
const ONCE: &str = "no order is charged twice";

#[test]
fn without_a_fault_the_bounded_consumers_drain_and_park_m2() {
    for v in [DlVariant::DeadLetter, DlVariant::CheckedReplay] {
        let t = replay(&DeadLetter::model(v, 2), &[]);
        let end = t.last();
        assert!(table(&t, end, "queue").is_empty(), "{v:?}");
        let dead = table(&t, end, "dead_letters");
        assert_eq!(
            dead[0][..4],
            ["m-2", "ord-1702", "schema v3 unreadable", "1"]
        );
        for name in [DRAINS, RECORDED, FRESH, ONCE] {
            assert_eq!(verdict(&t, end, name).status, Status::Holds, "{v:?} {name}");
        }
    }
    // The checked replay ran: ord-1702 is charged once, by the replay.
    let t = replay(&DeadLetter::model(DlVariant::CheckedReplay, 2), &[]);
    let payments = table(&t, t.last(), "payments");
    assert_eq!(payments[2], ["ord-1702", "ch_3", "m-2/r1"]);
}

#[test]
fn retrying_for_ever_stops_the_partition_behind_m2() {
    let m = DeadLetter::model(DlVariant::RetryForever, 2);
    let t = replay(&m, &[]);
    let end = t.last();
    let queue = table(&t, end, "queue");
    assert_eq!(queue.len(), 2, "m-2 and m-3 are still there");
    assert_eq!(queue[0][..3], ["m-2", "ord-1702", "6"]);
    let v = verdict(&t, end, DRAINS);
    assert_eq!(v.status, Status::Violated);
    let FigureBody::Meter(meter) = t.view(end).figure.clone().unwrap().body else {
        panic!("a meter")
    };
    assert_eq!((meter.value, meter.limit), (6, 3));
}

#[test]
fn retrying_for_ever_hammers_the_provider_through_a_503_burst() {
    let m = DeadLetter::model(DlVariant::RetryForever, 2);
    let path = by_labels(
        &m,
        &[
            "Provider answers 503 to m-1",
            "Provider answers 503 to m-1",
            "Wait 1.0 s, then try m-1 again (attempt 3)",
        ],
    );
    let t = replay(&m, &path);
    assert!(t.steps[1].info.narration.en.contains("storm of calls"));
    assert_eq!(table(&t, 3, "ledger")[0][..2], ["ch_1", "ord-1701"]);
}

#[test]
fn logging_and_acknowledging_loses_m2() {
    let m = DeadLetter::model(DlVariant::LogAndDrop, 2);
    let t = replay(&m, &[]);
    let v = verdict(&t, 2, RECORDED);
    assert_eq!(v.status, Status::Violated);
    assert_eq!(v.cause, Some(2));
    assert_eq!(table(&t, 2, "log")[0][0], "ERROR");
    assert!(t.view(2).tables.iter().all(|x| x.key != "dead_letters"));
    // It did drain: the mistake is what it kept, not whether it moved on.
    assert_eq!(verdict(&t, t.last(), DRAINS).status, Status::Holds);
}

#[test]
fn backoff_doubles_with_jitter_under_half_and_stops_at_three_attempts() {
    let m = DeadLetter::model(DlVariant::DeadLetter, 3);
    for of in 0..3 {
        for n in 1..3 {
            let d = m.backoff(of, n);
            let base = 10 << (n - 1);
            assert!(d >= base && d < base + base / 2, "{of} {n}: {d}");
        }
    }
    let path = by_labels(
        &m,
        &[
            "Provider answers 503 to m-1",
            "Provider answers 503 to m-1",
            "Provider answers 503 to m-1",
        ],
    );
    let t = replay(&m, &path);
    let dead = table(&t, 3, "dead_letters");
    assert_eq!(dead[0][..4], ["m-1", "ord-1701", "503 on 3 attempts", "3"]);
    assert!(
        t.steps[2].info.title.en.contains("retry in 2.8 s"),
        "{}",
        t.steps[2].info.title.en
    );
    // m-3 still goes through after both are parked.
    let end = t.last();
    assert_eq!(table(&t, end, "payments"), [["ord-1703", "ch_1", "m-3"]]);
    assert_eq!(verdict(&t, end, DRAINS).status, Status::Holds);
}

#[test]
fn a_blind_replay_charges_a_cancelled_order_and_charges_twice() {
    let m = DeadLetter::model(DlVariant::BlindReplay, 2);
    let cancelled = replay(&m, &decode_path("000100").0);
    let end = cancelled.last();
    assert_eq!(verdict(&cancelled, end, FRESH).status, Status::Violated);
    assert_eq!(
        table(&cancelled, end, "orders")[1],
        ["ord-1702", "PAID"],
        "PAID over CANCELLED"
    );
    let twice = by_labels(
        &m,
        &[
            "Handle m-1: charge ord-1701",
            "Handle m-2",
            "Handle m-3: charge ord-1703",
            "Operator deploys the v3 reader and replays m-2",
            "A second operator replays m-2 too",
        ],
    );
    let t = replay(&m, &twice);
    assert_eq!(verdict(&t, t.last(), ONCE).status, Status::Violated);
    assert_eq!(table(&t, t.last(), "payments").len(), 4);
}

#[test]
fn a_checked_replay_refuses_the_stale_and_the_second() {
    let m = DeadLetter::model(DlVariant::CheckedReplay, 2);
    let t = replay(&m, &decode_path("000100").0);
    let end = t.last();
    let dead = table(&t, end, "dead_letters");
    assert_eq!(dead[0][5..], ["REFUSED: cancelled".to_string(), "1".into()]);
    assert_eq!(table(&t, end, "orders")[1], ["ord-1702", "CANCELLED"]);
    assert!(table(&t, end, "ledger").iter().all(|r| r[1] != "ord-1702"));
    for name in [DRAINS, RECORDED, FRESH, ONCE] {
        assert_eq!(verdict(&t, end, name).status, Status::Holds, "{name}");
    }
}

#[test]
fn exploration_proves_the_fixes_and_finds_each_mistake() {
    let mut states = Vec::new();
    for v in DlVariant::ALL {
        for budget in [2, 3] {
            let (n, broken) = explored(&DeadLetter::model(v, budget));
            states.push(n);
            let want = match v {
                DlVariant::RetryForever => [true, false, false, false],
                DlVariant::LogAndDrop => [false, true, false, false],
                DlVariant::DeadLetter | DlVariant::CheckedReplay => [false; 4],
                DlVariant::BlindReplay => [false, false, true, true],
            };
            assert_eq!(broken, want, "{v:?} at budget {budget}");
        }
    }
    assert_eq!(
        states,
        [24, 32, 18, 26, 18, 26, 54, 109, 55, 112],
        "distinct states, budgets 2 and 3, pinned"
    );
    for budget in [2, 3] {
        assert_holds_everywhere(
            &DeadLetter::model(DlVariant::DeadLetter, budget),
            Bounds::default(),
        );
        assert_holds_everywhere(
            &DeadLetter::model(DlVariant::CheckedReplay, budget),
            Bounds::default(),
        );
    }
}
