//! One word per concept: no word that GLOSSARY.md retires appears in the app's text — the
//! string literals of `src/` and the text files the page fetches (`public/*.json`). Comments may
//! name the notes' own words; what a learner reads may not.
use std::fs;
use std::path::Path;

/// The retired words, from the last column of GLOSSARY.md's table.
fn retired() -> Vec<String> {
    let text = fs::read_to_string("GLOSSARY.md").expect("GLOSSARY.md");
    let mut out = Vec::new();
    for line in text.lines().filter(|l| l.starts_with('|')).skip(2) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let last = cells.last().copied().unwrap_or_default();
        out.extend(
            last.split(", ")
                .map(str::trim)
                .filter(|w| !w.is_empty())
                .map(String::from),
        );
    }
    out
}

/// The string literals of a Rust file (ordinary ones, with escapes; comments skipped).
fn literals(src: &str) -> Vec<String> {
    let (mut out, mut chars) = (Vec::new(), src.chars().peekable());
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            // A char literal such as '"' would open a string: skip 'x' and '\x'.
            '\'' => {
                let look: String = chars.clone().take(3).collect();
                if look.starts_with('\\') {
                    chars.nth(2);
                } else if look.chars().nth(1) == Some('\'') {
                    chars.nth(1);
                }
            }
            '"' => {
                let mut s = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        c => s.push(c),
                    }
                }
                out.push(s);
            }
            _ => {}
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).expect("a directory").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_retired_word_is_on_screen() {
    let words = retired();
    assert!(words.len() >= 20, "the glossary's retired words: {words:?}");
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    let mut texts: Vec<(String, String)> = Vec::new();
    for f in &files {
        let src = fs::read_to_string(f).expect("readable");
        for lit in literals(&src) {
            texts.push((f.display().to_string(), lit));
        }
    }
    for f in ["public/quiz.json", "public/notes.json"] {
        texts.push((f.into(), fs::read_to_string(f).expect("generated content")));
    }
    let mut found = Vec::new();
    for (file, text) in &texts {
        for w in &words {
            if text.contains(w.as_str()) {
                found.push(format!(
                    "{file}: “{w}” in “{}”",
                    text.chars().take(60).collect::<String>()
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "retired words on screen:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_literal_reader_skips_comments_and_char_literals() {
    let src = "// \"not this\"\nlet a = '\"'; let b = \"yes \\\" too\"; let c = '\\''; // \"no\"\n\"last\"";
    assert_eq!(literals(src), ["yes  too", "last"]);
}
