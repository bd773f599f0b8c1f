//! The run-file reader against random and mutated files: it never panics, and whatever it
//! accepts replays to a valid state. Mutations start from real exported files of every
//! scenario; the number of inputs is `IMPORT_FUZZ_CASES` (default 5,000 for the test suite; a
//! full run uses 1,000,000: `IMPORT_FUZZ_CASES=1000000 cargo test --release --test it import_fuzz::`).

use crate::common::Lcg;

use effectively_once::export::{parse_json, parse_run, run_json, Run};
use effectively_once::scenarios;

const PIECES: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "\\",
    "\\u",
    "\\ud83d",
    "\\u00",
    "null",
    "true",
    "false",
    "-",
    "0",
    "1",
    "99999999999999999999",
    "1.5",
    "1e9",
    "\"format\"",
    "\"effectively-once-run\"",
    "\"version\"",
    "\"scenario\"",
    "\"refund-cap\"",
    "\"retry-layers\"",
    "\"knobs\"",
    "\"cap\"",
    "\"path\"",
    "\"00z\"",
    "\"step\"",
    "\"steps\"",
    " ",
    "\n",
    "\t",
    "é",
    "😀",
    "\u{0}",
    "<script>",
];

/// One exported file per variant of every scenario (default knobs, default run, last step).
fn seeds() -> Vec<String> {
    let mut out = Vec::new();
    for (i, s) in scenarios::all().iter().enumerate() {
        let meta = s.meta();
        for v in 0..meta.variants.len() {
            let knobs = meta.default_knobs();
            let trace = s.trace_with(v, &knobs, &[]);
            let run = Run {
                scenario: i,
                variant: v,
                knobs,
                path: Vec::new(),
                step: trace.last(),
            };
            out.push(run_json(&run, &trace));
        }
    }
    out
}

fn mutate(rng: &mut Lcg, text: &str) -> String {
    let mut b: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(b.len() + 1);
        match rng.below(5) {
            0 if !b.is_empty() => {
                let end = (at + rng.below(8)).min(b.len());
                b.drain(at.min(b.len())..end);
            }
            1 => {
                let piece = PIECES[rng.below(PIECES.len())];
                for (k, c) in piece.chars().enumerate() {
                    b.insert((at + k).min(b.len()), c);
                }
            }
            2 if !b.is_empty() => {
                let i = at.min(b.len() - 1);
                b[i] = char::from_u32(rng.below(0x80) as u32).unwrap_or('?');
            }
            3 => b.truncate(at),
            _ => {
                let a = rng.below(b.len().max(1));
                let c = b.get(a).copied().unwrap_or('x');
                b.insert(at.min(b.len()), c);
            }
        }
    }
    b.into_iter().collect()
}

#[test]
fn the_reader_never_panics_and_accepts_only_runs_that_replay() {
    let cases: usize = std::env::var("IMPORT_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5_000);
    let seeds = seeds();
    // Every real export opens.
    for s in &seeds {
        assert!(parse_run(s).is_ok(), "{s}");
    }
    let mut rng = Lcg(20261203);
    let (mut accepted, mut refused) = (0usize, 0usize);
    for n in 0..cases {
        let text = if n % 4 == 0 {
            // Random soup of JSON pieces.
            (0..rng.below(40))
                .map(|_| PIECES[rng.below(PIECES.len())])
                .collect()
        } else {
            let seed = rng.below(seeds.len());
            mutate(&mut rng, &seeds[seed])
        };
        let _ = parse_json(&text);
        match parse_run(&text) {
            Ok(run) => {
                accepted += 1;
                let s = scenarios::all()[run.scenario];
                let t = s.trace_with(run.variant, &run.knobs, &run.path);
                assert!(t.error.is_none() && run.step <= t.last(), "{text}");
            }
            Err(why) => {
                refused += 1;
                assert!(why.en.starts_with("The file was not opened"), "{}", why.en);
                assert!(!why.zh.is_empty());
            }
        }
    }
    println!("{cases} inputs: {accepted} accepted, {refused} refused");
    assert!(refused > cases / 2, "mutations are mostly refused");
}
