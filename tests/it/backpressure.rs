//! Backpressure against the seed's arithmetic: 400/s in and 240/s out for 60 s leaves 9,600
//! queued; at 80/s after the peak it drains at the net 160/s in 60 s; 48 slots × 1 / 0.2 s is
//! 240/s. Admission control keeps the wait within the promise for every moment a consumer host
//! can die (exhaustively); consumers that try 400/s against a 120/s channel get 429s and no more
//! throughput than pacing them.

use crate::common::{assert_holds_everywhere, verdict};
use effectively_once::scenarios::{
    Backpressure, BackpressureModel, BpAct, BpState, BpVariant, Rates,
};
use effectively_once::sim::{explore, replay, AnyScenario, Bounds, MetricValue, Model, Status};

const PROMISE: &str = "Orders wait within the promise";
const CHANNEL: &str = "Calls within the payment channel's limit";

fn bounds() -> Bounds {
    Bounds {
        max_depth: 700,
        max_states: 1_000_000,
    }
}

/// The states of the default run (no fault), one per 5 s step.
fn run(m: &BackpressureModel) -> Vec<BpState> {
    let mut s = m.init();
    let mut out = vec![s.clone()];
    let mut acts = Vec::new();
    loop {
        acts.clear();
        m.actions(&s, &mut acts);
        if acts.is_empty() {
            return out;
        }
        s = m.next(&s, &BpAct::Advance);
        out.push(s.clone());
    }
}

fn at(states: &[BpState], t: u32) -> &BpState {
    states.iter().find(|s| s.t == t).expect("a step ends at t")
}

#[test]
fn the_seed_numbers_9600_queued_then_60_s_to_drain_at_160_per_s() {
    let m = Backpressure::model(BpVariant::UnboundedQueue);
    assert_eq!(m.rates, Rates::SEED);
    assert_eq!(m.throughput(false), 240, "48 busy slots × 1 / 0.2 s");
    let states = run(&m);
    let peak = at(&states, 60);
    assert_eq!(peak.queued, 9_600, "(400 − 240) × 60");
    assert_eq!(m.wait(peak), 40, "9,600 ÷ 240/s: a new order waits 40 s");
    assert_eq!(peak.oldest_age(), 24, "the head arrived at 36 s");
    // After the peak the backlog shrinks by 160 every second: 800 per step.
    for t in (65..=120).step_by(5) {
        assert_eq!(at(&states, t).queued, 9_600 - 160 * (t - 60), "at {t} s");
    }
    let last = states.last().expect("a run");
    assert_eq!(last.t, 120, "drained 60 s after the peak: 9,600 ÷ 160/s");
    assert_eq!(last.queued, 0);
    // The oldest order's wait peaks at 40 s, at 100 s, when the last of the peak is taken.
    assert_eq!(at(&states, 100).oldest_age(), 40);
    assert_eq!(last.total.worst_age, 40);
    assert_eq!(last.total.arrived, 400 * 60 + 80 * 60);
    assert_eq!(
        last.total.processed, last.total.arrived,
        "nothing lost, only late"
    );
}

#[test]
fn the_unbounded_queue_breaks_the_promise_at_the_seeds_numbers() {
    let sc = Backpressure;
    let t = sc.trace(0, &[]);
    let first = (0..t.steps.len())
        .find(|&i| verdict(&t, i, PROMISE).status == Status::Violated)
        .expect("the 30 s promise breaks");
    // Age 0.4·t passes 30 s at 75 s: the step that ends at 80 s is the 16th.
    assert_eq!(first, 16);
    let why = &verdict(&t, first, PROMISE).why.en;
    assert!(why.contains("waited 32 s"), "{why}");
    assert_eq!(verdict(&t, t.last(), CHANNEL).status, Status::Holds);
}

#[test]
fn admission_control_keeps_the_wait_bounded_and_says_no_early() {
    let m = Backpressure::model(BpVariant::AdmissionControl);
    let states = run(&m);
    let top = states.iter().map(|s| s.queued).max().unwrap_or(0);
    // An order may join a queue of at most 240/s × 20 s = 4,800; 240 leave in the same second.
    assert_eq!(top, 4_800 - 240);
    let last = states.last().expect("a run");
    assert!(last.total.worst_age <= 20, "{}", last.total.worst_age);
    assert!(last.total.refused > 0);
    assert_eq!(
        last.total.arrived,
        last.total.admitted + last.total.refused,
        "every order is accepted or told no"
    );
    assert_eq!(last.total.processed, last.total.admitted);
    // The same in the player's trace: every invariant holds at every step.
    let t = Backpressure.trace(1, &[]);
    for i in 0..t.steps.len() {
        assert!(t.steps[i]
            .verdicts
            .iter()
            .all(|v| v.status == Status::Holds));
    }
}

#[test]
fn consumers_that_try_400_per_s_get_429s_and_no_more_throughput() {
    let thr = run(&Backpressure::model(BpVariant::ThrottledChannel));
    let paced = run(&Backpressure::model(BpVariant::PacedToChannel));
    let a = at(&thr, 60);
    assert_eq!(
        a.total.processed,
        120 * 60,
        "the channel's 120/s, not 400/s"
    );
    assert_eq!(a.total.calls, 400 * 60, "400 calls every second");
    assert_eq!(a.total.throttled, 280 * 60);
    assert_eq!(a.queued, (400 - 120) * 60, "16,800 behind a 120/s channel");
    let b = at(&paced, 60);
    assert_eq!(b.total.processed, a.total.processed, "pacing loses nothing");
    assert_eq!(b.total.throttled, 0);
    assert_eq!(b.total.peak_calls, 120);
    // Without admission the throttled backlog drains at 120 − 80 = 40/s: 420 s more.
    assert_eq!(thr.last().expect("a run").t, 60 + 16_800 / 40);
    let t = Backpressure.trace(2, &[]);
    assert_eq!(verdict(&t, 1, CHANNEL).status, Status::Violated);
    assert!(verdict(&t, 1, CHANNEL).why.en.contains("400 calls"));
}

#[test]
fn knobs_change_the_arithmetic_exactly() {
    // 500/s for 30 s against 40 slots × 1 / 0.25 s = 160/s: (500 − 160) × 30 = 10,200 queued,
    // then 100/s in: the net 60/s drains it in 170 s.
    let m = BackpressureModel::new(
        BpVariant::UnboundedQueue,
        &[500, 30, 100, 40, 250, 30, 20, 120, 400],
    );
    assert_eq!(m.throughput(false), 160);
    let states = run(&m);
    assert_eq!(at(&states, 30).queued, 10_200);
    assert_eq!(states.last().expect("a run").t, 30 + 170);
    // Out-of-range knobs fall back to the seed's.
    let d = BackpressureModel::new(BpVariant::UnboundedQueue, &[0, 99_999]);
    assert_eq!(d.rates, Rates::SEED);
}

#[test]
fn exploration_proves_the_fixes_for_every_moment_a_consumer_host_dies() {
    let mut states = Vec::new();
    for v in BpVariant::ALL {
        let r = explore(&Backpressure::model(v), bounds());
        assert!(!r.truncated && !r.cyclic, "{v:?}");
        states.push(r.states);
        let broken = r.invariants.iter().any(|i| i.violating_runs > 0);
        assert_eq!(
            broken,
            !matches!(v, BpVariant::AdmissionControl | BpVariant::PacedToChannel),
            "{v:?}"
        );
    }
    assert_eq!(
        states,
        [539, 201, 4_849, 50],
        "distinct states per variant, pinned"
    );
    assert_holds_everywhere(&Backpressure::model(BpVariant::AdmissionControl), bounds());
    assert_holds_everywhere(&Backpressure::model(BpVariant::PacedToChannel), bounds());
}

#[test]
fn a_lost_consumer_host_slows_the_drain() {
    let m = Backpressure::model(BpVariant::UnboundedQueue);
    let s = m.next(&m.init(), &BpAct::LoseConsumers);
    assert_eq!(m.throughput(s.lost), 180, "36 of 48 slots");
    let t = replay(&m, &[1]);
    assert!(t.steps[1].fault);
    assert!(t.steps[1].info.narration.en.contains("from 240/s to 180/s"));
}

/// The curves are the figure, drawn in the timeline's place, named with their numbers.
#[test]
fn the_curves_are_the_figure_and_say_their_numbers() {
    use effectively_once::scenarios;
    use effectively_once::sim::FigureBody;
    let s = scenarios::all()[scenarios::index_of("backpressure").unwrap()];
    let t = s.trace(0, &[]);
    let fig = t.view(12).figure.clone().expect("a figure");
    assert_eq!(fig.body, FigureBody::Plots);
    assert!(
        fig.name.en.contains("9,600 orders are queued"),
        "{}",
        fig.name.en
    );
    assert!(!fig.name.zh.is_empty());
    assert_eq!(fig.shows, [0, 1]);
}

/// The notes' targets (p95 accept under 300 ms, a result within 5 s at normal load) and their
/// capacity line (6 messages × 100,000 orders a day ≈ 600,000, kept 7 days) stand beside the
/// run; the 30 s promise and the 20 s threshold are said to be this scenario's defaults.
#[test]
fn the_notes_targets_and_capacity_line_are_shown_and_ours_are_called_defaults() {
    use effectively_once::scenarios;
    let s = scenarios::all()[scenarios::index_of("backpressure").unwrap()];
    for v in 0..BpVariant::ALL.len() {
        let t = s.trace(v, &[]);
        let view = &t.view(12);
        let table = (view.tables.iter())
            .find(|t| t.key == "targets")
            .expect("the targets table");
        assert!(
            table.reference,
            "tagged as the notes' figures, not as memory"
        );
        let cells = |key: &str| -> Vec<String> {
            let row = table.rows.iter().find(|r| r.key == key).expect(key);
            row.cells.iter().map(|c| c.en.clone()).collect()
        };
        assert_eq!(cells("accept")[1], "< 300 ms");
        assert_eq!(cells("result")[1], "≤ 5 s");
        let oldest = (view.metrics.iter())
            .find(|m| m.name.en == "Oldest waits (s)")
            .map(|m| m.value.clone());
        let Some(MetricValue::Count(age)) = oldest else {
            panic!("the oldest message's age")
        };
        assert_eq!(
            cells("result")[2],
            format!("the oldest order has waited {age} s")
        );
        assert!(cells("promise")[2].ends_with("our defaults"));
        assert_eq!(cells("promise")[2], "30 s, admit under 20 s: our defaults");
        assert_eq!(cells("messages")[1], "6 per order × 100,000 orders");
        assert!(cells("messages")[2].starts_with("≈ 600,000"));
        assert!(cells("kept")[2].starts_with("≈ 4,200,000"));
    }
}

// ---- The programs, run as shown in virtual time ----------------------------------------------

/// The program each variant shows (src/scenarios/backpressure/), its consumers' concurrency
/// (orders in a consumer's hands, not in the queue) and its calls in one second: what a
/// discrete run may differ by from the model's fluid one, which moves a whole second at a time
/// (it admits a second's arrivals before that second's work is done).
const PROGRAMS: [(BpVariant, &str, u32, u32); 4] = [
    (BpVariant::UnboundedQueue, "api.js", 48, 240),
    (BpVariant::AdmissionControl, "api_admission.js", 48, 240),
    (
        BpVariant::ThrottledChannel,
        "consumer_throttled.js",
        80,
        400,
    ),
    (BpVariant::PacedToChannel, "consumer_paced.js", 24, 120),
];

/// The numbers the driver prints every five seconds, from a run of the model.
fn model_curve(v: BpVariant) -> Vec<[i64; 8]> {
    let m = BackpressureModel::new(v, &[]);
    let step = |s: &BpState| {
        let t = &s.total;
        [
            s.t,
            s.queued,
            s.oldest_age(),
            t.arrived,
            t.refused,
            t.processed,
            t.calls,
            t.throttled,
        ]
        .map(i64::from)
    };
    run(&m).iter().skip(1).map(step).collect()
}

/// Runs `file` in virtual time with the seed's arrivals and a channel of `channel` calls a
/// second until `end`, and compares every five seconds with `want`.
fn compare(
    file: &str,
    hands: u32,
    per_second: u32,
    channel: u32,
    want: &[[i64; 8]],
) -> Result<(), String> {
    let r = Rates::SEED;
    let end = want.last().expect("a step")[0];
    let args = [r.peak_in, r.peak_s, r.after_in, channel, end as u32].map(|n| n.to_string());
    let driver = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/node/backpressure-driver.mjs"
    );
    let out = std::process::Command::new("node")
        .arg(driver)
        .arg(file)
        .args(&args)
        .output()
        .expect("node is installed (.ci/setup)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let got: Vec<[i64; 8]> = stdout.lines().map(numbers).collect();
    assert_eq!(got.len(), want.len(), "{file}: one line per step");
    for (g, w) in got.iter().zip(want) {
        // Totals drift by a percent over minutes of discrete calls.
        let near = |i: usize, slack: u32| (g[i] - w[i]).abs() <= i64::from(slack) + w[i] / 100;
        let flow = hands + per_second;
        let ok = g[0] == w[0]
            && g[3] == w[3]
            && near(2, 2)
            && [1, 4, 5, 6, 7].iter().all(|&i| near(i, flow));
        if !ok {
            return Err(format!("{file} at {} s: Node {g:?}, the model {w:?} (t, queued, age, arrived, refused, processed, calls, throttled)", w[0]));
        }
    }
    Ok(())
}

/// Every five seconds of the model's default run, the real program in virtual time shows the
/// same queue, the same oldest age and the same totals, up to what a discrete run cannot share
/// with a fluid one: the orders in the consumers' hands and one second's flow (and a percent
/// of a total), two seconds of age.
#[test]
fn the_programs_run_as_shown_and_draw_the_models_curves() {
    for (v, file, hands, per_second) in PROGRAMS {
        let want = model_curve(v);
        compare(file, hands, per_second, Rates::SEED.channel, &want)
            .unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn a_program_that_drains_at_another_rate_draws_another_curve() {
    let want = model_curve(BpVariant::PacedToChannel);
    assert!(compare("consumer_paced.js", 24, 120, 100, &want).is_err());
}

/// The numbers of one line of the driver's JSON, in its key order.
fn numbers(line: &str) -> [i64; 8] {
    let mut out = [0; 8];
    let values = line.split(':').skip(1).map(|v| {
        let v = v.trim_end_matches('}');
        v.split(',')
            .next()
            .unwrap_or("")
            .parse::<i64>()
            .expect("a number")
    });
    for (o, v) in out.iter_mut().zip(values) {
        *o = v;
    }
    out
}
