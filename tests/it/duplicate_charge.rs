//! Duplicate charge, proven: a crash after saving and before acknowledging makes the broker
//! deliver msg-1 again, and a new payment number per delivery charges ord-1701 twice; an inbox
//! of message ids survives that redelivery but not the same command re-published as msg-2; a
//! stable payment intent pay-1701 holds against every fault within the budget; reconciliation
//! refunds a duplicate with its own stable operation id and deletes nothing.

use crate::common::{assert_holds_everywhere, by_labels, table, verdict};
use effectively_once::scenarios::{self, DcVariant, DuplicateCharge};
use effectively_once::sim::{explore, replay, Bounds, Status, Trace};

const ONCE: &str = "one successful charge per order";
const NET: &str = "the customer pays once in the end";

fn bounds() -> Bounds {
    Bounds {
        max_depth: 64,
        max_states: 1_000_000,
    }
}

/// The seed's incident: charged, saved, crashed before the acknowledgement, restarted.
fn incident(v: DcVariant) -> [&'static str; 7] {
    let (open, key) = match v {
        DcVariant::NewChargePerDelivery => (
            "Consumer: take a new payment number",
            "Consumer: charge with key txn-1",
        ),
        DcVariant::MessageIdDedup => (
            "Consumer: look up msg-1 in the inbox",
            "Consumer: charge with key msg-1",
        ),
        DcVariant::StableIntent => (
            "Consumer: create or read intent pay-1701",
            "Consumer: charge with key pay-1701",
        ),
    };
    [
        "Relay: publish the charge command msg-1",
        "Broker: deliver msg-1",
        open,
        key,
        "Consumer: save the result",
        "Crash the consumer (saved, not acknowledged)",
        "Restart the consumer",
    ]
}

fn run(v: DcVariant, labels: &[&str]) -> (Vec<u8>, Trace) {
    let m = DuplicateCharge::model(v, 2);
    let path = by_labels(&m, labels);
    let t = replay(&m, &path);
    (path, t)
}

fn titles(t: &Trace) -> Vec<String> {
    t.steps.iter().map(|s| s.info.title.en.clone()).collect()
}

#[test]
fn without_faults_every_variant_charges_once() {
    for v in DcVariant::ALL {
        let t = replay(&DuplicateCharge::model(v, 2), &[]);
        let last = t.last();
        assert!(t.steps[last].quiet);
        let ledger = table(&t, last, "ledger");
        assert_eq!(ledger.len(), 1, "{v:?}");
        assert_eq!(ledger[0][0], "ch_1");
        assert_eq!(ledger[0][3], "100.00");
        let payments = table(&t, last, "payments");
        assert_eq!(payments.len(), 1);
        assert_eq!(payments[0][3], "SUCCEEDED");
        assert_eq!(payments[0][4], "ch_1");
        assert_eq!(
            table(&t, last, "messages"),
            [["msg-1", "ord-1701", "pay-1701", "1", "yes"]]
        );
        assert!(table(&t, last, "refunds").is_empty());
        assert_eq!(t.steps[last].info.title.en, "reconcile: books match");
        for name in [ONCE, NET] {
            assert_eq!(
                verdict(&t, last, name).status,
                Status::Holds,
                "{v:?} {name}"
            );
        }
    }
}

#[test]
fn the_incident_charges_twice_and_reconciliation_refunds_the_duplicate() {
    let (path, t) = run(
        DcVariant::NewChargePerDelivery,
        &incident(DcVariant::NewChargePerDelivery),
    );
    // After the restart: txn-1 is saved with ch_1, msg-1 was never acknowledged.
    let at = path.len();
    assert_eq!(
        table(&t, at, "payments"),
        [["txn-1", "ord-1701", "txn-1", "SUCCEEDED", "ch_1"]]
    );
    assert_eq!(
        table(&t, at, "messages")[0][3..],
        ["1", "no (will be redelivered)"]
    );
    let last = t.last();
    // msg-1 delivered twice, a new payment number, a second charge.
    assert_eq!(table(&t, last, "messages")[0][3..], ["2", "yes"]);
    let payments = table(&t, last, "payments");
    assert_eq!(
        payments,
        [
            ["txn-1", "ord-1701", "txn-1", "SUCCEEDED", "ch_1"],
            ["txn-2", "ord-1701", "txn-2", "SUCCEEDED", "ch_2"],
        ]
    );
    let once = verdict(&t, last, ONCE);
    assert_eq!(once.status, Status::Violated);
    assert_eq!(once.cause, Some(6), "caused by the crash at step 6");
    assert!(
        once.why
            .en
            .contains("charged ord-1701 2 times: ch_1 (txn-1), ch_2 (txn-2)"),
        "{}",
        once.why.en
    );
    // Recovery: the duplicate is refunded under its own stable id; nothing is deleted.
    assert_eq!(
        table(&t, last, "ledger"),
        [
            ["ch_1", "charge ord-1701", "txn-1", "100.00"],
            ["ch_2", "charge ord-1701", "txn-2", "100.00"],
            ["re_1", "refund of ch_2", "rf-ch_2", "-100.00"],
        ]
    );
    assert_eq!(
        table(&t, last, "refunds"),
        [["rf-ch_2", "ch_2", "100.00", "SUCCEEDED"]]
    );
    assert!(titles(&t).contains(&"reconcile: ch_2 is a duplicate".to_string()));
    assert_eq!(verdict(&t, last, NET).status, Status::Holds);
    // Before the refund, the customer had paid 200.00: pending, not yet judged.
    let before = t
        .steps
        .iter()
        .position(|s| s.info.title.en == "reconcile: ch_2 is a duplicate")
        .expect("reconciliation ran");
    assert_eq!(verdict(&t, before, NET).status, Status::Pending);
}

#[test]
fn the_inbox_and_the_intent_absorb_the_redelivery() {
    let (_, t) = run(
        DcVariant::MessageIdDedup,
        &incident(DcVariant::MessageIdDedup),
    );
    let last = t.last();
    assert!(titles(&t).contains(&"msg-1: in the inbox".to_string()));
    assert_eq!(table(&t, last, "inbox"), [["msg-1"]]);
    assert_eq!(table(&t, last, "ledger").len(), 1);
    assert_eq!(table(&t, last, "messages")[0][3..], ["2", "yes"]);
    assert_eq!(verdict(&t, last, ONCE).status, Status::Holds);

    let (_, t) = run(DcVariant::StableIntent, &incident(DcVariant::StableIntent));
    let last = t.last();
    assert!(titles(&t).contains(&"pay-1701 SUCCEEDED: skip".to_string()));
    assert_eq!(
        table(&t, last, "payments"),
        [["pay-1701", "ord-1701", "pay-1701", "SUCCEEDED", "ch_1"]]
    );
    assert_eq!(table(&t, last, "ledger").len(), 1);
    assert_eq!(verdict(&t, last, ONCE).status, Status::Holds);
}

#[test]
fn a_re_published_command_beats_the_message_id_but_not_the_intent() {
    let republish = [
        "Relay: publish the charge command msg-1",
        "Relay re-publishes the command as msg-2",
    ];
    let (_, t) = run(DcVariant::MessageIdDedup, &republish);
    let last = t.last();
    let msgs = table(&t, last, "messages");
    assert_eq!(
        msgs.iter().map(|r| r[0..3].to_vec()).collect::<Vec<_>>(),
        [
            ["msg-1", "ord-1701", "pay-1701"],
            ["msg-2", "ord-1701", "pay-1701"]
        ],
        "one command, two message ids"
    );
    assert_eq!(table(&t, last, "inbox"), [["msg-1"], ["msg-2"]]);
    let ledger = table(&t, last, "ledger");
    assert_eq!(ledger[0][2], "msg-1");
    assert_eq!(ledger[1][2], "msg-2");
    let once = verdict(&t, last, ONCE);
    assert_eq!(once.status, Status::Violated);
    assert_eq!(once.cause, Some(2), "caused by the re-publish at step 2");
    assert!(once.why.en.contains("ch_1 (msg-1), ch_2 (msg-2)"));
    assert_eq!(table(&t, last, "ledger")[2][1], "refund of ch_2");
    assert_eq!(verdict(&t, last, NET).status, Status::Holds);

    let (_, t) = run(DcVariant::StableIntent, &republish);
    let last = t.last();
    assert_eq!(table(&t, last, "messages").len(), 2);
    assert_eq!(
        table(&t, last, "ledger"),
        [["ch_1", "charge ord-1701", "pay-1701", "100.00"]]
    );
    assert!(titles(&t).contains(&"pay-1701 SUCCEEDED: skip".to_string()));
    assert_eq!(verdict(&t, last, ONCE).status, Status::Holds);
}

#[test]
fn a_lost_answer_or_a_crash_before_saving_is_asked_again_with_the_same_key() {
    for fault in [
        "Lose the provider's answer",
        "Crash the consumer (charged, not saved)",
    ] {
        let mut labels = incident(DcVariant::StableIntent)[..4].to_vec();
        labels.push(fault);
        let (path, t) = run(DcVariant::StableIntent, &labels);
        // pay-1701 stays PROCESSING until the provider answers again.
        assert_eq!(table(&t, path.len(), "payments")[0][3], "PROCESSING");
        let last = t.last();
        assert!(
            titles(&t).contains(&"pay-1701 PROCESSING: ask again".to_string()),
            "{fault}"
        );
        let replay = (t.steps.iter())
            .find(|s| s.info.title.en == "replay pay-1701: ch_1")
            .expect("the same key is answered from the saved result");
        // Stripe API v1 (SOURCES.md): failures are replayed too; keys are kept at least 24 h.
        let said = &replay.info.narration;
        assert!(said.en.contains("saved failure is replayed") && said.en.contains("24 hours"));
        assert!(said.zh.contains("保存的失败同样重放") && said.zh.contains("24 小时"));
        assert_eq!(table(&t, last, "ledger").len(), 1, "{fault}");
        assert_eq!(verdict(&t, last, ONCE).status, Status::Holds);

        // A new payment number per attempt charges again.
        let mut labels = incident(DcVariant::NewChargePerDelivery)[..4].to_vec();
        labels.push(fault);
        let (_, t) = run(DcVariant::NewChargePerDelivery, &labels);
        assert_eq!(verdict(&t, t.last(), ONCE).status, Status::Violated);
    }
}

#[test]
fn a_lost_refund_answer_is_retried_with_the_same_operation_id() {
    let m = DuplicateCharge::model(DcVariant::NewChargePerDelivery, 2);
    let mut labels = incident(DcVariant::NewChargePerDelivery).to_vec();
    labels.extend([
        "Broker: deliver msg-1",
        "Consumer: take a new payment number",
        "Consumer: charge with key txn-2",
        "Consumer: save the result",
        "Consumer: acknowledge msg-1",
        "Reconciliation: compare the provider's charges with the order",
        "Reconciliation: refund ch_2 with key rf-ch_2",
        "Lose the provider's answer",
        "Reconciliation: time out, retry rf-ch_2 with the same key",
    ]);
    let path = by_labels(&m, &labels);
    let t = replay(&m, &path);
    assert_eq!(t.steps[path.len()].info.title.en, "replay rf-ch_2");
    let last = t.last();
    let ledger = table(&t, last, "ledger");
    assert_eq!(ledger.len(), 3, "one refund, not two: {ledger:?}");
    assert_eq!(
        table(&t, last, "refunds"),
        [["rf-ch_2", "ch_2", "100.00", "SUCCEEDED"]]
    );
    assert_eq!(verdict(&t, last, NET).status, Status::Holds);
}

#[test]
fn every_step_is_narrated_in_both_languages() {
    for v in DcVariant::ALL {
        let m = DuplicateCharge::model(v, 2);
        let r = explore(&m, bounds());
        let mut paths: Vec<Vec<u8>> = r
            .invariants
            .iter()
            .filter_map(|i| i.counterexample.clone())
            .collect();
        paths.push(by_labels(&m, &incident(v)));
        paths.push(vec![0, 1]);
        for p in paths {
            let t = replay(&m, &p);
            for (i, s) in t.steps.iter().enumerate().skip(1) {
                let info = &s.info;
                assert!(
                    !info.title.en.is_empty() && !info.title.zh.is_empty(),
                    "{v:?} step {i}"
                );
                assert!(
                    !info.narration.en.is_empty() && !info.narration.zh.is_empty(),
                    "{v:?} step {i}: {}",
                    info.title.en
                );
                assert_ne!(info.narration.en, info.narration.zh);
            }
        }
    }
}

#[test]
fn exploration_breaks_each_mistake_and_proves_the_intent() {
    let mut got = Vec::new();
    for v in DcVariant::ALL {
        for budget in [2, 3] {
            let m = DuplicateCharge::model(v, budget);
            let r = explore(&m, bounds());
            assert!(!r.truncated && !r.cyclic, "{v:?} budget {budget}");
            for inv in &r.invariants {
                if let Some(cx) = &inv.counterexample {
                    let t = replay(&m, cx);
                    assert_eq!(verdict(&t, cx.len(), &inv.name.en).status, Status::Violated);
                }
            }
            got.push((
                r.states,
                r.runs,
                r.invariants[0].violating_runs,
                r.invariants[1].violating_runs,
                r.invariants[0].counterexample.clone(),
            ));
        }
    }
    let states: Vec<usize> = got.iter().map(|g| g.0).collect();
    assert_eq!(
        states,
        [171, 597, 117, 304, 74, 139],
        "distinct states per (variant, budget 2 and 3), pinned"
    );
    let runs: Vec<u128> = got.iter().map(|g| g.1).collect();
    assert_eq!(runs, [73, 520, 66, 374, 51, 217], "runs, pinned");
    // Every run with a fault charges twice with a new payment number; only the fault-free run
    // does not.
    assert_eq!((got[0].2, got[0].1 - got[0].2), (72, 1));
    assert!(got[2].2 > 0, "the message-id inbox is beaten");
    // Its shortest counterexample is the re-published command, not a redelivery.
    let m = DuplicateCharge::model(DcVariant::MessageIdDedup, 2);
    let cx = got[2].4.clone().expect("a counterexample");
    let t = replay(&m, &cx);
    assert!(titles(&t).contains(&"re-publish as msg-2".to_string()));
    // The intent holds; reconciliation always brings the customer back to 100.00 net.
    assert_eq!((got[4].2, got[5].2), (0, 0));
    assert_eq!(got.iter().map(|g| g.3).sum::<u128>(), 0);
    assert_holds_everywhere(
        &DuplicateCharge::model(DcVariant::StableIntent, 2),
        bounds(),
    );
    assert_holds_everywhere(
        &DuplicateCharge::model(DcVariant::StableIntent, 3),
        bounds(),
    );
}

#[test]
fn the_registry_explores_it_by_slug() {
    let i = scenarios::index_of("duplicate-charge").expect("registered");
    let meta = scenarios::all()[i].meta();
    let slugs: Vec<&str> = meta.variants.iter().map(|v| v.slug).collect();
    assert_eq!(
        slugs,
        [
            "new-charge-per-delivery",
            "message-id-dedup",
            "stable-intent"
        ]
    );
    for (v, states) in [(0, 171), (1, 117), (2, 74)] {
        let r =
            scenarios::explore(i, v, None, &[], Bounds::default(), &mut |_| {}).expect("explores");
        assert_eq!(r.states, states);
    }
}

/// The figure is a ledger of charges: two executed for one intended after a crash between the
/// charge and its save, and the customer's net payment against the order's 100.00.
#[test]
fn the_figure_counts_two_charges_for_one_intended() {
    use effectively_once::scenarios;
    use effectively_once::sim::{decode_path, FigureBody};
    let s = scenarios::all()[scenarios::index_of("duplicate-charge").unwrap()];
    let p = decode_path("000020000").0;
    let t = s.trace(0, &p);
    let f = t.view(p.len()).figure.clone().unwrap();
    let FigureBody::Ledger(rows) = &f.body else {
        panic!("a ledger")
    };
    assert_eq!((rows[0].intended, rows[0].executed), (1, 2));
    assert_eq!(
        (rows[1].intended, rows[1].executed),
        (10_000, 20_000),
        "in cents"
    );
    assert!(
        f.name
            .en
            .starts_with("2 charges executed for one intended; the customer paid 200.00 net"),
        "{}",
        f.name.en
    );
    let fixed = s.trace(2, &[]);
    let f = fixed.view(fixed.last()).figure.clone().unwrap();
    let FigureBody::Ledger(rows) = &f.body else {
        panic!("a ledger")
    };
    assert_eq!((rows[0].intended, rows[0].executed), (1, 1));
}

// ---- The consumers, run as shown against PostgreSQL ------------------------------------------

// PostgreSQL and the programs run natively; the wasm32 build of the tests leaves them out.
#[cfg(not(target_arch = "wasm32"))]
use crate::common::pg;

#[cfg(not(target_arch = "wasm32"))]
mod run_as_shown {
    use super::*;

    fn variant_index(slug: &str) -> usize {
        use effectively_once::sim::Scenario;
        let meta = DuplicateCharge.meta();
        meta.variant_index(slug).expect("a variant")
    }

    /// The program each variant shows (src/scenarios/duplicate_charge/).
    const PROGRAMS: [(&str, &str); 3] = [
        ("new-charge-per-delivery", "consumer_new_charge.py"),
        ("message-id-dedup", "consumer_message_id.py"),
        ("stable-intent", "consumer_stable_intent.py"),
    ];

    /// The runs of variant `v` the consumers are replayed on, as action keys: the default run,
    /// every mistake's failing path (followed as far as it goes), and the shortest run through
    /// each action the variant has at the player's fault budget.
    fn consumer_runs(v: usize) -> Vec<Vec<String>> {
        use effectively_once::sim::{action_key, decode_path, AnyScenario, Model, Scenario};
        use std::collections::{BTreeMap, HashSet, VecDeque};
        let meta = AnyScenario::meta(&DuplicateCharge);
        let mut out = vec![DuplicateCharge.trace(v, &[]).keys()];
        for m in &meta.variants {
            if let Some(fails) = m.fails {
                let w = variant_index(m.slug);
                let keys = DuplicateCharge.trace(w, &decode_path(fails).0).keys();
                out.push(
                    DuplicateCharge
                        .trace(v, &DuplicateCharge.follow(v, &keys))
                        .keys(),
                );
            }
        }
        let model = DuplicateCharge::model_of(v, None, &[]);
        let start = (model.init(), 0u8);
        let mut seen = HashSet::from([start.clone()]);
        let mut queue = VecDeque::from([(start, Vec::<String>::new())]);
        let mut first: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut acts = Vec::new();
        while let Some(((s, faults), path)) = queue.pop_front() {
            acts.clear();
            model.actions(&s, &mut acts);
            acts.retain(|a| faults < model.fault_budget() || !model.is_fault(a));
            for a in &acts {
                let mut path = path.clone();
                path.push(action_key(a));
                first.entry(action_key(a)).or_insert_with(|| path.clone());
                let next = (model.next(&s, a), faults + u8::from(model.is_fault(a)));
                if seen.insert(next.clone()) {
                    queue.push_back((next, path));
                }
            }
        }
        for keys in first.into_values() {
            out.push(
                DuplicateCharge
                    .trace(v, &DuplicateCharge.follow(v, &keys))
                    .keys(),
            );
        }
        out.sort();
        out.dedup();
        out
    }

    /// What the drawing shows at the end of `trace`, as the driver prints it: the committed
    /// payment rows, the inbox and the provider's charges (entry, key).
    fn drawn_outcome(trace: &Trace) -> String {
        let view = &trace.view(trace.steps.len() - 1);
        let rows = |key: &str| -> Vec<Vec<String>> {
            let t = view.tables.iter().find(|t| t.key == key);
            t.map(|t| t.rows.iter().filter(|r| !r.faint))
                .into_iter()
                .flatten()
                .map(|r| r.cells.iter().map(|c| c.en.clone()).collect())
                .collect()
        };
        let list = |v: &[String]| {
            let q: Vec<String> = v.iter().map(|x| format!("\"{x}\"")).collect();
            format!("[{}]", q.join(", "))
        };
        let mut payments = rows("payments");
        payments.sort();
        let payments: Vec<String> = payments.iter().map(|r| list(r)).collect();
        let mut inbox: Vec<String> = rows("inbox").into_iter().map(|r| r[0].clone()).collect();
        inbox.sort();
        let charges: Vec<String> = (rows("ledger").into_iter())
            .filter(|r| r[0].starts_with("ch_"))
            .map(|r| list(&[r[0].clone(), r[2].clone()]))
            .collect();
        format!(
            "{{\"payments\": [{}], \"inbox\": {}, \"charges\": [{}]}}",
            payments.join(", "),
            list(&inbox),
            charges.join(", ")
        )
    }

    #[test]
    fn the_consumers_run_as_shown_and_end_as_the_model_does() {
        use effectively_once::sim::AnyScenario;
        let mut input = String::new();
        let mut expected = Vec::new();
        for (slug, file) in PROGRAMS {
            let v = variant_index(slug);
            for keys in consumer_runs(v) {
                input += &format!("{file} {}\n", keys.join(" "));
                let trace = DuplicateCharge.trace(v, &DuplicateCharge.follow(v, &keys));
                expected.push((format!("{slug}: {}", keys.join(" ")), drawn_outcome(&trace)));
            }
        }
        let cluster = pg::Cluster::start("duplicate-charge-python");
        let driver = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/python/consumer_driver.py"
        );
        let port = cluster.port.to_string();
        let python = "/usr/bin/python3";
        let installed = "Debian's python3 with psycopg2 (.ci/setup)";
        let got = crate::common::driver(python, &[driver, &port], &input, installed);
        assert_eq!(got.len(), expected.len());
        for (line, (run, want)) in got.iter().zip(&expected) {
            assert_eq!(
                line, want,
                "{run}: Python and PostgreSQL (left), the drawing (right)"
            );
        }
        assert!(expected.len() >= 3 * 5, "{} runs", expected.len());
    }
}
