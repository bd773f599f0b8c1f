//! Checkpoint replay, proven: a crash between the tool call and the checkpoint makes the resumed
//! node refund again; a stable operation id makes the re-run harmless; an in-memory saver loses
//! the run; exhaustive exploration with two crashes per run proves the operation id.

use crate::common::{assert_holds_everywhere, by_labels, table, verdict};
use effectively_once::scenarios::{CheckpointReplay, CrVariant};
use effectively_once::sim::{explore, replay, Bounds, Status};

const ONCE: &str = "refund executed at most once";
const ENDS: &str = "the run finishes";

/// Crash after the refund tool ran, before the checkpoint.
const DRILL: [&str; 5] = [
    "Run node plan",
    "Save the checkpoint after plan",
    "Node refund: call the refund tool",
    "Crash the process",
    "Restart the process and resume the thread",
];

fn bounds() -> Bounds {
    Bounds {
        max_depth: 64,
        max_states: 1_000_000,
    }
}

#[test]
fn without_a_crash_every_variant_refunds_once_and_finishes() {
    for v in CrVariant::ALL {
        let t = replay(&CheckpointReplay::model(v, 2), &[]);
        let last = t.last();
        assert_eq!(table(&t, last, "ledger").len(), 1, "{v:?}");
        assert_eq!(table(&t, last, "checkpoints").len(), 3);
        assert_eq!(verdict(&t, last, ONCE).status, Status::Holds);
        assert_eq!(verdict(&t, last, ENDS).status, Status::Holds);
    }
}

#[test]
fn resuming_re_runs_the_node_and_refunds_again() {
    let m = CheckpointReplay::model(CrVariant::RerunNode, 2);
    let path = by_labels(&m, &DRILL);
    let t = replay(&m, &path);
    // Resumed at the refund node: the checkpoint after plan is all the thread knows.
    assert_eq!(table(&t, path.len(), "checkpoints").len(), 1);
    assert_eq!(
        table(&t, path.len(), "ledger").len(),
        1,
        "the refund happened"
    );
    let last = t.last();
    let ledger = table(&t, last, "ledger");
    assert_eq!(ledger.len(), 2);
    let v = verdict(&t, last, ONCE);
    assert_eq!(v.status, Status::Violated);
    assert_eq!(v.cause, Some(4), "caused by the crash at step 4");
    // The resumed node's cursor is back at its first line.
    let code = t.view(path.len()).code.clone().expect("the program");
    let line = code.text.lines().nth(code.cursors[0].line).unwrap_or("");
    assert!(line.trim_start().starts_with("def refund_node"), "{line}");
}

#[test]
fn a_stable_operation_id_makes_the_re_run_harmless() {
    let m = CheckpointReplay::model(CrVariant::OperationId, 2);
    let t = replay(&m, &by_labels(&m, &DRILL));
    let last = t.last();
    assert_eq!(
        table(&t, last, "ledger"),
        [["re_1", "#1", "op-ord-1701-r1", "80.00"]]
    );
    assert!(t
        .steps
        .iter()
        .any(|s| s.info.title.en == "tool call: deduplicated"));
    assert_eq!(verdict(&t, last, ONCE).status, Status::Holds);
    assert_eq!(verdict(&t, last, ENDS).status, Status::Holds);
}

#[test]
fn an_in_memory_saver_loses_the_run() {
    let m = CheckpointReplay::model(CrVariant::InMemorySaver, 2);
    let path = by_labels(&m, &DRILL);
    let t = replay(&m, &path);
    // The crash took the checkpoints with it: the run starts over at plan.
    assert!(t
        .view(path.len() - 1)
        .tables
        .iter()
        .any(|x| x.key == "checkpoints" && x.lost));
    assert_eq!(table(&t, path.len(), "checkpoints").len(), 0);
    assert_eq!(table(&t, path.len(), "runtime")[0][0], "plan");
    assert_eq!(verdict(&t, t.last(), ONCE).status, Status::Violated);
}

#[test]
fn exploration_proves_the_operation_id_within_two_crashes() {
    let mut got = Vec::new();
    for v in CrVariant::ALL {
        for budget in [2, 3] {
            let r = explore(&CheckpointReplay::model(v, budget), bounds());
            assert!(!r.truncated && !r.cyclic);
            got.push((
                r.states,
                r.runs,
                r.invariants[0].violating_runs,
                r.invariants[1].violating_runs,
            ));
        }
    }
    let states: Vec<usize> = got.iter().map(|g| g.0).collect();
    assert_eq!(
        states,
        [90, 184, 90, 184, 69, 122],
        "distinct states, budgets 2 and 3, pinned"
    );
    assert_holds_everywhere(
        &CheckpointReplay::model(CrVariant::OperationId, 2),
        bounds(),
    );
    assert_holds_everywhere(
        &CheckpointReplay::model(CrVariant::OperationId, 3),
        bounds(),
    );
    assert!(got[0].2 > 0 && got[4].2 > 0, "the others refund twice");
    assert_eq!(
        got.iter().map(|g| g.3).sum::<u128>(),
        0,
        "every run finishes"
    );
}

/// The figure counts the refunds against the one the workflow meant: two after a crash between
/// the tool call and the checkpoint, one with a stable operation id.
#[test]
fn the_figure_counts_two_refunds_for_one_meant() {
    use effectively_once::scenarios;
    use effectively_once::sim::{decode_path, FigureBody};
    let s = scenarios::all()[scenarios::index_of("checkpoint-replay").unwrap()];
    let refunds = |v: usize| {
        let p = decode_path("000100").0;
        let t = s.trace(v, &p);
        let f = t.view(t.last()).figure.clone().unwrap();
        let FigureBody::Ledger(rows) = f.body else {
            panic!("a ledger")
        };
        (rows[0].intended, rows[0].executed, f.name.en)
    };
    let (meant, made, name) = refunds(0);
    assert_eq!((meant, made), (1, 2), "{name}");
    assert!(
        name.starts_with("2 refunds executed for the one the workflow meant"),
        "{name}"
    );
    let (meant, made, _) = refunds(1);
    assert_eq!((meant, made), (1, 1));
}

/// The run, each tool invocation and the operation are three identities: the operation id is
/// the intent's (created by plan, kept in its checkpoint), not derived from the run, and a
/// re-run is a new invocation of the same operation. The resume's sentence says when "resume
/// at the next node" holds.
#[test]
fn three_identities_stay_apart() {
    use effectively_once::scenarios;
    use effectively_once::sim::decode_path;
    let s = scenarios::all()[scenarios::index_of("checkpoint-replay").unwrap()];
    let t = s.trace(1, &decode_path("000100").0);
    let end = t.last();
    assert_eq!(
        table(&t, end, "identities")
            .iter()
            .map(|r| r[1].clone())
            .collect::<Vec<_>>(),
        ["t-42", "inv-2", "op-ord-1701-r1"],
        "one run, the second invocation, one operation"
    );
    let resume = t
        .steps
        .iter()
        .find(|st| st.info.title.en.starts_with("resume at"))
        .expect("a resume");
    assert!(
        resume
            .info
            .narration
            .en
            .contains("synchronous checkpoint durability"),
        "{}",
        resume.info.narration.en
    );
}

// ---- The graphs, run as shown under LangGraph ------------------------------------------------

/// The program each variant shows (src/scenarios/checkpoint_replay/) and its saver.
const PROGRAMS: [(&str, &str, &str); 3] = [
    ("rerun-node", "graph.py", "durable"),
    ("operation-id", "graph_operation_id.py", "durable"),
    ("in-memory-saver", "graph.py", "in-memory"),
];

/// The refund service's ledger at the end of the run, as the drawing shows it and the driver
/// prints it: refund, operation id, amount.
fn drawn_ledger(v: usize, keys: &[String]) -> String {
    use effectively_once::sim::AnyScenario;
    let trace = CheckpointReplay.trace(v, &CheckpointReplay.follow(v, keys));
    let view = &trace.view(trace.steps.len() - 1);
    let t = view
        .tables
        .iter()
        .find(|t| t.key == "ledger")
        .expect("the ledger");
    let rows: Vec<String> = (t.rows.iter())
        .map(|r| {
            format!(
                "[\"{}\", \"{}\", \"{}\"]",
                r.cells[0].en, r.cells[2].en, r.cells[3].en
            )
        })
        .collect();
    format!("{{\"ledger\": [{}]", rows.join(", "))
}

/// On every run of every variant (every crash point, at the player's budget), LangGraph
/// running the graph as shown, each life of the service its own process, leaves the refund
/// service with the refunds the model draws: two when the refund node re-runs or the in-memory
/// saver starts over, one with the operation id; and the run ends by notifying.
#[test]
fn the_graphs_run_as_shown_under_langgraph_and_refund_as_the_model_does() {
    use effectively_once::sim::{AnyScenario, Scenario};
    let meta = AnyScenario::meta(&CheckpointReplay);
    let mut input = String::new();
    let mut expected = Vec::new();
    for (slug, file, saver) in PROGRAMS {
        let v = meta.variant_index(slug).expect("a variant");
        let model = CheckpointReplay::model_of(v, None, &[]);
        for keys in crate::common::every_run(&model, |_| {}) {
            input += &format!("{file} {saver} {}\n", keys.join(" "));
            expected.push((
                format!("{slug}: {}", keys.join(" ")),
                drawn_ledger(v, &keys),
            ));
        }
    }
    // The Python with LangGraph that `.ci/setup` installs (tests/python/requirements.txt).
    let python = concat!(env!("CARGO_MANIFEST_DIR"), "/target/py/bin/python");
    let driver = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/graph_driver.py");
    let got = crate::common::driver(
        python,
        &[driver],
        &input,
        "target/py with LangGraph (.ci/setup)",
    );
    assert_eq!(got.len(), expected.len());
    for (line, (run, want)) in got.iter().zip(&expected) {
        assert!(
            line.starts_with(want.as_str()),
            "{run}: LangGraph (left), the drawing (right)\n{line}\n{want}"
        );
        assert!(
            !line.ends_with("\"messages\": 0}"),
            "{run}: the run ends by notifying\n{line}"
        );
    }
    assert!(expected.len() >= 20, "{} runs", expected.len());
}
