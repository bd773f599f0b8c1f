//! Explores every registered scenario variant and prints states, runs, verdicts and timings.
//! Run with `cargo bench --bench explore`; the numbers go into BENCHMARKS.md. Each time is the
//! median of five runs (a plain harness rather than criterion: one exploration is a single
//! 0.1 ms – 0.3 s call, and criterion's dependency tree would be compiled by every `cargo test`).

use effectively_once::scenarios::{self, DualWrite, DwVariant, OrVariant, OutboxRelay};
use effectively_once::sim::{encode_path, explore, Bounds, Report};
use std::time::Instant;

fn main() {
    println!("| scenario | variant | fault budget | states | runs | time | states/s | verdicts |");
    println!("|---|---|---|---:|---:|---:|---:|---|");
    for (i, s) in scenarios::all().iter().enumerate() {
        let meta = s.meta();
        for (v, variant) in meta.variants.iter().enumerate() {
            let (report, secs) = timed(|| {
                scenarios::explore(i, v, None, Bounds::default(), &mut |_| {}).expect("registered")
            });
            row(meta.slug, variant.slug, variant.fault_budget, &report, secs);
        }
    }
    // The budget the tests pin (2) as well as the player's (3).
    let meta = scenarios::all()[0].meta();
    for (variant, m) in DwVariant::ALL.into_iter().zip(&meta.variants) {
        let model = DualWrite::model(variant, 2);
        let (report, secs) = timed(|| explore(&model, Bounds::default()));
        row(meta.slug, m.slug, 2, &report, secs);
    }
    let meta = scenarios::all()[1].meta();
    for (variant, m) in OrVariant::ALL.into_iter().zip(&meta.variants) {
        if m.fault_budget == 2 {
            continue;
        }
        let model = OutboxRelay::model(variant, 2);
        let (report, secs) = timed(|| explore(&model, Bounds::default()));
        row(meta.slug, m.slug, 2, &report, secs);
    }
}

/// Runs `f` five times; its report and the median wall-clock time in seconds.
fn timed(f: impl Fn() -> Report) -> (Report, f64) {
    let mut times = Vec::new();
    let mut report = None;
    for _ in 0..5 {
        let start = Instant::now();
        report = Some(f());
        times.push(start.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    (report.expect("ran five times"), times[2])
}

fn row(scenario: &str, variant: &str, budget: u8, r: &Report, secs: f64) {
    let verdicts: Vec<String> = r
        .invariants
        .iter()
        .map(|i| match &i.counterexample {
            None => format!("{}: holds in all {} runs", i.name.en, r.runs),
            Some(cx) => format!(
                "{}: violated in {} of {} runs (shortest `{}`)",
                i.name.en,
                i.violating_runs,
                r.runs,
                encode_path(cx)
            ),
        })
        .collect();
    println!(
        "| {scenario} | {variant} | {budget} | {} | {} | {:.2} ms | {:.0} | {} |",
        r.states,
        r.runs,
        secs * 1e3,
        r.states as f64 / secs,
        verdicts.join("; ")
    );
}
