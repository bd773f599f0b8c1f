//! Helpers shared by the scenario tests.
#![allow(dead_code)]

use effectively_once::sim::{explore, replay, Bounds, Model, Present, Trace, Verdict};

/// The English cells of table `key` at `step`, row by row.
pub fn table(trace: &Trace, step: usize, key: &str) -> Vec<Vec<String>> {
    let t = trace.steps[step]
        .view
        .tables
        .iter()
        .find(|t| t.key == key)
        .unwrap_or_else(|| panic!("no table {key}"));
    t.rows
        .iter()
        .map(|r| r.cells.iter().map(|c| c.en.clone()).collect())
        .collect()
}

/// The path that takes, step by step, the choice with each English label.
pub fn by_labels<M: Present>(model: &M, labels: &[&str]) -> Vec<u8> {
    let mut path = Vec::new();
    for label in labels {
        let trace = replay(model, &path);
        let step = &trace.steps[path.len()];
        let choice = step
            .choices
            .iter()
            .find(|c| c.label.en == *label)
            .unwrap_or_else(|| {
                let offered: Vec<_> = step.choices.iter().map(|c| c.label.en.clone()).collect();
                panic!("step {} offers no '{label}', only {offered:?}", path.len())
            });
        path.push(choice.index);
    }
    path
}

pub fn verdict<'t>(trace: &'t Trace, step: usize, name: &str) -> &'t Verdict {
    trace.steps[step]
        .verdicts
        .iter()
        .find(|v| v.name.en == name)
        .unwrap_or_else(|| panic!("no invariant '{name}'"))
}

/// Exhaustive exploration finds no violation of any invariant, and covered everything.
pub fn assert_holds_everywhere<M: Model>(model: &M, bounds: Bounds) {
    let report = explore(model, bounds);
    assert!(!report.truncated, "the bounds cut exploration short");
    assert!(!report.cyclic);
    assert!(report.runs > 0);
    for inv in &report.invariants {
        assert_eq!(
            (inv.violating_states, inv.violating_runs),
            (0, 0),
            "'{}' is violated; shortest counterexample {:?}",
            inv.name.en,
            inv.counterexample
        );
    }
}

/// A small deterministic generator for the fuzz tests (no dependency, same sequence everywhere).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}
