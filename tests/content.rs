//! The text the page fetches on demand: `public/quiz.json` and `public/notes.json` (and the
//! scenarios' cards the page carries, `src/scenarios/cards.rs`) are what
//! `content` renders from the Rust sources (rewrite them with `UPDATE_CONTENT=1 cargo test
//! --test content`), they read back to the same values, and a damaged file is refused with a
//! reason rather than read.

use effectively_once::content::{notes_json, quiz_json, read_notes, read_quiz};
use effectively_once::quiz::questions;
use effectively_once::scenarios;
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
        "{file} is not what the sources render; run `UPDATE_CONTENT=1 cargo test --test content`"
    );
}

#[test]
fn the_files_are_what_the_sources_render() {
    check("public/quiz.json", &quiz_json(&questions()));
    check("public/notes.json", &notes_json());
    check("src/scenarios/cards.rs", &scenarios::Card::source());
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
