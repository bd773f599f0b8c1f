//! Cancellation, proven: an aborted fetch taken for "nothing happened" tells the agent 1 of 3
//! refunded while the provider's ledger holds two; asking the provider once is not enough when
//! the query overtakes the refund; voiding by the key (after a cancel) or sending again with the
//! same key (after a timeout) reports "2 of 3 refunded, 1 not started". Exhaustive exploration
//! with two and three faults per run (the agent's Cancel, a lost answer, a request overtaking
//! another) breaks both mistakes and proves the fix.

use crate::common::{assert_holds_everywhere, by_labels, table, verdict};
use effectively_once::scenarios::{CaVariant, Cancellation};
use effectively_once::sim::{explore, replay, Bounds, Present, Status};

const MATCHES: &str = "the screen matches the provider's ledger";
const KEPT: &str = "nothing written off while the provider may still refund it";
const ALL: [&str; 2] = [MATCHES, KEPT];

fn bounds() -> Bounds {
    Bounds {
        max_depth: 64,
        max_states: 1_000_000,
    }
}

/// op-1 refunded and answered, op-2 committed at the provider, then the agent cancels before
/// op-2's answer arrives.
const DRILL: [&str; 7] = [
    "Agent: click “Refund 3 items”",
    "Service: send op-1 to the provider",
    "Provider: commit the refund for op-1",
    "Service: read the answer for op-1",
    "Service: send op-2 to the provider",
    "Provider: commit the refund for op-2",
    "Agent: click Cancel",
];

#[test]
fn without_a_cancel_every_variant_refunds_three_and_says_so() {
    for v in CaVariant::ALL {
        let t = replay(&Cancellation::model(v, 2), &[]);
        let last = t.last();
        assert!(t.steps[last].quiet);
        assert_eq!(table(&t, last, "ledger").len(), 3, "{v:?}");
        assert_eq!(table(&t, last, "screen")[0][0], "Done: 3 of 3 refunded");
        let ops = table(&t, last, "ops");
        assert!(ops.iter().all(|r| r[3] == "SUCCEEDED"), "{ops:?}");
        for name in ALL {
            assert_eq!(
                verdict(&t, last, name).status,
                Status::Holds,
                "{v:?} {name}"
            );
        }
    }
}

#[test]
fn cancel_means_undone_says_cancelled_while_the_ledger_says_refunded() {
    let m = Cancellation::model(CaVariant::CancelMeansUndone, 2);
    let path = by_labels(&m, &DRILL);
    let t = replay(&m, &path);
    // The cancel is step 7; the aborted fetch rejects at step 8 and the catch deletes.
    let at = path.len() + 1;
    assert_eq!(
        t.steps[at].info.title.en, "op-2: AbortError",
        "the default after the cancel"
    );
    let ops = table(&t, at, "ops");
    assert_eq!(
        ops.iter().map(|r| r[3].as_str()).collect::<Vec<_>>(),
        ["SUCCEEDED", "(deleted)", "(deleted)"]
    );
    let kept = verdict(&t, at, KEPT);
    assert_eq!(kept.status, Status::Violated);
    assert_eq!(kept.cause, Some(7), "caused by the cancel");
    assert!(
        kept.why.en.starts_with(
            "The row of op-2 was deleted as if nothing had happened, but the provider has already refunded it."
        ),
        "{}",
        kept.why.en
    );
    let last = t.last();
    assert_eq!(
        table(&t, last, "screen")[0][0],
        "Cancelled: 1 of 3 refunded, the rest cancelled"
    );
    assert_eq!(
        table(&t, last, "ledger"),
        [
            ["re_1", "op-1", "40.00", "succeeded"],
            ["re_2", "op-2", "25.00", "succeeded"]
        ]
    );
    let told = verdict(&t, last, MATCHES);
    assert_eq!(told.status, Status::Violated);
    assert!(
        told.why.en.starts_with(
            "The screen says 1 of 3 refunded (op-1), but the provider's ledger holds refunds for op-1 and op-2."
        ),
        "{}",
        told.why.en
    );
    assert!(told.why.zh.contains("op-1 和 op-2"), "{}", told.why.zh);
}

#[test]
fn cancel_in_flight_before_the_commit_is_committed_all_the_same() {
    let m = Cancellation::model(CaVariant::CancelMeansUndone, 2);
    let labels = [DRILL[0], DRILL[1], DRILL[2], DRILL[3], DRILL[4], DRILL[6]];
    let path = by_labels(&m, &labels);
    let t = replay(&m, &path);
    // After the abort and the catch, the request is still at the provider.
    let at = path.len() + 1;
    assert_eq!(table(&t, at, "ledger").len(), 1);
    assert_eq!(table(&t, at, "wire"), [["refund request op-2", "provider"]]);
    assert!(verdict(&t, at, KEPT)
        .why
        .en
        .contains("its request is still waiting at the provider"));
    // Pending until the provider has done its part, then violated.
    assert_eq!(verdict(&t, at, MATCHES).status, Status::Pending);
    let last = t.last();
    assert_eq!(table(&t, last, "ledger").len(), 2);
    assert_eq!(verdict(&t, last, MATCHES).status, Status::Violated);
}

#[test]
fn cancel_then_reconcile_reports_two_of_three_refunded_one_not_started() {
    let m = Cancellation::model(CaVariant::CancelThenReconcile, 2);
    let path = by_labels(&m, &DRILL);
    let t = replay(&m, &path);
    let at = path.len() + 1;
    assert_eq!(table(&t, at, "ops")[1][3], "CANCEL_REQUESTED (voiding)");
    let last = t.last();
    assert_eq!(
        table(&t, last, "screen")[0][0],
        "Cancelled: 2 of 3 refunded, 1 not started"
    );
    assert_eq!(
        table(&t, last, "ops")
            .iter()
            .map(|r| r[3].as_str())
            .collect::<Vec<_>>(),
        ["SUCCEEDED", "SUCCEEDED", "NOT_EXECUTED"]
    );
    assert_eq!(table(&t, last, "ledger").len(), 2);
    // The void came after the refund: "already refunded" settles it as SUCCEEDED.
    assert!(t
        .steps
        .iter()
        .any(|s| s.info.title.en == "op-2 already refunded"));
    for name in ALL {
        assert_eq!(verdict(&t, last, name).status, Status::Holds, "{name}");
    }
    // Before the first send: nothing refunded, three not started, and the screen says so.
    let p = by_labels(&m, &[DRILL[0], DRILL[6]]);
    let t = replay(&m, &p);
    assert_eq!(
        table(&t, t.last(), "screen")[0][0],
        "Cancelled: 0 of 3 refunded, 3 not started"
    );
    assert!(table(&t, t.last(), "ledger").is_empty());
}

#[test]
fn a_lost_answer_is_a_timeout_and_the_same_lesson() {
    let labels = [
        DRILL[0],
        DRILL[1],
        DRILL[2],
        "Lose the provider's answer",
        "Service: fetch times out (5 s)",
    ];
    let m = Cancellation::model(CaVariant::CancelMeansUndone, 2);
    let t = replay(&m, &by_labels(&m, &labels));
    let last = t.last();
    assert_eq!(
        table(&t, last, "screen")[0][0],
        "Failed: 0 of 3 refunded, the rest not refunded"
    );
    assert_eq!(verdict(&t, last, MATCHES).status, Status::Violated);
    let m = Cancellation::model(CaVariant::CancelThenReconcile, 2);
    let t = replay(&m, &by_labels(&m, &labels));
    let last = t.last();
    assert_eq!(table(&t, last, "screen")[0][0], "Done: 3 of 3 refunded");
    assert_eq!(table(&t, last, "ledger").len(), 3);
    for name in ALL {
        assert_eq!(verdict(&t, last, name).status, Status::Holds, "{name}");
    }
}

#[test]
fn exploration_breaks_the_mistake_and_proves_the_fix() {
    let mut got = Vec::new();
    for v in CaVariant::ALL {
        for budget in [2, 3] {
            let r = explore(&Cancellation::model(v, budget), bounds());
            assert!(!r.truncated && !r.cyclic, "{v:?} {budget}");
            got.push((
                r.states,
                r.runs,
                r.invariants[0].violating_runs,
                r.invariants[1].violating_runs,
                r.invariants[0].counterexample.clone(),
                r.invariants[1].counterexample.clone(),
            ));
        }
    }
    let states: Vec<usize> = got.iter().map(|g| g.0).collect();
    assert_eq!(
        states,
        [47, 47, 142, 221, 157, 276],
        "distinct states, budgets 2 and 3, pinned"
    );
    let runs: Vec<u128> = got.iter().map(|g| g.1).collect();
    assert_eq!(runs, [23, 23, 80, 203, 86, 239], "runs, pinned");
    // The mistake: 18 of its 23 runs break both invariants (every run with a cancel or a lost
    // answer while a request is out); the shortest is a lost answer and the timeout.
    assert_eq!((got[0].2, got[0].3), (18, 18));
    assert_eq!(got[0].4.as_ref().map(|p| p.len()), Some(5));
    // Asking once: with two faults, the cancel and the query overtaking the refund, 9 runs
    // write op-1 off while its refund is on its way: start, send, cancel, abort, ask,
    // overtake, read "not found".
    assert_eq!((got[2].2, got[2].3), (9, 9));
    assert_eq!(got[2].5.as_deref(), Some(&[0, 0, 1, 0, 0, 1, 0][..]));
    // Voiding by the key: no run breaks either invariant, with two faults or three.
    assert_eq!((got[4].2, got[4].3, got[5].2, got[5].3), (0, 0, 0, 0));
    for budget in [2, 3] {
        assert_holds_everywhere(
            &Cancellation::model(CaVariant::CancelThenReconcile, budget),
            bounds(),
        );
    }
}

/// A real client asks on a new connection, so the question can overtake the refund: asking
/// once writes the refund off and it runs anyway; voiding by the key makes the late refund be
/// refused.
#[test]
fn a_request_on_a_new_connection_can_overtake_the_refund() {
    let before = [
        DRILL[0],
        DRILL[1],
        DRILL[6],
        "Service: fetch rejects with AbortError",
    ];
    let m = Cancellation::model(CaVariant::CancelThenAskOnce, 2);
    let mut labels = before.to_vec();
    labels.extend([
        "Service: ask the provider about op-1",
        "⚡ Overtake: answer the query for op-1",
        "Service: read the answer about op-1",
    ]);
    let path = by_labels(&m, &labels);
    let t = replay(&m, &path);
    let at = path.len();
    assert_eq!(table(&t, at, "ops")[0][3], "NOT_EXECUTED");
    assert_eq!(table(&t, at, "wire"), [["refund request op-1", "provider"]]);
    let kept = verdict(&t, at, KEPT);
    assert_eq!(kept.status, Status::Violated);
    assert!(
        kept.why.en.starts_with(
            "The row of op-1 says NOT_EXECUTED, but its request is still waiting at the provider"
        ),
        "{}",
        kept.why.en
    );
    let last = t.last();
    assert_eq!(
        table(&t, last, "screen")[0][0],
        "Cancelled: 0 of 3 refunded, 1 stopped, 2 not started"
    );
    assert_eq!(
        table(&t, last, "ledger"),
        [["re_1", "op-1", "40.00", "succeeded"]]
    );
    assert_eq!(verdict(&t, last, MATCHES).status, Status::Violated);

    let m = Cancellation::model(CaVariant::CancelThenReconcile, 2);
    let mut labels = before.to_vec();
    labels.extend([
        "Service: void op-1 by its key",
        "⚡ Overtake: void the key op-1",
        "Service: read the answer about op-1",
    ]);
    let path = by_labels(&m, &labels);
    let t = replay(&m, &path);
    assert_eq!(table(&t, path.len(), "ops")[0][3], "NOT_EXECUTED");
    assert_eq!(verdict(&t, path.len(), KEPT).status, Status::Holds);
    let last = t.last();
    assert!(t
        .steps
        .iter()
        .any(|s| s.info.title.en == "op-1 refused: voided"));
    assert_eq!(
        table(&t, last, "ledger"),
        [["—", "op-1", "40.00", "voided: will not run"]]
    );
    assert_eq!(
        table(&t, last, "screen")[0][0],
        "Cancelled: 0 of 3 refunded, 1 stopped, 2 not started"
    );
    for name in ALL {
        assert_eq!(verdict(&t, last, name).status, Status::Holds, "{name}");
    }
}

/// After a timeout the fix sends the refund again under the same key: the provider replays.
#[test]
fn a_timeout_is_settled_by_the_same_key_again() {
    let labels = [
        DRILL[0],
        DRILL[1],
        DRILL[2],
        "Lose the provider's answer",
        "Service: fetch times out (5 s)",
        "Service: send op-1 again, same key",
    ];
    let m = Cancellation::model(CaVariant::CancelThenReconcile, 2);
    let path = by_labels(&m, &labels);
    let t = replay(&m, &path);
    assert_eq!(
        table(&t, path.len(), "ops")[0][3],
        "UNKNOWN (same key again)"
    );
    assert!(t.steps.iter().any(|s| s.info.title.en == "replay op-1"));
    assert_eq!(table(&t, t.last(), "ledger").len(), 3);
}

/// Every step of every run (two faults, both variants) is narrated and labelled in both
/// languages, and the program's cursor sits on a line of the program.
#[test]
fn every_step_is_narrated_in_english_and_chinese() {
    use effectively_once::sim::Model;
    let mut steps = 0;
    for v in CaVariant::ALL {
        let m = Cancellation::model(v, 2);
        let mut todo = vec![m.init()];
        let mut seen = std::collections::BTreeSet::new();
        while let Some(s) = todo.pop() {
            if !seen.insert(s.clone()) {
                continue;
            }
            let code = m.view(&s).code.expect("the program");
            assert!(code.cursors[0].line < code.text.lines().count());
            let mut acts = Vec::new();
            m.actions(&s, &mut acts);
            for a in acts {
                let label = m.label(&s, &a);
                assert!(!label.en.is_empty() && !label.zh.is_empty(), "{a:?}");
                let after = m.next(&s, &a);
                let info = m.describe(&s, &a, &after);
                for t in [&info.title, &info.narration] {
                    assert!(!t.en.is_empty() && !t.zh.is_empty(), "{v:?} {a:?}");
                    assert_ne!(t.en, t.zh, "{v:?} {a:?}: not translated");
                }
                steps += 1;
                todo.push(after);
            }
        }
    }
    assert!(steps > 100, "{steps}");
}

/// The program card's cursor ends on the line that produced the screen's message.
#[test]
fn the_cursor_ends_on_the_line_that_told_the_agent() {
    let line = |v: CaVariant, labels: &[&str]| {
        let m = Cancellation::model(v, 2);
        let t = replay(&m, &by_labels(&m, labels));
        let code = t.view(t.last()).code.clone().expect("the program");
        code.text
            .lines()
            .nth(code.cursors[0].line)
            .unwrap_or("")
            .trim()
            .to_string()
    };
    assert_eq!(
        line(CaVariant::CancelMeansUndone, &DRILL),
        "screen.show(err.name === 'TimeoutError'"
    );
    assert_eq!(
        line(CaVariant::CancelMeansUndone, &[]),
        "screen.show('Done: 3 of 3 refunded');"
    );
    assert!(
        line(CaVariant::CancelThenReconcile, &DRILL).starts_with("screen.show(summary(batch));")
    );
}

/// The figure weighs the provider against the screen: after a cancel taken for an undo, one
/// refund made, none reported, and its record deleted.
#[test]
fn the_figure_shows_a_refund_the_screen_does_not() {
    use effectively_once::scenarios;
    use effectively_once::sim::{decode_path, FigureBody};
    let s = scenarios::all()[scenarios::index_of("cancellation").unwrap()];
    let t = s.trace(0, &decode_path("0010").0);
    let f = t.view(t.last()).figure.clone().unwrap();
    let FigureBody::Ledger(rows) = &f.body else {
        panic!("a ledger")
    };
    assert!(rows[0].executed > rows[0].intended, "{:?}", f.name.en);
    assert!(
        rows[1].executed >= 1,
        "a made refund without a record: {}",
        f.name.en
    );
    assert!(f.name.en.starts_with("the provider made "), "{}", f.name.en);
}

// ---- The programs, run as shown against PostgreSQL -------------------------------------------

// PostgreSQL and the programs run natively; the wasm32 build of the tests leaves them out.
#[cfg(not(target_arch = "wasm32"))]
use crate::common::pg;

#[cfg(not(target_arch = "wasm32"))]
mod run_as_shown {
    use super::*;

    /// The program each variant shows (src/scenarios/cancellation/).
    const PROGRAMS: [(&str, &str); 3] = [
        ("cancel-means-undone", "undone.js"),
        ("cancel-then-ask-once", "ask-once.js"),
        ("cancel-then-reconcile", "reconcile.js"),
    ];

    /// The service's own moves: Node makes them as soon as it can, between outside events.
    fn service(a: &effectively_once::scenarios::CaAct) -> bool {
        use effectively_once::scenarios::CaAct;
        matches!(
            a,
            CaAct::Send | CaAct::Abort | CaAct::Query | CaAct::Void | CaAct::Retry | CaAct::Finish
        )
    }

    /// How the run ends in the drawing, as the driver prints it: refund_operations' rows (a
    /// deleted one is gone), the provider's refunds by key, and (for the program that writes its
    /// own) the screen's message.
    fn drawn_end(v: usize, keys: &[String], screen: bool) -> String {
        use effectively_once::sim::AnyScenario;
        let trace = Cancellation.trace(v, &Cancellation.follow(v, keys));
        let view = &trace.view(trace.steps.len() - 1);
        let rows = |key: &str| -> Vec<Vec<String>> {
            let t = view.tables.iter().find(|t| t.key == key);
            t.map(|t| {
                t.rows
                    .iter()
                    .map(|r| r.cells.iter().map(|c| c.en.clone()).collect())
            })
            .into_iter()
            .flatten()
            .collect()
        };
        let bare = |s: &str| s.split(" (").next().unwrap_or(s).to_string();
        let ops: Vec<String> = (rows("ops").into_iter())
            .filter(|r| r[3] != "(deleted)")
            .map(|r| format!("[\"{}\",\"{}\"]", r[0], bare(&r[3])))
            .collect();
        // The provider's refunds (`re_1`), not the keys it has voided (`—`).
        let ledger: Vec<String> = (rows("ledger").into_iter())
            .filter(|r| r[0].starts_with("re_"))
            .map(|r| format!("\"{}\"", r[1]))
            .collect();
        let message = rows("screen")
            .first()
            .map_or(String::new(), |r| r[0].clone());
        let screen = if screen {
            format!(",\"screen\":\"{message}\"")
        } else {
            String::new()
        };
        format!(
            "{{\"ops\":[{}],\"ledger\":[{}]{screen}}}",
            ops.join(","),
            ledger.join(",")
        )
    }

    /// Every run Node can take, for each of the three programs: the rows, the provider's ledger
    /// and (for the mistake, whose program writes it) the agent's screen end as the model's do.
    #[test]
    fn the_programs_run_as_shown_and_end_as_the_model_does() {
        use effectively_once::scenarios::CaAct;
        use effectively_once::sim::AnyScenario;
        use effectively_once::sim::Scenario;
        let meta = AnyScenario::meta(&Cancellation);
        let mut input = String::new();
        let mut expected = Vec::new();
        for (slug, file) in PROGRAMS {
            let v = meta.variant_index(slug).expect("a variant");
            // The runs in which the service moves whenever it can: the runs a Node process can take.
            let model = Cancellation::model_of(v, None, &[]);
            let eager = |acts: &mut Vec<CaAct>| {
                if acts.iter().any(service) {
                    acts.retain(service);
                }
            };
            for keys in crate::common::every_run(&model, eager) {
                input += &format!("{file} {}\n", keys.join(" "));
                let screen = slug == "cancel-means-undone";
                expected.push((
                    format!("{slug}: {}", keys.join(" ")),
                    screen,
                    drawn_end(v, &keys, screen),
                ));
            }
        }
        let cluster = pg::Cluster::start("cancellation-node");
        let driver = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/node/cancellation-driver.mjs"
        );
        let port = cluster.port.to_string();
        let got = crate::common::driver("node", &[driver, &port], &input, "node (.ci/setup)");
        assert_eq!(got.len(), expected.len());
        for (line, (run, screen, want)) in got.iter().zip(&expected) {
            let line = match line.find(",\"screen\"") {
                Some(i) if !screen => format!("{}}}", &line[..i]),
                _ => line.to_string(),
            };
            assert_eq!(
                &line, want,
                "{run}: Node and PostgreSQL (left), the drawing (right)"
            );
        }
        assert!(expected.len() >= 60, "{} runs", expected.len());
    }
}
