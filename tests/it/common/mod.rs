//! Helpers shared by the scenario tests.
#![allow(dead_code)]

// PostgreSQL runs natively; the wasm32 build of the tests leaves it out.
#[cfg(not(target_arch = "wasm32"))]
pub mod pg;

use effectively_once::sim::{explore, replay, Bounds, Model, Replayable, Trace, Verdict};

/// The English cells of table `key` at `step`, row by row.
pub fn table(trace: &Trace, step: usize, key: &str) -> Vec<Vec<String>> {
    let view = trace.view(step);
    let t = view
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
pub fn by_labels<M: Replayable>(model: &M, labels: &[&str]) -> Vec<u8> {
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

/// Explores `model` completely (default bounds; a cut-short or cyclic graph fails) and returns
/// its number of distinct states and, per invariant in order, whether any run breaks it.
pub fn explored<M: Model>(model: &M) -> (usize, Vec<bool>) {
    let report = explore(model, Bounds::default());
    assert!(!report.truncated && !report.cyclic, "explored completely");
    let broken = report.invariants.iter().map(|i| i.violating_runs > 0);
    (report.states, broken.collect())
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

/// Every maximal run of `m` within its fault budget, as action keys, sorted; `narrow` may drop
/// some of the actions offered in a state (the runs a real program can take).
pub fn every_run<M: Model>(m: &M, narrow: impl Fn(&mut Vec<M::Act>)) -> Vec<Vec<String>> {
    use effectively_once::sim::action_key;
    let mut out = Vec::new();
    let mut stack = vec![(m.init(), 0u8, Vec::<String>::new())];
    while let Some((s, faults, keys)) = stack.pop() {
        let mut acts = Vec::new();
        m.actions(&s, &mut acts);
        acts.retain(|a| faults < m.fault_budget() || !m.is_fault(a));
        narrow(&mut acts);
        if acts.is_empty() {
            out.push(keys);
            continue;
        }
        for a in acts {
            let mut keys = keys.clone();
            keys.push(action_key(&a));
            stack.push((m.next(&s, &a), faults + u8::from(m.is_fault(&a)), keys));
        }
    }
    out.sort();
    out
}

/// Runs a driver of the listings (`program args…`, under Node or Python) with `input` on its
/// stdin; holds that it succeeded and returns its stdout, a line each. `installed` says what
/// must be installed for it to start.
pub fn driver(program: &str, args: &[&str], input: &str, installed: &str) -> Vec<String> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect(installed);
    // Closing stdin (the end of this block) ends the driver's input.
    {
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(input.as_bytes()).expect("write the runs");
    }
    let out = child.wait_with_output().expect("the driver ran");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let tail: Vec<&str> = stdout.lines().rev().take(3).collect();
    assert!(out.status.success(), "{args:?}: {stderr}\n{tail:?}");
    stdout.lines().map(String::from).collect()
}
