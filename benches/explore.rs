//! Explores every registered scenario variant and prints states, runs, verdicts and timings.
//! Run with `cargo bench --bench explore`; the numbers go into BENCHMARKS.md.

use effectively_once::scenarios::{self, DualWrite, DwVariant, OrVariant, OutboxRelay};
use effectively_once::sim::{encode_path, explore, Bounds};
use std::time::Instant;

fn main() {
    println!("| scenario | variant | fault budget | states | runs | time | states/s | verdicts |");
    println!("|---|---|---|---:|---:|---:|---:|---|");
    for (i, s) in scenarios::all().iter().enumerate() {
        let meta = s.meta();
        for (v, variant) in meta.variants.iter().enumerate() {
            let start = Instant::now();
            let report =
                scenarios::explore(i, v, None, Bounds::default(), &mut |_| {}).expect("registered");
            row(
                meta.slug,
                variant.slug,
                variant.fault_budget,
                &report,
                start.elapsed().as_secs_f64(),
            );
        }
    }
    // The budget the tests pin (2) as well as the player's (3).
    let meta = scenarios::all()[0].meta();
    for (variant, m) in DwVariant::ALL.into_iter().zip(&meta.variants) {
        let model = DualWrite::model(variant, 2);
        let start = Instant::now();
        let report = explore(&model, Bounds::default());
        row(meta.slug, m.slug, 2, &report, start.elapsed().as_secs_f64());
    }
    let meta = scenarios::all()[1].meta();
    for (variant, m) in OrVariant::ALL.into_iter().zip(&meta.variants) {
        if m.fault_budget == 2 {
            continue;
        }
        let start = Instant::now();
        let report = explore(&OutboxRelay::model(variant, 2), Bounds::default());
        row(meta.slug, m.slug, 2, &report, start.elapsed().as_secs_f64());
    }
}

fn row(scenario: &str, variant: &str, budget: u8, r: &effectively_once::sim::Report, secs: f64) {
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
