//! Semaphore scope, proven: three instances with a local semaphore of 10 each put 3 × 10 = 30
//! calls on a channel that takes 10; a shared counter row never exceeds 10 but leaks the slots of
//! an instance that crashes holding them; leases per slot come back after a crash; exhaustive
//! exploration with two crashes per run proves the leases and pins every state count.

use crate::common::{assert_holds_everywhere, by_labels, table, verdict};
use effectively_once::scenarios::{self, SemaphoreScope, SsVariant};
use effectively_once::sim::{explore, replay, AnyScenario, Bounds, Status};

const LIMIT: &str = "at most 10 calls in flight to the channel";
const LEAK: &str = "no slot leaked forever";
const DRAINS: &str = "the queue drains";
const ALL: [&str; 3] = [LIMIT, LEAK, DRAINS];

fn bounds() -> Bounds {
    Bounds {
        max_depth: 64,
        max_states: 2_000_000,
    }
}

/// The metric `name`'s count at `step`.
fn metric(t: &effectively_once::sim::Trace, step: usize, name: &str) -> u32 {
    let view = t.view(step);
    let m = view
        .metrics
        .iter()
        .find(|m| m.name.en == name)
        .unwrap_or_else(|| panic!("no metric {name}"));
    m.value.at(step).unwrap_or(0)
}

#[test]
fn the_shared_budgets_hold_every_invariant_without_a_crash() {
    for v in [SsVariant::SharedCounter, SsVariant::Leases] {
        let t = replay(&SemaphoreScope::model(v, 2), &[]);
        let last = t.last();
        assert!(t.steps[last].quiet);
        assert_eq!(
            table(&t, last, "jobs"),
            [["queued", "0"], ["running", "0"], ["done", "30"]],
            "{v:?}"
        );
        for name in ALL {
            assert_eq!(
                verdict(&t, last, name).status,
                Status::Holds,
                "{v:?} {name}"
            );
        }
        let peak = (0..=last)
            .map(|k| metric(&t, k, "calls in flight to the channel"))
            .max();
        assert_eq!(peak, Some(10), "{v:?} uses the whole budget, no more");
    }
}

#[test]
fn three_instances_with_a_semaphore_of_10_put_30_calls_in_flight() {
    let m = SemaphoreScope::model(SsVariant::PerInstanceSemaphore, 1);
    let t = replay(&m, &[]);
    // Instances 1, 2, 3 claim 5 each, then 5 more each: 3 × 10 = 30 at step 6.
    assert_eq!(metric(&t, 6, "calls in flight to the channel"), 30);
    assert_eq!(metric(&t, 6, "instances × local semaphore"), 30);
    assert_eq!(
        table(&t, 6, "channel"),
        [
            ["instance-1/p1", "10"],
            ["instance-2/p1", "10"],
            ["instance-3/p1", "10"],
            ["total", "30 (limit 10: over by 20)"],
        ]
    );
    assert_eq!(
        table(&t, 6, "instances")
            .iter()
            .map(|r| r[2].as_str())
            .collect::<Vec<_>>(),
        ["10 of 10 permits taken"; 3],
        "no semaphore was exceeded"
    );
    assert!(t.steps[6]
        .info
        .narration
        .en
        .contains("3 instances × 10 = 30"));
    // Broken at step 3, the first claim past 10 (15 in flight), with no fault at all; the
    // sentence follows the state afterwards (30 at step 6) and still says where it broke.
    let v = verdict(&t, 3, LIMIT);
    assert!(
        v.why.en.starts_with("15 calls are in flight"),
        "{}",
        v.why.en
    );
    let v = verdict(&t, 6, LIMIT);
    assert_eq!(v.status, Status::Violated);
    assert_eq!(v.since, Some(3));
    assert!(
        v.why.en.starts_with("30 calls are in flight")
            && v.why.en.contains("First broken at step 3."),
        "{}",
        v.why.en
    );
    assert_eq!(verdict(&t, t.last(), LEAK).status, Status::Holds);
    assert_eq!(verdict(&t, t.last(), DRAINS).status, Status::Holds);
}

#[test]
fn n_instances_times_the_local_semaphore_for_every_knob() {
    let s = SemaphoreScope;
    for n in 1..=5u32 {
        for (k, local) in [2u32, 5, 10, 20].into_iter().enumerate() {
            let t = s.trace_with(0, &[n, k as u32], &[]);
            let peak = (0..t.steps.len())
                .map(|k| metric(&t, k, "calls in flight to the channel"))
                .max();
            assert_eq!(peak, Some(n * local), "{n} × {local}");
            let over = verdict(&t, t.last(), LIMIT).status == Status::Violated;
            assert_eq!(over, n * local > 10, "{n} × {local}");
        }
    }
}

/// Instance 1 takes all 10 budget slots, then crashes holding them.
const LEAK_ALL: [&str; 3] = [
    "Instance 1: claim 5 jobs",
    "Instance 1: claim 5 jobs",
    "Crash instance 1",
];

#[test]
fn a_crash_holding_the_whole_budget_leaks_it_and_the_queue_never_drains() {
    let m = SemaphoreScope::model(SsVariant::SharedCounter, 2);
    let path = by_labels(&m, &LEAK_ALL);
    assert_eq!(path, [0, 2, 1], "the link the e2e test opens: p=021");
    let t = replay(&m, &path);
    assert_eq!(table(&t, 2, "channel_budget"), [["psp", "10"]]);
    let last = t.last();
    assert!(t.steps[last].quiet);
    // The channel finished the orphaned calls and instance 1 restarted as p2; nothing gives
    // the 10 slots back.
    assert_eq!(table(&t, last, "channel_budget"), [["psp", "10"]]);
    assert_eq!(metric(&t, last, "calls in flight to the channel"), 0);
    assert_eq!(metric(&t, last, "slots leaked"), 10);
    assert_eq!(table(&t, last, "instances")[0][1], "p2");
    assert_eq!(
        table(&t, last, "jobs"),
        [
            ["queued", "20"],
            ["running", "0"],
            ["done", "0"],
            ["running, owner crashed (to reconcile)", "10"],
        ]
    );
    let leak = verdict(&t, last, LEAK);
    assert_eq!(leak.status, Status::Violated);
    assert_eq!(leak.cause, Some(3), "caused by the crash at step 3");
    assert!(
        leak.why
            .en
            .starts_with("channel_budget.in_flight is 10 but 0 calls are in flight"),
        "{}",
        leak.why.en
    );
    assert_eq!(verdict(&t, last, DRAINS).status, Status::Violated);
    assert_eq!(
        verdict(&t, last, LIMIT).status,
        Status::Holds,
        "never over 10"
    );
}

#[test]
fn a_crash_holding_half_leaks_half_and_the_rest_drains_at_5() {
    let m = SemaphoreScope::model(SsVariant::SharedCounter, 2);
    let path = by_labels(
        &m,
        &[
            "Instance 1: claim 5 jobs",
            "Instance 2: claim 5 jobs",
            "Crash instance 1",
        ],
    );
    let t = replay(&m, &path);
    let last = t.last();
    assert_eq!(table(&t, last, "channel_budget"), [["psp", "5"]]);
    assert_eq!(verdict(&t, last, LEAK).status, Status::Violated);
    assert_eq!(verdict(&t, last, DRAINS).status, Status::Holds);
    assert_eq!(metric(&t, last, "jobs done"), 25);
}

#[test]
fn leases_of_a_crashed_process_expire_and_the_work_finishes() {
    let m = SemaphoreScope::model(SsVariant::Leases, 2);
    let path = by_labels(&m, &LEAK_ALL);
    let t = replay(&m, &path);
    let slots = table(&t, 3, "channel_slots");
    assert_eq!(slots.len(), 10);
    assert!(slots
        .iter()
        .all(|r| r[1] == "instance-1/p1"
            && r[2] == "not renewed since the crash: runs out within 30 s"));
    let last = t.last();
    for name in ALL {
        assert_eq!(verdict(&t, last, name).status, Status::Holds, "{name}");
    }
    assert_eq!(metric(&t, last, "jobs done"), 20);
    assert_eq!(metric(&t, last, "jobs queued"), 0);
    // The expiry came only after the crashed process's calls ended (timeout < lease).
    let titles: Vec<&str> = t.steps.iter().map(|s| s.info.title.en.as_str()).collect();
    let ended = titles.iter().position(|x| x.starts_with("channel ends 10"));
    let expired = titles.iter().position(|x| *x == "leases 1–10 expire");
    assert!(ended.is_some() && ended < expired, "{titles:?}");
}

#[test]
fn exploration_breaks_each_mistake_and_proves_the_leases() {
    let mut got = Vec::new();
    for v in SsVariant::ALL {
        assert_eq!(
            v.budget(),
            if v == SsVariant::PerInstanceSemaphore {
                1
            } else {
                2
            }
        );
        for budget in [1, 2] {
            let r = explore(&SemaphoreScope::model(v, budget), bounds());
            assert!(!r.truncated && !r.cyclic);
            got.push((
                r.states,
                r.invariants
                    .iter()
                    .map(|i| i.violating_runs > 0)
                    .collect::<Vec<_>>(),
            ));
        }
    }
    let states: Vec<usize> = got.iter().map(|g| g.0).collect();
    assert_eq!(
        states,
        [1302, 6426, 337, 667, 727, 3862],
        "distinct states, budgets 1 and 2, pinned"
    );
    // Per instance: over the limit and nothing else; shared counter: never over, but it leaks,
    // and a crash holding all 10 stalls the queue.
    assert_eq!(got[0].1, [true, false, false]);
    assert_eq!(got[1].1, [true, false, false]);
    assert_eq!(got[2].1, [false, true, true]);
    assert_eq!(got[3].1, [false, true, true]);
    assert_holds_everywhere(&SemaphoreScope::model(SsVariant::Leases, 1), bounds());
    assert_holds_everywhere(&SemaphoreScope::model(SsVariant::Leases, 2), bounds());
    assert_holds_everywhere(&SemaphoreScope::model(SsVariant::Leases, 3), bounds());
    // The shortest counterexamples: three claims for 15 in flight, with no fault at all; a leak
    // needs a crash.
    let over = explore(
        &SemaphoreScope::model(SsVariant::PerInstanceSemaphore, 0),
        bounds(),
    );
    // With no fault at all, most schedules go over (the rest answer calls before claiming more).
    assert_eq!(
        (over.invariants[0].violating_runs, over.runs),
        (1_013_760, 1_112_064)
    );
    assert_eq!(
        over.invariants[0].counterexample.as_deref(),
        Some(&[0u8, 0, 0][..])
    );
    let m = SemaphoreScope::model(SsVariant::SharedCounter, 2);
    let leak = explore(&m, bounds());
    let path = leak.invariants[1]
        .counterexample
        .clone()
        .unwrap_or_default();
    let t = replay(&m, &path);
    assert!(t.steps.iter().any(|s| s.fault), "a leak needs a crash");
    assert_eq!(verdict(&t, t.last(), LEAK).status, Status::Violated);
    assert_holds_everywhere(
        &SemaphoreScope::model(SsVariant::SharedCounter, 0),
        bounds(),
    );
}

#[test]
fn the_largest_knobs_still_explore_completely() {
    for v in 0..3 {
        let i = scenarios::index_of("semaphore-scope").unwrap_or(usize::MAX);
        for local in 0..4 {
            let r = scenarios::explore(i, v, None, &[5, local], bounds(), &mut |_| {})
                .expect("registered");
            assert!(!r.truncated && !r.cyclic, "variant {v}");
            assert!(
                r.states < 400_000,
                "variant {v}, knob {local}: {}",
                r.states
            );
        }
    }
}

/// The figure is the channel's meter: 30 in flight against 10, ten from each instance, named
/// with its numbers; where a shared budget leaks, the slots taken by live calls against those
/// a crash leaked.
#[test]
fn the_figure_is_30_against_10_and_then_the_leaked_slots() {
    use effectively_once::sim::FigureBody;
    let t = replay(
        &SemaphoreScope::model(SsVariant::PerInstanceSemaphore, 1),
        &[],
    );
    let fig = t.view(6).figure.clone().expect("a figure");
    let FigureBody::Meter(m) = fig.body else {
        panic!("a meter")
    };
    assert_eq!((m.value, m.limit), (30, 10));
    assert_eq!(
        m.parts.iter().map(|p| p.1).collect::<Vec<_>>(),
        [10, 10, 10]
    );
    assert!(
        fig.name
            .en
            .starts_with("30 calls in flight against the channel's limit of 10"),
        "{}",
        fig.name.en
    );
    assert!(fig.name.zh.starts_with("在途调用 30 个"), "{}", fig.name.zh);
    assert_eq!(fig.shows, [0]);
    // Shared counter: instance 1 claims 10, crashes holding them.
    let m = SemaphoreScope::model(SsVariant::SharedCounter, 1);
    let path = effectively_once::sim::decode_path("02100").0;
    let t = replay(&m, &path);
    let fig = t.view(5).figure.clone().expect("a figure");
    let FigureBody::Meter(meter) = fig.body else {
        panic!("a meter")
    };
    let leaked = meter.parts.iter().find(|p| p.0.en == "leaked").map(|p| p.1);
    assert!(leaked.is_some_and(|n| n > 0), "{:?}", meter.parts);
    assert!(fig.name.en.contains("leaked by a crash"), "{}", fig.name.en);
}

/// Every program gives its slot back when the queue is empty: none of them pays for a job it
/// did not get (`if (!job)` before `channel.pay`).
#[test]
fn no_program_pays_without_a_job() {
    for v in SsVariant::ALL {
        let (name, text) = v.program();
        let check = text
            .find("if (!job)")
            .unwrap_or_else(|| panic!("{name}: no empty-queue check"));
        let pay = text.find("channel.pay(").expect("a payment");
        assert!(check < pay, "{name}: the check comes before the payment");
    }
}

// ---- The programs, run as three real instances against PostgreSQL ----------------------------

// PostgreSQL and the programs run natively; the wasm32 build of the tests leaves them out.
#[cfg(not(target_arch = "wasm32"))]
use crate::common::pg;

#[cfg(not(target_arch = "wasm32"))]
mod run_as_shown {
    use super::*;

    /// The program each variant shows (src/scenarios/semaphore_scope/js/).
    const PROGRAMS: [(&str, &str); 3] = [
        ("per-instance-semaphore", "per-instance.js"),
        ("shared-counter", "shared-counter.js"),
        ("leases", "leases.js"),
    ];

    /// How a run ends as the driver prints it: the most calls the channel held at once (only for
    /// a run without a crash: a crash's timing is the driver's), the jobs by status, and the
    /// shared budget's `in_flight`.
    fn outcome(most: Option<u32>, jobs: [u32; 3], budget: u32) -> String {
        let most = most.map_or(String::new(), |m| format!("\"most_in_flight\":{m},"));
        let [queued, running, done] = jobs;
        format!("{{{most}\"queued\":{queued},\"running\":{running},\"done\":{done},\"budget_in_flight\":{budget}}}")
    }

    /// The model's end of the run that follows `keys` on variant `v`, continued to where nothing
    /// is left to do, in the driver's terms.
    fn model_outcome(v: usize, keys: &[&str], most: bool) -> String {
        let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
        let trace = SemaphoreScope.trace(v, &SemaphoreScope.follow(v, &keys));
        let number = |s: &str| -> u32 {
            s.split(|c: char| !c.is_ascii_digit())
                .find(|w| !w.is_empty())
                .map_or(0, |w| w.parse().unwrap())
        };
        let cell = |step: usize, table: &str, row: &str| -> Option<u32> {
            let view = trace.view(step);
            let t = view.tables.iter().find(|t| t.key == table)?;
            let r = t.rows.iter().find(|r| r.cells[0].en.starts_with(row))?;
            Some(number(&r.cells[1].en))
        };
        let last = trace.steps.len() - 1;
        let held = (0..=last).filter_map(|k| cell(k, "channel", "total")).max();
        let jobs = |status: &str| -> u32 {
            let view = trace.view(last);
            let t = view.tables.iter().find(|t| t.key == "jobs");
            t.map_or(0, |t| {
                t.rows
                    .iter()
                    .filter(|r| r.cells[0].en.starts_with(status))
                    .map(|r| number(&r.cells[1].en))
                    .sum()
            })
        };
        let budget = cell(last, "channel_budget", "psp").unwrap_or(0);
        outcome(
            held.filter(|_| most),
            [jobs("queued"), jobs("running"), jobs("done")],
            budget,
        )
    }

    fn node_outcome(port: u16, file: &str, plan: &str) -> String {
        let driver = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/node/semaphore-driver.mjs"
        );
        let out = std::process::Command::new("node")
            .args([driver, &port.to_string(), file, plan])
            .output()
            .expect("node is installed (.ci/setup)");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{file} {plan}: {stderr}");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// Three instances burst through 30 jobs: 30 calls at once on one channel of 10 with a
    /// semaphore per instance, 10 with the shared budget or the leases; then a crash: the shared
    /// counter leaks the dead process's 10 and the queue never drains, the leases expire and the
    /// other 20 jobs are done. Real Node processes and PostgreSQL end where the model does.
    #[test]
    fn the_programs_run_as_three_instances_and_end_as_the_model_does() {
        let cluster = pg::Cluster::start("semaphore-scope-node");
        let meta = AnyScenario::meta(&SemaphoreScope);
        let burst = [
            "claim-0", "claim-1", "claim-2", "claim-0", "claim-1", "claim-2",
        ];
        let crash = ["claim-0", "claim-0", "crash-0", "orphans-0", "restart-0"];
        for (slug, file) in PROGRAMS {
            let v = meta.variant_index(slug).expect("a variant");
            let got = node_outcome(cluster.port, file, "burst");
            assert_eq!(
                got,
                model_outcome(v, &burst, true),
                "{slug}, burst: Node (left), the model (right)"
            );
            let got = node_outcome(cluster.port, file, "crash");
            let got = got.replace(&got[..got.find("\"queued\"").unwrap_or(1)], "{");
            assert_eq!(
                got,
                model_outcome(v, &crash, false),
                "{slug}, crash: Node (left), the model (right)"
            );
        }
    }
}
