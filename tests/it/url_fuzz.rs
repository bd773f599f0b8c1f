//! The URL resolver against random and mutated inputs: it never panics, always lands on a valid
//! state, and says something whenever it had to change what was asked for. The number of inputs
//! is `URL_FUZZ_CASES` (default 5,000 for the test suite; a full run uses 1,000,000).

use crate::common::Lcg;

use effectively_once::player::{
    build_query, embed_param, parse_knob, query_extras, resolve, resolve_traced,
};
use effectively_once::scenarios;
use effectively_once::sim::{Knob, Lang};

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
    "semaphore-scope",
    "local=",
    "10",
    "retry-layers",
    "downstream=",
    "always-timeout",
    "fail-k",
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

/// The knobs of the scenario `slug`.
fn knobs_of(slug: &str) -> Vec<Knob> {
    let i = scenarios::index_of(slug).expect("registered");
    scenarios::all()[i].meta().knobs
}

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
    // Valid links to mutate: one with a compared variant and the challenge, and one for each knob
    // with options, set by its word.
    let valid = [
        build_query("dual-write", "outbox", "0010", 5, Lang::Zh)
            + &query_extras(&[], &[], Some("commit-then-publish"), true),
        build_query("semaphore-scope", "shared-counter", "011", 4, Lang::En)
            + &query_extras(&knobs_of("semaphore-scope"), &[5, 3], None, false),
        build_query("retry-layers", "one-retry-authority", "", 2, Lang::En)
            + &query_extras(&knobs_of("retry-layers"), &[2, 3, 2, 4], None, false),
    ];
    for v in &valid {
        let notices = resolve(v, None).notices;
        assert!(notices.is_empty(), "{v}: {notices:?}");
    }
    for i in 0..cases {
        let search = if i % 2 == 0 {
            mutate(&mut rng, &valid[i / 2 % valid.len()])
        } else {
            (0..rng.below(8))
                .map(|_| PIECES[rng.below(PIECES.len())])
                .collect()
        };
        let (r, handed) = resolve_traced(&search, Some("fr-FR"));
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
        // The page starts from the trace the resolver replayed: it must be the resolved run's.
        assert_eq!(handed.as_ref(), Some(&trace), "{search:?}");
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
        + &query_extras(&[], &[], Some("inbox"), true);
    let r = resolve(&search, None);
    assert_eq!((r.scenario, r.compare, r.breaking), (1, Some(1), true));
    assert!(r.notices.is_empty(), "{:?}", r.notices);
    let search = build_query("refund-cap", "semaphore-2", "01", 2, Lang::En)
        + &query_extras(&knobs_of("refund-cap"), &[150, 80, 80, 20], None, false);
    assert!(search.ends_with("&cap=150&amount-c=20"), "{search}");
    let r = resolve(&search, None);
    assert_eq!(
        (r.scenario, r.variant, r.knobs.clone()),
        (
            scenarios::index_of("refund-cap").expect("registered"),
            6,
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

/// A knob with a fixed set of choices is written in a link by the choice's word, and every word
/// reads back as its choice, in a whole link and alone.
#[test]
fn every_option_of_every_knob_round_trips_by_its_word() {
    let words = |slug: &str, key: &str| -> Vec<String> {
        let knobs = knobs_of(slug);
        let k = knobs.iter().find(|k| k.key == key).expect("the knob");
        k.options.iter().map(|o| o.word.clone()).collect()
    };
    assert_eq!(words("semaphore-scope", "local"), ["2", "5", "10", "20"]);
    assert_eq!(
        words("retry-layers", "downstream"),
        ["slow-success", "always-timeout", "fail-k"]
    );
    let mut seen = 0;
    for (s, scenario) in scenarios::all().iter().enumerate() {
        let meta = scenario.meta();
        for (i, k) in meta.knobs.iter().enumerate() {
            if k.options.is_empty() {
                continue;
            }
            // The value is the index: the range covers the options exactly.
            assert_eq!(
                (k.min as usize, k.max as usize),
                (0, k.options.len() - 1),
                "{}",
                k.key
            );
            for (j, o) in k.options.iter().enumerate() {
                let value = j as u32;
                assert!(
                    !o.word.is_empty()
                        && o.word
                            .bytes()
                            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                    "a short kebab-case word: {:?}",
                    o.word
                );
                let others = k.options.iter().filter(|p| p.word == o.word).count();
                assert_eq!(others, 1, "{}: the word {:?} is unique", k.key, o.word);
                assert_eq!(k.word(value), o.word);
                assert_eq!(k.read(&o.word), Some(value));
                assert_eq!(parse_knob(k, &o.word), Ok(value));
                assert_eq!(
                    parse_knob(k, &o.word.to_uppercase()),
                    Ok(value),
                    "case is ignored"
                );
                // A whole link: the knob set to this option, every other knob at its default.
                let mut values = meta.default_knobs();
                values[i] = value;
                let search = build_query(meta.slug, meta.variants[0].slug, "", 0, Lang::En)
                    + &query_extras(&meta.knobs, &values, None, false);
                let written = format!("&{}={}", k.key, o.word);
                assert_eq!(
                    search.contains(&written),
                    value != k.default,
                    "only a changed knob is written: {search}"
                );
                let r = resolve(&search, None);
                assert_eq!(r.scenario, s);
                assert_eq!(r.knobs, values, "{search}");
                assert!(r.notices.is_empty(), "{search}: {:?}", r.notices);
                // The word also reads when the default is spelled out.
                let spelled = format!("?s={}{written}", meta.slug);
                assert_eq!(resolve(&spelled, None).knobs, values, "{spelled}");
                seen += 1;
            }
        }
    }
    assert_eq!(seen, 4 + 3, "both knobs with options, every option");
}

/// A link that names a choice by anything but its word (the old index among them) gets a notice
/// listing the words, in both languages, and the default.
#[test]
fn a_knob_value_that_is_not_one_of_its_words_gets_a_notice() {
    let cases = [
        (
            "?s=semaphore-scope&local=7",
            "The link's 'local=7' is not one of 2, 5, 10, 20; using 10.",
            "链接中的“local=7”不是 2、5、10、20 之一；改用 10。",
        ),
        (
            "?s=semaphore-scope&local=ten",
            "The link's 'local=ten' is not one of 2, 5, 10, 20; using 10.",
            "链接中的“local=ten”不是 2、5、10、20 之一；改用 10。",
        ),
        (
            "?s=retry-layers&downstream=1",
            "The link's 'downstream=1' is not one of slow-success, always-timeout, fail-k; using slow-success.",
            "链接中的“downstream=1”不是 slow-success、always-timeout、fail-k 之一；改用 slow-success。",
        ),
        (
            "?s=retry-layers&downstream=",
            "The link's 'downstream=' is not one of slow-success, always-timeout, fail-k; using slow-success.",
            "链接中的“downstream=”不是 slow-success、always-timeout、fail-k 之一；改用 slow-success。",
        ),
    ];
    for (search, en, zh) in cases {
        let r = resolve(search, None);
        let meta = scenarios::all()[r.scenario].meta();
        assert_eq!(r.knobs, meta.default_knobs(), "{search}: the defaults");
        assert_eq!(r.notices.len(), 1, "{search}: {:?}", r.notices);
        assert_eq!(
            (r.notices[0].en.as_str(), r.notices[0].zh.as_str()),
            (en, zh)
        );
    }
    // `local=2` is the 2-permit semaphore (the first choice), not the third.
    let r = resolve("?s=semaphore-scope&local=2", None);
    assert_eq!((r.knobs.clone(), r.notices.len()), (vec![3, 0], 0));
    // Next to a word, a number knob still reads a number.
    let r = resolve("?s=retry-layers&downstream=fail-k&fail-k=3", None);
    assert_eq!((r.knobs[2], r.knobs[3], r.notices.len()), (2, 3, 0));
}

/// Another scenario's knob in a link gets a notice naming the scenario it belongs to; the
/// scenario's own knobs and parameters no scenario knows (tracking tags) get none.
#[test]
fn another_scenario_s_knob_gets_a_notice() {
    let r = resolve(
        "?s=semaphore-scope&downstream=fail-k&utm_source=notes",
        None,
    );
    assert_eq!(
        r.scenario,
        scenarios::index_of("semaphore-scope").expect("registered")
    );
    assert_eq!(r.notices.len(), 1, "{:?}", r.notices);
    assert_eq!(
        (r.notices[0].en.as_str(), r.notices[0].zh.as_str()),
        (
            "'downstream' is a setting of retry-layers, not of semaphore-scope; it was ignored.",
            "“downstream”是 retry-layers 的参数，不属于 semaphore-scope；已忽略。"
        )
    );
    for search in [
        "?s=retry-layers&downstream=fail-k",
        "?s=refund-cap&cap=150&utm_source=notes",
        "?s=dual-write&fbclid=x",
    ] {
        assert!(resolve(search, None).notices.is_empty(), "{search}");
    }
    // Every knob of every scenario, put on a scenario that lacks it, gets exactly one notice.
    let all = scenarios::all();
    for owner in all {
        for k in owner.meta().knobs {
            for other in all {
                let meta = other.meta();
                if meta.knobs.iter().any(|o| o.key == k.key) {
                    continue;
                }
                let search = format!("?s={}&{}={}", meta.slug, k.key, k.word(k.default));
                let r = resolve(&search, None);
                assert_eq!(r.notices.len(), 1, "{search}: {:?}", r.notices);
                assert!(r.notices[0]
                    .en
                    .starts_with(&format!("'{}' is a setting of ", k.key)));
            }
        }
    }
}
