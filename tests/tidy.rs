//! Layering rules, checked by reading the source: the engine, the scenarios and the player are
//! pure (no web APIs, no clocks, no global randomness, no hash-ordered collections).

use std::fs;
use std::path::Path;

const FORBIDDEN: &[&str] = &[
    "leptos",
    "web_sys",
    "js_sys",
    "wasm_bindgen",
    "HashMap",
    "HashSet",
    "Instant",
    "SystemTime",
    "thread_rng",
];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_engine_knows_nothing_about_the_view() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![
        root.join("sim.rs"),
        root.join("scenarios.rs"),
        root.join("player.rs"),
    ];
    rust_files(&root.join("sim"), &mut files);
    rust_files(&root.join("scenarios"), &mut files);
    assert!(files.len() >= 9, "found {files:?}");
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for word in FORBIDDEN {
                assert!(
                    !code.contains(word),
                    "{}:{}: '{word}' in the pure layer: {line}",
                    file.display(),
                    n + 1
                );
            }
        }
    }
}

#[test]
fn the_ui_knows_no_particular_scenario() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![root.join("ui.rs")];
    rust_files(&root.join("ui"), &mut files);
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        for word in [
            "dual_write",
            "DualWrite",
            "DwVariant",
            "outbox",
            "Outbox",
            "OrVariant",
        ] {
            assert!(!text.contains(word), "{} names '{word}'", file.display());
        }
    }
}

/// No HTML is ever parsed from a string: everything is built as elements and text nodes, so no
/// text from the engine, the URL or a file can become markup.
#[test]
fn no_html_is_parsed_from_strings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        for word in [
            "inner_html",
            "innerHTML",
            "outer_html",
            "insert_adjacent_html",
            "document_write",
        ] {
            assert!(!text.contains(word), "{} uses {word}", file.display());
        }
    }
}
