//! The engine on a toy model whose numbers can be checked by hand, plus determinism, bad paths,
//! a sweep of pseudo-random paths over every registered scenario, and the layering rule.

use effectively_once::scenarios;
use effectively_once::sim::{
    action_key, decode_path, encode_path, explore, replay, Bounds, InvKind, Invariant, Model,
    Present, StateView, Status, StepInfo, Text,
};

/// Two counters, each incremented up to 2 by its own action; a fault resets `a` to 0 once.
/// "a below 2" is broken whenever a reaches 2; "b reaches 2" is an eventually property.
#[derive(Clone)]
struct Toy {
    faults: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct ToyState {
    a: u8,
    b: u8,
}

#[derive(Clone, Debug, PartialEq)]
enum ToyAct {
    IncA,
    IncB,
    ResetA,
}

impl Model for Toy {
    type State = ToyState;
    type Act = ToyAct;

    fn init(&self) -> ToyState {
        ToyState { a: 0, b: 0 }
    }

    fn actions(&self, s: &ToyState, out: &mut Vec<ToyAct>) {
        if s.a < 2 {
            out.push(ToyAct::IncA);
        }
        if s.b < 2 {
            out.push(ToyAct::IncB);
        }
        if s.a > 0 {
            out.push(ToyAct::ResetA);
        }
    }

    fn is_fault(&self, a: &ToyAct) -> bool {
        *a == ToyAct::ResetA
    }

    fn fault_budget(&self) -> u8 {
        self.faults
    }

    fn next(&self, s: &ToyState, a: &ToyAct) -> ToyState {
        let mut n = s.clone();
        match a {
            ToyAct::IncA => n.a += 1,
            ToyAct::IncB => n.b += 1,
            ToyAct::ResetA => n.a = 0,
        }
        n
    }

    fn invariants(&self) -> Vec<Invariant<ToyState>> {
        vec![
            Invariant {
                name: Text::same("a below 2"),
                kind: InvKind::Always,
                holds: Text::same("a < 2"),
                check: |s| (s.a >= 2).then(|| Text::same(format!("a is {}", s.a))),
                rows: |_| Vec::new(),
            },
            Invariant {
                name: Text::same("b reaches 2"),
                kind: InvKind::Eventually,
                holds: Text::same("b = 2"),
                check: |s| (s.b < 2).then(|| Text::same(format!("b is {}", s.b))),
                rows: |_| Vec::new(),
            },
        ]
    }
}

impl Present for Toy {
    fn label(&self, _: &ToyState, a: &ToyAct) -> Text {
        Text::same(format!("{a:?}"))
    }

    fn view(&self, _: &ToyState) -> StateView {
        StateView {
            lanes: Vec::new(),
            tables: Vec::new(),
            metrics: Vec::new(),
            code: None,
            tree: Vec::new(),
            chart: None,
            plots: Vec::new(),
            figure: None,
        }
    }

    fn describe(&self, _: &ToyState, a: &ToyAct, _: &ToyState) -> StepInfo {
        StepInfo {
            title: Text::same(format!("{a:?}")),
            ..StepInfo::default()
        }
    }

    fn intro(&self) -> Text {
        Text::same("toy")
    }
}

#[test]
fn explorer_counts_match_a_hand_count() {
    // Without faults: a 3×3 grid of (a, b) states; runs are the interleavings of two IncA and
    // two IncB, C(4, 2) = 6; all of them reach a = 2.
    let r = explore(&Toy { faults: 0 }, Bounds::default());
    assert_eq!((r.states, r.runs, r.quiet_states), (9, 6, 1));
    assert_eq!(r.invariants[0].violating_runs, 6);
    assert_eq!(
        r.invariants[0].counterexample,
        Some(vec![0, 0]),
        "IncA twice is shortest"
    );
    assert_eq!(r.invariants[1].violating_runs, 0);
}

/// The toy with its fault listed before its progress actions.
struct FaultFirst(Toy);

impl Model for FaultFirst {
    type State = ToyState;
    type Act = ToyAct;
    fn init(&self) -> ToyState {
        self.0.init()
    }
    fn actions(&self, s: &ToyState, out: &mut Vec<ToyAct>) {
        self.0.actions(s, out);
        out.sort_by_key(|a| !self.0.is_fault(a));
    }
    fn is_fault(&self, a: &ToyAct) -> bool {
        self.0.is_fault(a)
    }
    fn fault_budget(&self) -> u8 {
        self.0.fault_budget()
    }
    fn next(&self, s: &ToyState, a: &ToyAct) -> ToyState {
        self.0.next(s, a)
    }
    fn invariants(&self) -> Vec<Invariant<ToyState>> {
        self.0.invariants()
    }
}

#[test]
fn the_engine_keeps_the_fault_budget_and_offers_faults_last() {
    // One reset: (a, b) × {reset taken or not}, minus the states a reset cannot reach.
    let one = explore(&Toy { faults: 1 }, Bounds::default());
    let none = explore(&Toy { faults: 0 }, Bounds::default());
    assert!(one.states > none.states && one.runs > none.runs);
    // Two resets reach more: the budget, not the model, stops the second.
    assert!(explore(&Toy { faults: 2 }, Bounds::default()).states > one.states);
    // A model that lists its fault first is offered progress first all the same: the same
    // states, runs and shortest counterexamples, choice for choice.
    assert_eq!(
        explore(&FaultFirst(Toy { faults: 1 }), Bounds::default()),
        one
    );
    // Once spent, the reset is no longer offered: IncA, reset, IncA offers IncA and IncB only.
    let t = replay(&Toy { faults: 1 }, &[0, 2, 0]);
    assert_eq!(t.steps[1].choices.len(), 3);
    assert!(t.steps[3].choices.iter().all(|c| !c.fault));
}

#[test]
fn depth_bounds_truncate_and_say_so() {
    let r = explore(
        &Toy { faults: 1 },
        Bounds {
            max_depth: 2,
            max_states: 1000,
        },
    );
    assert!(r.truncated);
    let r = explore(
        &Toy { faults: 1 },
        Bounds {
            max_depth: 64,
            max_states: 5,
        },
    );
    assert!(r.truncated);
    assert_eq!(r.states, 5);
}

#[test]
fn eventually_is_pending_until_quiet_then_violated() {
    // IncA, IncA, then nothing of b: b's actions stay enabled, so b is only ever pending.
    let t = replay(&Toy { faults: 0 }, &[0, 0]);
    assert_eq!(
        t.path,
        vec![0, 0, 0, 0],
        "the default continuation finishes the run"
    );
    assert_eq!(t.steps[1].verdicts[1].status, Status::Pending);
    assert_eq!(t.steps[4].verdicts[1].status, Status::Holds);
    // Always: broken at step 2, sticky afterwards, caused there (no fault before it).
    let a = &t.steps[4].verdicts[0];
    assert_eq!(
        (a.status, a.since, a.cause),
        (Status::Violated, Some(2), Some(2))
    );
}

#[test]
fn invalid_paths_replay_as_far_as_they_are_valid() {
    let toy = Toy { faults: 1 };
    // Step 2 (a = 2, b = 0) offers IncB and ResetA: index 5 does not exist.
    let t = replay(&toy, &[0, 0, 5, 0]);
    let err = t.error.expect("an error");
    assert_eq!(err.at, 2);
    assert_eq!(t.given, 2);
    assert_eq!(err.reason.en, "step 2 offers 2 choices, not choice 6");
    let t = replay(&Toy { faults: 0 }, &[0, 0, 0, 0, 0]);
    assert_eq!(
        t.error.expect("an error").reason.en,
        "the run is over at step 4"
    );
    assert_eq!(t.steps.len(), t.path.len() + 1);
}

#[test]
fn replay_is_deterministic_and_paths_round_trip() {
    for s in scenarios::all() {
        for v in 0..s.meta().variants.len() {
            let a = s.trace(v, &[]);
            let b = s.trace(v, &decode_path(&encode_path(&a.path)).0);
            assert!(
                a.steps == b.steps && a.path == b.path,
                "{} variant {v}",
                s.meta().slug
            );
            assert_eq!(s.trace(v, &[]), a, "the same path gives the same trace");
            // Equal traces are equal without drawing their views: hold the views equal too.
            for t in 0..=a.last() {
                assert_eq!(
                    a.view(t),
                    b.view(t),
                    "{} variant {v} step {t}",
                    s.meta().slug
                );
            }
        }
    }
}

/// Pseudo-random paths (a fixed LCG, so the sweep is the same every time), including indices
/// past the end of each step's choices: nothing panics, and every trace is well formed.
#[test]
fn seed_sweep_never_panics() {
    let mut seed: u64 = 0x5eed;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as u8
    };
    for s in scenarios::all() {
        for v in 0..s.meta().variants.len() {
            for _ in 0..300 {
                let len = next() % 40;
                let path: Vec<u8> = (0..len).map(|_| next() % 6).collect();
                let t = s.trace(v, &path);
                assert_eq!(t.steps.len(), t.path.len() + 1);
                assert!(t.given <= path.len());
                assert_eq!(&t.path[..t.given], &path[..t.given]);
                let last = &t.steps[t.last()];
                assert!(last.quiet || t.path.len() >= effectively_once::sim::MAX_STEPS);
                // Every choice has a word of its own, and the words replay the run.
                for step in &t.steps {
                    let keys: Vec<&str> = step.choices.iter().map(|c| c.key.as_str()).collect();
                    for (i, k) in keys.iter().enumerate() {
                        assert!(is_word(k) && !keys[..i].contains(k), "{k} in {keys:?}");
                    }
                }
                assert_eq!(s.follow(v, &t.keys()), t.path);
            }
        }
    }
}

fn is_word(k: &str) -> bool {
    !k.is_empty()
        && !k.starts_with('-')
        && !k.ends_with('-')
        && !k.contains("--")
        && k.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

#[test]
fn an_action_s_key_is_its_name_in_kebab_case() {
    #[derive(Debug)]
    #[allow(dead_code)]
    enum Act {
        SvcCrash,
        Exec(u8),
        RelayMarkSent(u8),
        Deliver { to: u8, copy: bool },
    }
    let keys = [
        Act::SvcCrash,
        Act::Exec(1),
        Act::RelayMarkSent(0),
        Act::Deliver { to: 2, copy: true },
    ]
    .map(|a| action_key(&a));
    assert_eq!(
        keys,
        [
            "svc-crash",
            "exec-1",
            "relay-mark-sent-0",
            "deliver-to-2-copy-true"
        ]
    );
}

/// Every registered scenario's explorer run completes, acyclic, within default bounds.
#[test]
fn every_registered_variant_explores_completely() {
    for (i, s) in scenarios::all().iter().enumerate() {
        for v in 0..s.meta().variants.len() {
            let r = scenarios::explore(i, v, None, &[], Bounds::default(), &mut |_| {})
                .expect("every scenario explores");
            assert!(!r.truncated && !r.cyclic, "{} variant {v}", s.meta().slug);
            let all = s.meta();
            let meta = &all.variants[v];
            // Something to explore: faults, or interleavings alone.
            assert!(meta.fault_budget > 0 || r.runs > 1);
            if let Some(fix) = meta.fixed_by {
                let by = all.variants.iter().find(|m| m.slug == fix);
                assert!(by.is_some_and(|m| m.fixed), "{fix} must be a fixed variant");
            }
            assert_eq!(
                meta.fixed_by.is_none(),
                meta.fixed,
                "every mistake names its fix"
            );
            let fixed = s.meta().variants[v].fixed;
            let broken = r.invariants.iter().any(|i| i.violating_runs > 0);
            assert_eq!(
                broken,
                !fixed,
                "{} {}: a fix must hold, a mistake must break",
                s.meta().slug,
                s.meta().variants[v].slug
            );
        }
    }
}
