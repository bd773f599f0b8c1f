//! The refund-cap scenario's story, proven: the seed's schedule reserves 160 in the naive
//! variants and 80 in the fixes; exhaustive exploration counts the interleavings that break the
//! cap; and real Node, running the very JavaScript the app shows against PostgreSQL, agrees with
//! the model step by step on every interleaving (tests/node/refund-cap-driver.mjs).

// PostgreSQL and the programs run natively; the wasm32 build of the tests leaves them out.
#[cfg(not(target_arch = "wasm32"))]
use crate::common::pg;

use crate::common::{assert_holds_everywhere, table, verdict};
use effectively_once::scenarios::{line_of, Pc, RcVariant, RefundCap};
use effectively_once::sim::{explore, replay, Bounds, Status, Trace};

const WITHIN_CAP: &str = "refunds within the cap";

/// The scripted run (no choices): the reserved amount and each request's final state.
fn scripted(v: RcVariant) -> (String, Vec<String>, Trace) {
    let trace = replay(&RefundCap::model(v), &[]);
    let last = trace.last();
    let reserved = table(&trace, last, "refunds")[0][3].clone();
    let outcomes = table(&trace, last, "requests")
        .into_iter()
        .map(|r| r[4].clone())
        .collect();
    (reserved, outcomes, trace)
}

#[test]
fn the_seeds_schedule_reserves_160_in_the_naive_variants() {
    for v in [
        RcVariant::ReadThenWrite,
        RcVariant::MutexTwoInstances,
        RcVariant::Semaphore2,
    ] {
        let (reserved, outcomes, trace) = scripted(v);
        assert_eq!(reserved, "160", "{v:?}");
        let both = ["returned 'reserved'"; 2];
        assert_eq!(outcomes[..2], both, "{v:?}: both requests were approved");
        let last = verdict(&trace, trace.last(), WITHIN_CAP);
        assert_eq!(last.status, Status::Violated, "{v:?}");
        assert!(
            last.why.en.contains("160 exceeds the cap of 100"),
            "{}",
            last.why.en
        );
        // Both requests read 100 before either wrote.
        let reads: Vec<String> = table(&trace, trace.last(), "requests")
            .into_iter()
            .map(|r| r[3].clone())
            .collect();
        assert_eq!(reads[..2], ["100", "100"], "{v:?}");
    }
    // The semaphore let the third request wait, then turned it away.
    let (_, outcomes, _) = scripted(RcVariant::Semaphore2);
    assert_eq!(outcomes[2], "threw 'insufficient remaining'");
}

#[test]
fn the_fixes_reserve_80_and_turn_the_second_request_away() {
    for v in [
        RcVariant::MutexOneInstance,
        RcVariant::ConditionalUpdate,
        RcVariant::SelectForUpdate,
    ] {
        let (reserved, outcomes, trace) = scripted(v);
        assert_eq!(reserved, "80", "{v:?}");
        assert_eq!(
            outcomes,
            ["returned 'reserved'", "threw 'insufficient remaining'"],
            "{v:?}"
        );
        assert_eq!(
            verdict(&trace, trace.last(), WITHIN_CAP).status,
            Status::Holds
        );
    }
    // The row lock is visible: B's SELECT … FOR UPDATE waits while A holds it.
    let (_, _, trace) = scripted(RcVariant::SelectForUpdate);
    let waited = (0..trace.steps.len()).any(|k| {
        table(&trace, k, "loop-2")
            .iter()
            .any(|r| r[0] == "awaiting I/O (row locked)" && r[1] == "B: SELECT … FOR UPDATE")
    });
    assert!(waited, "B never waited for the row lock");
}

/// Interleavings per variant (no faults: every run is a schedule), pinned. Every run ends
/// with both requests answered, so the state graph is finite and acyclic.
#[test]
fn exploration_counts_the_schedules_that_break_the_cap() {
    let bounds = Bounds {
        max_depth: 64,
        max_states: 1_000_000,
    };
    // (variant, distinct states, runs, runs that break the cap, runs that lose a granted write)
    let expect: [(RcVariant, usize, u128, u128, u128); 7] = [
        (RcVariant::ReadThenWrite, 46, 42, 36, 0),
        (RcVariant::LostUpdate, 46, 42, 0, 36),
        (RcVariant::MutexOneInstance, 10, 2, 0, 0),
        (RcVariant::MutexTwoInstances, 68, 232, 200, 0),
        (RcVariant::ConditionalUpdate, 20, 20, 0, 0),
        (RcVariant::SelectForUpdate, 220, 1760, 0, 0),
        (RcVariant::Semaphore2, 99, 264, 234, 0),
    ];
    let mut got = Vec::new();
    for (v, ..) in expect {
        let m = RefundCap::model(v);
        let r = explore(&m, bounds);
        assert!(!r.truncated && !r.cyclic, "{v:?}");
        let (cap, lost) = (&r.invariants[0], &r.invariants[1]);
        println!(
            "{v:?}: {} states, {} runs, {} over the cap, {} losing a write",
            r.states, r.runs, cap.violating_runs, lost.violating_runs
        );
        got.push((v, r.states, r.runs, cap.violating_runs, lost.violating_runs));
        for inv in [cap, lost].into_iter().filter(|i| i.violating_runs > 0) {
            // The shortest counterexample really breaks it when replayed.
            let cx = inv.counterexample.clone().expect("a counterexample");
            let t = replay(&m, &cx);
            assert_eq!(verdict(&t, cx.len(), &inv.name.en).status, Status::Violated);
        }
        if cap.violating_runs + lost.violating_runs == 0 {
            assert_holds_everywhere(&m, bounds);
        }
    }
    assert_eq!(got, expect);
}

#[test]
fn cursors_point_at_the_awaits_and_exits_of_the_real_programs() {
    for v in RcVariant::ALL {
        let (_, text) = v.program();
        let line = |pc| {
            text.lines()
                .nth(line_of(text, pc))
                .unwrap_or("")
                .to_string()
        };
        assert!(line(Pc::Queued).contains("export async function refund"));
        assert!(line(Pc::Done(true)).contains("return 'reserved'"));
        assert!(line(Pc::Done(false)).contains("throw"));
        let trace = replay(&RefundCap::model(v), &[]);
        for step in 0..trace.steps.len() {
            let view = trace.view(step);
            let code = view.code.as_ref().expect("a program listing");
            for c in &code.cursors {
                let l = text.lines().nth(c.line).unwrap_or("");
                if c.doing.en.starts_with("awaiting") {
                    assert!(l.contains("await"), "{v:?}: {} at '{l}'", c.doing.en);
                }
                if c.doing.en.starts_with("waiting for") {
                    assert!(l.contains(".acquire()"), "{v:?}: {} at '{l}'", c.doing.en);
                }
            }
        }
    }
}

// ---- Fidelity against real Node ----------------------------------------------------------

// Node and PostgreSQL run natively; the wasm32 build of the tests leaves them out.
#[cfg(not(target_arch = "wasm32"))]
mod node {
    use super::*;
    use effectively_once::scenarios::{uncommitted, RcAct, RcState, RefundCapModel};
    use effectively_once::sim::Model;

    /// Every maximal schedule of `m`, as the choice taken at each step.
    fn all_schedules(m: &RefundCapModel) -> Vec<Vec<usize>> {
        fn walk(m: &RefundCapModel, s: &RcState, path: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            let mut acts = Vec::new();
            m.actions(s, &mut acts);
            if acts.is_empty() {
                out.push(path.clone());
            }
            for (k, a) in acts.iter().enumerate() {
                path.push(k);
                walk(m, &m.next(s, a), path, out);
                path.pop();
            }
        }
        let mut out = Vec::new();
        walk(m, &m.init(), &mut Vec::new(), &mut out);
        out
    }

    /// The driver's line for the state after `event`.
    fn expected_line(event: &str, s: &RcState) -> String {
        let n = s.reqs.len() as u8;
        let name = |r: u8| ["A", "B", "C"][r as usize];
        let pending: Vec<String> = (0..n)
            .map(|r| {
                let p = RefundCapModel::pending(s, r).map_or("-", |st| st.tag());
                format!("{}:{p}", name(r))
            })
            .collect();
        let results: Vec<String> = (0..n)
            .map(|r| {
                let x = match s.reqs[r as usize].pc {
                    Pc::Done(true) => "reserved",
                    Pc::Done(false) => "insufficient remaining",
                    _ => "-",
                };
                format!("{}:{x}", name(r))
            })
            .collect();
        let lock = s.lock.map_or("-", name);
        format!(
            "{event}: pending={} reserved={} lock={lock} results={}",
            pending.join(","),
            committed(s),
            results.join(",")
        )
    }

    /// The reservation as other sessions see it: without the lock holder's uncommitted UPDATE.
    fn committed(s: &RcState) -> i32 {
        s.reserved - uncommitted(s).map_or(0, |(_, amount)| amount)
    }

    /// One schedule as driver input, and the lines the model expects back. `pick` chooses among
    /// the enabled actions (0 = the scripted schedule).
    fn case(m: &RefundCapModel, mut pick: impl FnMut(usize) -> usize) -> (String, Vec<String>) {
        let v = m.variant;
        let name = |r: u8| ["A", "B", "C"][r as usize];
        let (file, _) = v.program();
        let mut input = format!("case {file} cap={} instances={}\n", m.cap, v.instances());
        for r in 0..v.requests() {
            let amount = m.amounts[r as usize];
            input += &format!("req {} {} {amount}\n", name(r), v.instance_of(r));
        }
        let mut s = m.init();
        let mut expected = Vec::new();
        let mut acts = Vec::new();
        loop {
            acts.clear();
            m.actions(&s, &mut acts);
            if acts.is_empty() {
                break;
            }
            let a = acts[pick(acts.len())];
            let event = match a {
                RcAct::Exec(r) => format!("exec {}", name(r)),
                RcAct::Run(i) => {
                    let r = m.head(&s, i).expect("a ready callback");
                    let verb = if s.reqs[r as usize].pc == Pc::Queued {
                        "start"
                    } else {
                        "deliver"
                    };
                    format!("{verb} {}", name(r))
                }
            };
            s = m.next(&s, &a);
            input += &event;
            input.push('\n');
            expected.push(expected_line(&event, &s));
        }
        input += "end\n";
        expected.push(format!("end reserved={}", s.reserved));
        (input, expected)
    }

    #[test]
    fn real_node_agrees_with_the_model_on_every_schedule() {
        let mut input = String::new();
        let mut expected = Vec::new();
        let mut cases = 0;
        // The seed's numbers, then other knobs: amounts that fit the cap together, and unequal ones.
        for knobs in [&[][..], &[150, 70, 60, 50], &[100, 30, 90, 10]] {
            for v in RcVariant::ALL {
                let m = RefundCap::model_with(v, knobs);
                for schedule in all_schedules(&m) {
                    let mut choices = schedule.into_iter();
                    let (i, e) = case(&m, |_| choices.next().expect("a choice per step"));
                    input += &i;
                    expected.extend(e);
                    cases += 1;
                }
            }
            if knobs.is_empty() {
                // One case per run the explorer counts (the pinned totals above).
                assert_eq!(cases, 42 + 42 + 2 + 232 + 20 + 1760 + 264);
            }
        }
        let driver = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/node/refund-cap-driver.mjs"
        );
        let cluster = pg::Cluster::start("refund-cap-node");
        let port = cluster.port.to_string();
        let got = crate::common::driver("node", &[driver, &port], &input, "node (.ci/setup)");
        for (k, want) in expected.iter().enumerate() {
            let line = got.get(k).map_or("(missing)", String::as_str);
            assert_eq!(line, want, "line {k}: Node and the model disagree");
        }
        assert_eq!(got.len(), expected.len());
    }
}

/// The knobs change the story: amounts that fit the cap together never break it, in any
/// schedule; an amount over the cap is refused by the fixes and reserved by the naive read.
#[test]
fn knobs_decide_whether_the_race_can_hurt() {
    let bounds = Bounds {
        max_depth: 64,
        max_states: 1_000_000,
    };
    for v in RcVariant::ALL {
        let fits = RefundCap::model_with(v, &[150, 70, 60, 50]);
        let r = explore(&fits, bounds);
        // 70 + 60 = 130 fits 150; with C (semaphore-2) 180 does not.
        let broken = r.invariants[0].violating_runs > 0;
        assert_eq!(broken, v == RcVariant::Semaphore2, "{v:?}");
    }
    let trace = replay(
        &RefundCap::model_with(RcVariant::ConditionalUpdate, &[50, 80, 40]),
        &[],
    );
    let requests = table(&trace, trace.last(), "requests");
    assert_eq!(requests[0][4], "threw 'insufficient remaining'", "80 > 50");
    assert_eq!(requests[1][4], "returned 'reserved'");
    assert_eq!(
        table(&trace, trace.last(), "refunds")[0][1..4],
        ["50", "0", "40"]
    );
}

/// The figure is the cap's meter: 160 reserved of 100, split A 80 and B 80, and named so; the
/// fixes stop at 80. Each request has its own lane, so the interleaving is a zigzag.
#[test]
fn the_figure_shows_160_of_100_and_each_request_has_its_lane() {
    use effectively_once::sim::FigureBody;
    for (v, value, parts) in [
        (RcVariant::ReadThenWrite, 160, vec![("A", 80), ("B", 80)]),
        (
            RcVariant::MutexTwoInstances,
            160,
            vec![("A", 80), ("B", 80)],
        ),
        (RcVariant::ConditionalUpdate, 80, vec![("A", 80)]),
    ] {
        let (_, _, trace) = scripted(v);
        let (end, view) = (&trace.steps[trace.last()], trace.view(trace.last()));
        let fig = view.figure.as_ref().expect("a figure");
        let FigureBody::Meter(m) = &fig.body else {
            panic!("{v:?}: a meter")
        };
        assert_eq!((m.value, m.limit), (value, 100), "{v:?}");
        let got: Vec<(String, u32)> = m.parts.iter().map(|(n, x)| (n.en.clone(), *x)).collect();
        let want: Vec<(String, u32)> = parts.iter().map(|(n, x)| (n.to_string(), *x)).collect();
        assert_eq!(got, want, "{v:?}");
        assert!(
            fig.name
                .en
                .starts_with(&format!("reserved {value} of a cap of 100")),
            "{}",
            fig.name.en
        );
        assert!(
            fig.name.zh.contains(&format!("已预留 {value}")),
            "{}",
            fig.name.zh
        );
        assert_eq!(fig.shows, vec![0, 1]);
        assert_eq!(
            end.verdicts[0].status == Status::Violated,
            value > 100,
            "{v:?}: the figure's invariant"
        );
        let lanes: Vec<&str> = view.lanes.iter().map(|l| l.name.en.as_str()).collect();
        let want = if v == RcVariant::ReadThenWrite {
            vec!["Request A", "Request B", "Database"]
        } else {
            vec!["A · instance 1", "B · instance 2", "Database"]
        };
        assert_eq!(lanes, want, "{v:?}");
    }
    // A's and B's reads land on their own lanes: the zigzag.
    let (_, _, trace) = scripted(RcVariant::ReadThenWrite);
    let answers: Vec<(usize, usize)> = trace.steps[1..=4]
        .iter()
        .flat_map(|s| s.info.arrows.iter().map(|a| (a.from, a.to)))
        .collect();
    assert_eq!(
        answers,
        [(0, 2), (2, 0), (1, 2), (2, 1)],
        "A sends, A is answered, B sends, B is answered"
    );
}

/// The lost-update form (NC05's "按旧值写回，就会丢更新"): each request writes back what it read
/// plus 80; both are granted, the row says 80, and only the new invariant catches it — the
/// cap check on the row alone would not.
#[test]
fn writing_back_the_old_value_loses_an_update() {
    let (reserved, outcomes, trace) = scripted(RcVariant::LostUpdate);
    assert_eq!(reserved, "80", "the row");
    assert_eq!(outcomes, ["returned 'reserved'"; 2], "both granted");
    let end = trace.last();
    assert_eq!(
        verdict(&trace, end, WITHIN_CAP).status,
        Status::Holds,
        "the row is under the cap"
    );
    let lost = verdict(&trace, end, "every granted refund is reserved");
    assert_eq!(lost.status, Status::Violated);
    assert!(
        lost.why
            .en
            .starts_with("160 was granted, but the row says reserved 80"),
        "{}",
        lost.why.en
    );
    let sql: Vec<&str> = trace
        .steps
        .iter()
        .filter_map(|s| s.info.code.as_deref())
        .collect();
    assert!(
        sql.contains(&"UPDATE refunds SET reserved = 80 WHERE id = 1;"),
        "{sql:?}"
    );
}

#[test]
fn the_intro_says_the_knobs_numbers() {
    use effectively_once::sim::{Present, Scenario};
    let m = RefundCap::model_of(0, None, &[150, 60, 90, 80]);
    let intro = m.intro();
    for n in ["up to 150", "A of 60 and B of 90", "ends at 150"] {
        assert!(intro.en.contains(n), "{n}: {}", intro.en);
    }
    assert!(intro.zh.contains("最多可退 150") && intro.zh.contains("A 退 60"));
    let defaults = RefundCap::model_of(0, None, &[]).intro();
    assert!(defaults.en.contains("Two refund requests of 80") && defaults.en.contains("160"));
}
