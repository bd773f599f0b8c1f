//! The text the page fetches on demand: `public/quiz.json` and `public/notes.json` (and the
//! scenarios' cards the page carries, `src/scenarios/cards.rs`) are what
//! `content` renders from the Rust sources (rewrite them with `UPDATE_CONTENT=1 cargo test
//! --test it content::`), they read back to the same values, and a damaged file is refused with a
//! reason rather than read.

use effectively_once::content::{notes_json, quiz_json, read_notes, read_quiz};
use effectively_once::quiz::questions;
use effectively_once::scenarios;
use effectively_once::sim::{decode_path, encode_path};
use std::path::Path;

fn check(file: &str, rendered: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    if std::env::var_os("UPDATE_CONTENT").is_some() {
        std::fs::write(&path, rendered).expect("write");
        return;
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == rendered,
        "{file} is not what the sources render; run `UPDATE_CONTENT=1 cargo test --test it content::`"
    );
}

#[test]
fn the_files_are_what_the_sources_render() {
    check("public/quiz.json", &quiz_json(&questions()));
    check("public/notes.json", &notes_json());
    check("src/scenarios/cards.rs", &scenarios::Card::source());
    check("tests/e2e/scenarios.json", &e2e_json());
}

/// A JSON string literal.
fn quote(s: &str) -> String {
    let mut out = String::from('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Where the browser suite looks at a variant: a mistake at the end of its failing path ("Watch
/// it fail"); a fix just after the first fault its default run offers from half-way on (where
/// something has happened), or at its end if it offers none.
fn e2e_state(s: scenarios::Registered, v: usize, fails: Option<&str>) -> (String, usize) {
    if let Some(p) = fails {
        return (p.to_string(), decode_path(p).0.len());
    }
    let t = s.trace(v, &[]);
    let fault = (t.steps.len() / 2..t.steps.len())
        .chain(0..t.steps.len() / 2)
        .find_map(|k| {
            let c = t.steps[k].choices.iter().find(|c| c.fault)?;
            Some((k, c.index))
        });
    match fault {
        Some((k, i)) => {
            let mut path = t.path[..k].to_vec();
            path.push(i);
            (encode_path(&path), k + 1)
        }
        None => (String::new(), t.last()),
    }
}

/// What the browser suite walks, so that a new scenario needs no edit there: every scenario in
/// the picker's order, every variant, the state to look at (path and step) and, for a mistake,
/// its figure's name there.
fn e2e_json() -> String {
    let mut out = Vec::new();
    for &s in scenarios::all() {
        let meta = s.meta();
        let mut variants = Vec::new();
        for (v, vm) in meta.variants.iter().enumerate() {
            let (path, at) = e2e_state(s, v, vm.fails);
            let t = s.trace(v, &decode_path(&path).0);
            let figure = (t.view(at).figure.as_ref()).map_or(String::new(), |f| f.name.en.clone());
            variants.push(format!(
                "      {{ \"slug\": {}, \"fixed\": {}, \"path\": {}, \"at\": {at}, \"figure\": {} }}",
                quote(vm.slug),
                vm.fixed,
                quote(&path),
                quote(&figure)
            ));
        }
        out.push(format!(
            "  {{\n    \"slug\": {},\n    \"variants\": [\n{}\n    ]\n  }}",
            quote(meta.slug),
            variants.join(",\n")
        ));
    }
    format!("[\n{}\n]\n", out.join(",\n"))
}

#[test]
fn the_files_read_back_to_the_sources() {
    let qs = questions();
    assert_eq!(read_quiz(&quiz_json(&qs)), Ok(qs));
    let notes = notes_json();
    for slug in scenarios::SLUGS {
        assert_eq!(
            read_notes(&notes, slug).as_ref(),
            Ok(&scenarios::notes(slug).expect("notes"))
        );
    }
    let err = read_notes(&notes, "nope").expect_err("no such scenario");
    assert_eq!(
        err.en,
        "The speaker notes could not be read: there are none for nope."
    );
}

#[test]
fn a_damaged_file_is_refused_with_the_reason() {
    let quiz = quiz_json(&questions());
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "The quiz could not be read: "),
        (
            "<!doctype html><p>Not found</p>".into(),
            "The quiz could not be read: ",
        ),
        (notes_json(), "is not what the page asked for"),
        (
            quiz.replace("\"version\": 1", "\"version\": 2"),
            "from another version of the site",
        ),
        (
            quiz.replace("\"answer\": 1", "\"answer\": 7"),
            "question 1 is malformed",
        ),
        (
            quiz.replace("\"kind\": \"choice\"", "\"kind\": \"essay\""),
            "question 1 is malformed",
        ),
        (
            quiz.replace("\"id\": \"c1\"", "\"id\": \"c1<img>\""),
            "question 1 is malformed",
        ),
        (
            quiz.replace("\"show\": \"?s=", "\"show\": \"https://example.com/?s="),
            "is malformed",
        ),
        (
            // Cut in half, at a character's boundary (the text is two languages).
            quiz[..(0..=quiz.len() / 2)
                .rev()
                .find(|&i| quiz.is_char_boundary(i))
                .unwrap_or(0)]
                .to_string(),
            "The quiz could not be read: ",
        ),
    ];
    for (text, why) in cases {
        let err = read_quiz(&text).expect_err(why);
        assert!(err.en.contains(why), "{why}: {}", err.en);
        assert!(err.zh.starts_with("测验无法读取："), "{}", err.zh);
    }
    let notes = notes_json();
    let broken = notes.replacen("\"say\"", "\"said\"", 1);
    let err = read_notes(&broken, scenarios::SLUGS[0]).expect_err("no say");
    assert!(err.en.contains("are malformed"), "{}", err.en);
    assert!(read_notes(&quiz, scenarios::SLUGS[0]).is_err());
}
