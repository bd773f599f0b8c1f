//! "Watch it fail": every mistake declares its canonical failing path, and it is a shortest
//! counterexample — as short as the explorer's — that ends where an invariant first breaks.
//! A fix declares none. Every variant has a hint of the move to try.
use effectively_once::scenarios;
use effectively_once::sim::{decode_path, Bounds, Status};

#[test]
fn each_failing_path_breaks_an_invariant_at_its_end_as_soon_as_the_explorer_can() {
    let mut checked = 0;
    for (i, s) in scenarios::all().iter().enumerate() {
        let meta = s.meta();
        for (v, vm) in meta.variants.iter().enumerate() {
            let at = format!("{}/{}", meta.slug, vm.slug);
            if vm.fixed {
                assert_eq!(vm.fails, None, "{at}: a fix has nothing to watch fail");
            }
            let Some(encoded) = vm.fails else { continue };
            let (path, error) = decode_path(encoded);
            assert!(error.is_none(), "{at}: {encoded} is not a path");
            let trace = s.trace(v, &path);
            assert_eq!(trace.given, path.len(), "{at}: the path replays whole");
            let end = path.len();
            let broke = trace.steps[end]
                .verdicts
                .iter()
                .any(|x| x.status == Status::Violated && x.since == Some(end));
            assert!(
                broke,
                "{at}: an invariant first breaks at step {end}, the path's end"
            );
            let report = scenarios::explore(
                i,
                v,
                None,
                &meta.default_knobs(),
                Bounds::default(),
                &mut |_| {},
            )
            .expect("registered");
            let shortest = report
                .invariants
                .iter()
                .filter_map(|r| r.counterexample.as_ref().map(Vec::len))
                .min();
            assert_eq!(
                shortest,
                Some(end),
                "{at}: as short as the explorer's counterexample"
            );
            checked += 1;
        }
    }
    assert!(checked >= 2, "{checked}");
}

#[test]
fn every_mistake_can_be_watched_failing_and_every_variant_says_what_to_try() {
    for s in scenarios::all() {
        let meta = s.meta();
        for vm in &meta.variants {
            let at = format!("{}/{}", meta.slug, vm.slug);
            assert_eq!(
                vm.fails.is_some(),
                !vm.fixed,
                "{at}: Watch it fail on every mistake, no fix"
            );
            assert!(
                !vm.hint.en.is_empty() && !vm.hint.zh.is_empty(),
                "{at}: a hint in both languages"
            );
            assert!(
                vm.hint.en.chars().count() <= 120,
                "{at}: one line: {}",
                vm.hint.en
            );
        }
    }
}
