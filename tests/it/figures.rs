//! Every scenario declares its primary figure at every step of every variant's run, its
//! accessible name says its numbers in both languages, and it shows invariants that exist.
use effectively_once::scenarios;
use effectively_once::sim::{decode_path, FigureBody};

#[test]
fn every_step_of_every_variant_has_a_figure_named_in_both_languages() {
    for s in scenarios::all() {
        let meta = s.meta();
        for (v, vm) in meta.variants.iter().enumerate() {
            let path = vm.fails.map(|p| decode_path(p).0).unwrap_or_default();
            let t = s.trace(v, &path);
            let mut shape = None;
            for k in 0..t.steps.len() {
                let at = format!("{}/{} step {k}", meta.slug, vm.slug);
                let view = t.view(k);
                let f = view
                    .figure
                    .as_ref()
                    .unwrap_or_else(|| panic!("{at}: no figure"));
                assert!(!f.name.en.is_empty() && !f.name.zh.is_empty(), "{at}");
                assert!(
                    f.name.en.chars().any(|c| c.is_ascii_digit()),
                    "{at}: numbers in {}",
                    f.name.en
                );
                assert!(!f.title.en.is_empty() && !f.title.zh.is_empty(), "{at}");
                assert!(
                    f.shows.iter().all(|&i| i < t.steps[k].verdicts.len()),
                    "{at}: {:?}",
                    f.shows
                );
                // The figure keeps its shape through a run, so its height stays still.
                let this = match &f.body {
                    FigureBody::Meter(_) => "meter".into(),
                    FigureBody::Tree(l) => format!("tree {}", l.len()),
                    FigureBody::Ledger(r) => format!("ledger {}", r.len()),
                    FigureBody::Plots => "plots".into(),
                };
                assert_eq!(shape.get_or_insert(this.clone()), &this, "{at}");
            }
        }
    }
}

/// At the end of each mistake's failing path the figure shows the broken invariant (so it turns
/// to the violation style); a fix's figure never does on its default run.
#[test]
fn each_failure_turns_its_figure() {
    use effectively_once::sim::Status;
    for s in scenarios::all() {
        let meta = s.meta();
        for (v, vm) in meta.variants.iter().enumerate() {
            let path = vm.fails.map(|p| decode_path(p).0).unwrap_or_default();
            let t = s.trace(v, &path);
            let at = if vm.fails.is_some() {
                path.len()
            } else {
                t.last()
            };
            let (step, view) = (&t.steps[at], t.view(at));
            let f = view.figure.as_ref().expect("a figure");
            let broken = f
                .shows
                .iter()
                .any(|&i| step.verdicts[i].status == Status::Violated);
            assert_eq!(
                broken, !vm.fixed,
                "{}/{} step {at}: {}",
                meta.slug, vm.slug, f.name.en
            );
        }
    }
}
