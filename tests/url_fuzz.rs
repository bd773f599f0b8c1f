//! The URL resolver against random and mutated inputs: it never panics, always lands on a valid
//! state, and says something whenever it had to change what was asked for. The number of inputs
//! is `URL_FUZZ_CASES` (default 5,000 for the test suite; a full run uses 1,000,000).

mod common;

use common::Lcg;

use effectively_once::player::{build_query, embed_param, query_extras, resolve};
use effectively_once::scenarios;
use effectively_once::sim::Lang;

const PIECES: &[&str] = &[
    "s=",
    "v=",
    "p=",
    "t=",
    "lang=",
    "cmp=",
    "mode=",
    "refund-cap",
    "cap=",
    "amount-a=",
    "99999999999",
    "break",
    "inbox",
    "&",
    "=",
    "?",
    "%",
    "%2",
    "%zz",
    "%E2%9C%93",
    "%00",
    "+",
    "dual-write",
    "outbox",
    "commit-then-publish",
    "zh",
    "en",
    "0",
    "1",
    "z",
    "Z",
    "9999999999999999999999",
    "-1",
    "<script>",
    "\"",
    "'",
    "中文",
    "⚡",
    "\u{0}",
    "#",
    "//",
    "..",
    " ",
];

fn mutate(rng: &mut Lcg, base: &str) -> String {
    let mut s: Vec<char> = base.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let at = if s.is_empty() {
            0
        } else {
            rng.below(s.len() + 1)
        };
        match rng.below(3) {
            0 => s
                .splice(at..at, PIECES[rng.below(PIECES.len())].chars())
                .for_each(drop),
            1 if at < s.len() => {
                s.remove(at);
            }
            _ => s.insert(
                at,
                char::from_u32(rng.next() as u32 % 0x3000).unwrap_or('x'),
            ),
        }
    }
    s.into_iter().collect()
}

#[test]
fn the_resolver_survives_random_and_mutated_urls() {
    let cases: usize = std::env::var("URL_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5_000);
    let mut rng = Lcg(0xfeed);
    let valid = build_query("dual-write", "outbox", "0010", 5, Lang::Zh)
        + &query_extras(&[], Some("commit-then-publish"), true);
    for i in 0..cases {
        let search = if i % 2 == 0 {
            mutate(&mut rng, &valid)
        } else {
            (0..rng.below(8))
                .map(|_| PIECES[rng.below(PIECES.len())])
                .collect()
        };
        let r = resolve(&search, Some("fr-FR"));
        let all = scenarios::all();
        assert!(r.scenario < all.len(), "{search:?}");
        assert!(
            r.variant < all[r.scenario].meta().variants.len(),
            "{search:?}"
        );
        let meta = all[r.scenario].meta();
        assert_eq!(r.knobs.len(), meta.knobs.len(), "{search:?}");
        for (k, v) in meta.knobs.iter().zip(&r.knobs) {
            assert!((k.min..=k.max).contains(v), "{search:?}");
        }
        let trace = all[r.scenario].trace_with(r.variant, &r.knobs, &r.path);
        assert_eq!(trace.error, None, "the resolved path is valid: {search:?}");
        assert_eq!(trace.given, r.path.len());
        if let Some(t) = r.step {
            assert!(t <= trace.last(), "{search:?}");
        }
        if let Some(c) = r.compare {
            assert!(c != r.variant && c < all[r.scenario].meta().variants.len());
        }
    }
}

#[test]
fn a_valid_url_resolves_to_itself_without_notices() {
    let r = resolve(
        &build_query("dual-write", "outbox", "0010", 3, Lang::Zh),
        Some("en-US"),
    );
    assert_eq!(
        (r.scenario, r.variant, r.path.clone(), r.step, r.lang),
        (0, 2, vec![0, 0, 1, 0], Some(3), Lang::Zh)
    );
    assert!(r.notices.is_empty(), "{:?}", r.notices);
    let search = build_query("outbox-relay", "no-dedup", "", 0, Lang::En)
        + &query_extras(&[], Some("inbox"), true);
    let r = resolve(&search, None);
    assert_eq!((r.scenario, r.compare, r.breaking), (1, Some(1), true));
    assert!(r.notices.is_empty(), "{:?}", r.notices);
    let search = build_query("refund-cap", "semaphore-2", "01", 2, Lang::En)
        + &query_extras(&[("cap", 150), ("amount-c", 20)], None, false);
    let r = resolve(&search, None);
    assert_eq!(
        (r.scenario, r.variant, r.knobs.clone()),
        (
            scenarios::index_of("refund-cap").expect("registered"),
            5,
            vec![150, 80, 80, 20]
        )
    );
    assert!(r.notices.is_empty(), "{:?}", r.notices);
    assert!(!r.embed);
    let r = resolve(&(search + embed_param(true)), None);
    assert!(r.embed && r.notices.is_empty(), "{:?}", r.notices);
    assert_eq!(r.knobs, vec![150, 80, 80, 20]);
    assert_eq!(
        resolve("", Some("zh-TW")).lang,
        Lang::Zh,
        "the browser's language when the URL has none"
    );
}

#[test]
fn every_kind_of_bad_value_gets_a_notice() {
    let cases = [
        ("?s=nope", "no scenario 'nope'"),
        ("?v=nope", "no variant 'nope'"),
        ("?p=0!", "character '!' at position 2"),
        ("?p=9", "step 0 offers 1 choice, not choice 10"),
        ("?t=x", "'t=x' is not a number"),
        ("?t=99999", "asks for step 99999"),
        ("?lang=fr", "'lang=fr' is not supported"),
        ("?cmp=nope", "'cmp=nope' is not another variant"),
        (
            "?v=outbox&cmp=outbox",
            "'cmp=outbox' is not another variant",
        ),
        ("?mode=race", "no mode 'race'"),
        ("?embed=maybe", "'embed=maybe' is not 1 or 0"),
        (
            "?s=refund-cap&cap=abc",
            "'cap=abc' is not a whole number from 0 to 1000; using 100",
        ),
        (
            "?s=refund-cap&amount-b=1001",
            "'amount-b=1001' is not a whole number",
        ),
        (
            "?s=refund-cap&amount-a=-5",
            "'amount-a=-5' is not a whole number",
        ),
    ];
    for (search, expected) in cases {
        let r = resolve(search, None);
        let all: Vec<String> = r.notices.iter().map(|n| n.en.clone()).collect();
        assert!(
            all.iter().any(|n| n.contains(expected)),
            "{search}: {all:?}"
        );
    }
}
