//! Retry layering: the seed's 27, attempts^layers across the knobs, Temporal's backoff, and
//! exhaustive proofs of the fixes over every sequence of downstream outcomes.

use effectively_once::scenarios::{
    self, Behaviour, Effect, End, Outcome, RetryLayers, RetryLayersModel, RlVariant,
};
use effectively_once::sim::{self, AnyScenario, Bounds, Model, Status};

const EVERY: usize = 0;

/// Knobs: layers, attempts, behaviour (0 slow, 1 times out, 2 fails k), k, deadline s, seed.
fn knobs(layers: u32, attempts: u32, behaviour: u32) -> Vec<u32> {
    vec![layers, attempts, behaviour, 2, 120, 1701]
}

fn final_state(v: RlVariant, k: &[u32]) -> effectively_once::scenarios::RlState {
    let m = RetryLayersModel::new(v, k);
    let mut s = m.init();
    let mut acts = Vec::new();
    for _ in 0..10_000 {
        acts.clear();
        m.actions(&s, &mut acts);
        let Some(a) = acts.first() else { return s };
        s = m.next(&s, a);
    }
    panic!("no end");
}

#[test]
fn three_layers_of_three_attempts_make_27_calls() {
    for behaviour in [0, 1] {
        let s = final_state(RlVariant::EveryLayerRetries, &knobs(3, 3, behaviour));
        assert_eq!(s.calls, 27, "behaviour {behaviour}");
        assert_eq!(s.end, Some(End::GaveUp));
    }
    // Slow success without a key: every call is a refund.
    let s = final_state(RlVariant::EveryLayerRetries, &knobs(3, 3, 0));
    assert_eq!(s.refunds, 27);
    // Always times out: nothing is executed at all.
    let s = final_state(RlVariant::EveryLayerRetries, &knobs(3, 3, 1));
    assert_eq!(s.refunds, 0);
}

#[test]
fn the_call_count_is_attempts_to_the_power_of_layers() {
    for layers in 1..=4u32 {
        for attempts in 1..=5u32 {
            for v in [RlVariant::EveryLayerRetries, RlVariant::IdempotencyKey] {
                let s = final_state(v, &knobs(layers, attempts, 1));
                assert_eq!(s.calls, attempts.pow(layers), "{v:?} {attempts}^{layers}");
            }
            // The same through the player's trace: one step per call.
            let t = RetryLayers.trace_with(EVERY, &knobs(layers, attempts, 1), &[]);
            assert_eq!(t.last() as u32, attempts.pow(layers));
            assert!(t.steps[t.last()].quiet);
        }
    }
}

#[test]
fn temporal_defaults_back_off_by_the_documented_formula() {
    // One layer (the workflow engine alone), a provider that refuses fast: only the activity's
    // retries are left, bounded by a 600 s Schedule-To-Close.
    let s = final_state(RlVariant::TemporalDefaults, &[1, 3, 2, 30, 600, 1701]);
    let waits: Vec<u32> = s
        .spans
        .iter()
        .filter(|r| r.kind == effectively_once::scenarios::SpanKind::Backoff)
        .map(|r| r.end - r.start)
        .collect();
    // initial 1 s, coefficient 2.0, max interval 100 × initial; attempts unlimited.
    let formula = |n: u32| (1_000u32 << (n - 1).min(20)).min(100_000);
    assert!(waits.len() >= 9, "{waits:?}");
    for (i, w) in waits.iter().enumerate() {
        assert_eq!(*w, formula(i as u32 + 1), "wait after attempt {}", i + 1);
    }
    assert_eq!(
        waits[..9],
        [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 100_000, 100_000]
    );
    assert_eq!(s.end, Some(End::Deadline));
    assert!(
        s.log.iter().all(|c| c.start < 600_000),
        "no call after the deadline"
    );
    // With three layers the activity still backs off by the formula between its attempts.
    let s = final_state(RlVariant::TemporalDefaults, &knobs(3, 3, 1));
    let outer: Vec<u32> = s
        .spans
        .iter()
        .filter(|r| r.layer == 0 && r.kind == effectively_once::scenarios::SpanKind::Backoff)
        .map(|r| r.end - r.start)
        .collect();
    assert!(!outer.is_empty());
    for (i, w) in outer.iter().enumerate() {
        assert_eq!(*w, formula(i as u32 + 1));
    }
    assert!(
        s.calls > 3,
        "unlimited attempts exceed the budget: {}",
        s.calls
    );
    assert_eq!(s.end, Some(End::Deadline));
}

#[test]
fn each_fix_alone_repairs_one_invariant_and_both_repair_both() {
    let calls = "downstream calls within budget";
    let once = "refund executed at most once";
    // (variant, calls, refunds, calls within budget, refund at most once) on the default knobs:
    // 3 layers × 3 attempts and a slow provider (it refunds, then answers late).
    let expect = [
        (
            RlVariant::EveryLayerRetries,
            27,
            27,
            Status::Violated,
            Status::Violated,
        ),
        (
            RlVariant::OneRetryAuthority,
            3,
            3,
            Status::Holds,
            Status::Violated,
        ),
        (
            RlVariant::IdempotencyKey,
            27,
            1,
            Status::Violated,
            Status::Holds,
        ),
        (RlVariant::BothFixes, 3, 1, Status::Holds, Status::Holds),
    ];
    for (i, (v, c, r, vc, vr)) in expect.into_iter().enumerate() {
        let index = [0, 1, 2, 4][i];
        let t = RetryLayers.trace_with(index, &[], &[]);
        let last = t.last();
        let s = final_state(v, &[]);
        assert_eq!((s.calls, s.refunds), (c, r), "{v:?}");
        let status = |name: &str| {
            t.steps[last]
                .verdicts
                .iter()
                .find(|x| x.name.en == name)
                .map(|x| x.status)
        };
        assert_eq!(status(calls), Some(vc), "{v:?}");
        assert_eq!(status(once), Some(vr), "{v:?}");
        // The counter on screen says the same.
        let shown = |name: &str| {
            t.view(last)
                .metrics
                .iter()
                .find(|m| m.name.en == name)
                .and_then(|m| m.value.at(last))
        };
        assert_eq!(shown("downstream calls"), Some(c));
        assert_eq!(shown("refunds executed"), Some(r));
    }
    // The key: every later call is a replay of the saved result (Stripe API v1 semantics).
    let s = final_state(RlVariant::IdempotencyKey, &[]);
    let replays = s
        .log
        .iter()
        .filter(|c| c.effect == Effect::Replayed)
        .count();
    assert_eq!(replays, 26);
    assert_eq!(s.log[0].effect, Effect::Refunded(1));
}

#[test]
fn fails_k_times_then_succeeds_stops_every_layer() {
    let s = final_state(RlVariant::EveryLayerRetries, &knobs(3, 3, 2));
    assert_eq!(s.calls, 3, "two 503s, then an answer");
    assert_eq!(s.end, Some(End::Succeeded));
    assert_eq!(s.refunds, 1);
    // k beyond the inner layer's attempts: the graph framework retries, the SDK starts over.
    let s = final_state(RlVariant::EveryLayerRetries, &[3, 3, 2, 4, 120, 1701]);
    assert_eq!((s.calls, s.attempt.clone()), (5, vec![1, 2, 2]));
}

#[test]
fn jitter_comes_from_the_seed_so_a_link_replays_identically() {
    let a = RetryLayersModel::new(RlVariant::OneRetryAuthority, &[]);
    let b = RetryLayersModel::new(RlVariant::OneRetryAuthority, &[3, 3, 0, 2, 120, 7]);
    let waits = |m: &RetryLayersModel| (1..=4).map(|n| m.backoff_ms(0, n)).collect::<Vec<_>>();
    assert_eq!(waits(&a), waits(&a.clone()));
    assert_ne!(waits(&a), waits(&b), "another seed, other waits");
    for m in [&a, &b] {
        for n in 1..=4 {
            let full = (1_000u32 << (n - 1)).min(30_000);
            let w = m.backoff_ms(0, n);
            assert!(
                (full / 2..=full).contains(&w),
                "equal jitter: {w} of {full}"
            );
        }
    }
    let t1 = RetryLayers.trace_with(1, &[], &[]);
    let t2 = RetryLayers.trace_with(1, &[], &[]);
    assert_eq!(t1, t2);
}

#[test]
fn the_retry_authority_stops_at_its_deadline() {
    // Five attempts would need more than 10 s: the authority stops instead of starting late.
    let s = final_state(RlVariant::OneRetryAuthority, &[3, 5, 1, 2, 10, 1701]);
    assert_eq!(s.end, Some(End::Deadline));
    assert!(s.calls < 5);
    assert!(s.log.iter().all(|c| c.end <= 10_000), "{:?}", s.log);
}

fn bounds() -> Bounds {
    Bounds {
        max_depth: 700,
        max_states: 2_000_000,
    }
}

#[test]
fn exploration_proves_the_fixes_over_every_sequence_of_outcomes() {
    // (variant index, distinct states, runs, runs over budget, runs with two refunds)
    let mut got = Vec::new();
    for (i, v) in RlVariant::ALL.into_iter().enumerate() {
        let m = RetryLayersModel::new(v, &[]);
        let r = sim::explore(&m, bounds());
        assert!(!r.truncated && !r.cyclic, "{v:?}");
        let (calls, once) = (&r.invariants[0], &r.invariants[1]);
        println!(
            "{v:?}: {} states, {} runs, over budget {}, two refunds {}",
            r.states, r.runs, calls.violating_runs, once.violating_runs
        );
        got.push((
            i,
            r.states,
            r.runs,
            calls.violating_runs,
            once.violating_runs,
        ));
        // Every counterexample really breaks its invariant when replayed.
        for inv in &r.invariants {
            if let Some(cx) = &inv.counterexample {
                let t = sim::replay(&m, cx);
                let verdict = t.steps[cx.len()]
                    .verdicts
                    .iter()
                    .find(|x| x.name == inv.name)
                    .map(|x| x.status);
                assert_eq!(verdict, Some(Status::Violated), "{v:?} {}", inv.name.en);
            }
        }
        // The explorer through the registry agrees.
        let via = scenarios::explore(
            scenarios::index_of("retry-layers").expect("registered"),
            i,
            None,
            &[],
            bounds(),
            &mut |_| {},
        )
        .map(|r| r.states);
        assert_eq!(via, Some(r.states));
    }
    let states: Vec<usize> = got.iter().map(|g| g.1).collect();
    assert_eq!(
        states,
        [7714, 30, 1162, 8829, 22],
        "distinct states, pinned"
    );
    let over = |i: usize| got[i].3;
    let twice = |i: usize| got[i].4;
    assert_eq!(over(1), 0, "one retry authority never exceeds its budget");
    assert!(
        twice(1) > 0,
        "but without a key a slow provider refunds twice"
    );
    assert_eq!(
        twice(2),
        0,
        "the idempotency key never executes two refunds"
    );
    assert!(over(2) > 0, "but the load is still 27 calls");
    assert_eq!((over(4), twice(4)), (0, 0), "both fixes hold both");
    assert!(over(0) > 0 && twice(0) > 0 && over(3) > 0);
}

#[test]
fn the_fixes_hold_across_the_knob_range() {
    for layers in 1..=4 {
        for attempts in 1..=5 {
            let k = knobs(layers, attempts, 0);
            let m = RetryLayersModel::new(RlVariant::BothFixes, &k);
            let r = sim::explore(&m, bounds());
            assert!(!r.truncated, "{layers} × {attempts}");
            for inv in &r.invariants {
                assert_eq!(
                    inv.violating_runs, 0,
                    "{layers} × {attempts}: {}",
                    inv.name.en
                );
            }
            let m = RetryLayersModel::new(RlVariant::OneRetryAuthority, &k);
            let r = sim::explore(&m, bounds());
            assert!(!r.truncated);
            assert_eq!(r.invariants[0].violating_runs, 0, "{layers} × {attempts}");
        }
    }
    // The key alone, over every outcome, for the layered stacks small enough to enumerate.
    for (layers, attempts) in [(1, 5), (2, 3), (3, 2), (3, 3)] {
        let m = RetryLayersModel::new(RlVariant::IdempotencyKey, &knobs(layers, attempts, 0));
        let r = sim::explore(&m, bounds());
        assert!(!r.truncated, "{layers} × {attempts}");
        assert_eq!(r.invariants[1].violating_runs, 0, "{layers} × {attempts}");
    }
}

#[test]
fn outcomes_are_offered_with_the_behaviours_first() {
    let m = RetryLayersModel::new(RlVariant::EveryLayerRetries, &knobs(3, 3, 1));
    let mut acts = Vec::new();
    m.actions(&m.init(), &mut acts);
    assert_eq!(acts[0], Outcome::NoAnswer);
    assert_eq!(acts.len(), 4);
    assert!(acts.iter().all(|a| !m.is_fault(a)));
    let _ = Behaviour::ALL;
}

#[test]
fn the_players_explorer_covers_every_variant_within_its_default_bounds() {
    for i in 0..RlVariant::ALL.len() {
        let r = scenarios::explore(
            scenarios::index_of("retry-layers").expect("registered"),
            i,
            None,
            &[],
            Bounds::default(),
            &mut |_| {},
        )
        .expect("registered");
        assert!(!r.truncated, "variant {i} is cut by the default bounds");
    }
}

/// The figure is the multiplication itself: 3 → 9 → 27 attempts lit as the calls happen, its
/// name saying the numbers; one retry authority stays at 3.
#[test]
fn the_figure_multiplies_3_by_3_by_3() {
    use effectively_once::scenarios;
    use effectively_once::sim::FigureBody;
    let s = scenarios::all()[scenarios::index_of("retry-layers").unwrap()];
    let tree = |variant: usize, step: Option<usize>| {
        let t = s.trace(variant, &[]);
        let f = t.view(step.unwrap_or(t.last())).figure.clone().unwrap();
        let FigureBody::Tree(levels) = f.body else {
            panic!("a tree")
        };
        (
            levels.iter().map(|l| (l.done, l.total)).collect::<Vec<_>>(),
            f.name.en,
        )
    };
    let (levels, name) = tree(0, Some(27));
    assert_eq!(levels, [(3, 3), (9, 9), (27, 27)]);
    assert!(
        name.starts_with("27 calls reached the payment API, of at most 27 (3 × 3 × 3)"),
        "{name}"
    );
    let (levels, _) = tree(0, Some(3));
    assert_eq!(levels, [(1, 3), (2, 9), (4, 27)], "lit as they happen");
    let (levels, name) = tree(1, None);
    assert_eq!(levels.last(), Some(&(3, 3)), "one retry authority");
    assert!(name.contains("(3 × 1 × 1)"), "{name}");
}
