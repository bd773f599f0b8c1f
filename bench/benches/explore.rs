//! Exhaustive exploration of every registered scenario variant: first a table of states, runs
//! and verdicts (one exploration each), then criterion's measurement of each exploration with
//! its throughput in states per second. Run with `cargo bench -p effectively-once-bench`; the
//! numbers go into BENCHMARKS.md.
//!
//! Two fault budgets are measured: each variant's player budget (what the explorer panel runs)
//! and budget 2, which the native tests pin.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use effectively_once::scenarios;
use effectively_once::sim::{encode_path, Bounds, Report};
use std::time::Duration;

/// (scenario index, variant index, fault budget) for every measured exploration.
fn cases() -> Vec<(usize, usize, u8)> {
    let mut cases = Vec::new();
    for (i, s) in scenarios::all().iter().enumerate() {
        for (v, variant) in s.meta().variants.iter().enumerate() {
            cases.push((i, v, variant.fault_budget));
            if variant.fault_budget > 2 {
                cases.push((i, v, 2));
            }
        }
    }
    cases
}

fn explore(i: usize, v: usize, budget: u8) -> Report {
    scenarios::explore(i, v, Some(budget), &[], Bounds::default(), &mut |_| {})
        .expect("a registered scenario")
}

fn name(i: usize, v: usize) -> String {
    let meta = scenarios::all()[i].meta();
    format!("{}/{}", meta.slug, meta.variants[v].slug)
}

fn table(cases: &[(usize, usize, u8)]) {
    println!("| scenario/variant | fault budget | states | runs | verdicts |");
    println!("|---|---:|---:|---:|---|");
    for &(i, v, budget) in cases {
        let r = explore(i, v, budget);
        let verdicts: Vec<String> = r
            .invariants
            .iter()
            .map(|inv| match &inv.counterexample {
                None => format!("{}: holds in all {} runs", inv.name.en, r.runs),
                Some(cx) => format!(
                    "{}: violated in {} of {} runs (shortest `{}`)",
                    inv.name.en,
                    inv.violating_runs,
                    r.runs,
                    encode_path(cx)
                ),
            })
            .collect();
        println!(
            "| {} | {budget} | {} | {} | {} |",
            name(i, v),
            r.states,
            r.runs,
            verdicts.join("; ")
        );
    }
    println!();
}

fn bench(c: &mut Criterion) {
    let cases = cases();
    table(&cases);
    let mut group = c.benchmark_group("explore");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    for &(i, v, budget) in &cases {
        let states = explore(i, v, budget).states;
        group.throughput(Throughput::Elements(states as u64));
        group.bench_with_input(
            BenchmarkId::new(name(i, v), format!("budget-{budget}")),
            &(i, v, budget),
            |b, &(i, v, budget)| b.iter(|| explore(i, v, budget)),
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
