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

/// `src/` and the files of the pure layer: the engine, the scenarios and the player.
fn pure_layer() -> (std::path::PathBuf, Vec<std::path::PathBuf>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![
        root.join("sim.rs"),
        root.join("scenarios.rs"),
        root.join("player.rs"),
    ];
    rust_files(&root.join("sim"), &mut files);
    rust_files(&root.join("scenarios"), &mut files);
    (root, files)
}

#[test]
fn the_engine_knows_nothing_about_the_view() {
    let (_, files) = pure_layer();
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

const MAX_FN_LINES: usize = 70;

/// The non-test functions of `text` with their lengths in lines, from the `fn` line to the
/// closing brace at the same indentation.
fn functions(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let end = lines
        .iter()
        .position(|l| l.trim() == "#[cfg(test)]")
        .unwrap_or(lines.len());
    let mut out = Vec::new();
    for (i, line) in lines[..end].iter().enumerate() {
        let code = line.trim_start();
        let indent = &line[..line.len() - code.len()];
        let after = [
            "pub fn ",
            "pub(crate) fn ",
            "pub(super) fn ",
            "fn ",
            "const fn ",
        ]
        .iter()
        .find_map(|p| code.strip_prefix(p));
        let Some(rest) = after else { continue };
        if line.trim_end().ends_with('}') || line.trim_end().ends_with(';') {
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let close = format!("{indent}}}");
        if let Some(len) = lines[i..end].iter().position(|l| *l == close) {
            out.push((name, len + 1));
        }
    }
    out
}

/// No non-test function of the engine, the scenarios or the player is over [`MAX_FN_LINES`]:
/// narration and views are one short function per action or table.
#[test]
fn functions_stay_short() {
    let (root, files) = pure_layer();
    let mut count = 0;
    for file in files {
        let rel = file.strip_prefix(&root).unwrap().display().to_string();
        for (name, len) in functions(&fs::read_to_string(&file).unwrap()) {
            count += 1;
            assert!(
                len <= MAX_FN_LINES,
                "{rel}: fn {name} is {len} lines (at most {MAX_FN_LINES})"
            );
        }
    }
    assert!(
        count > 500,
        "found only {count} functions: is the reader broken?"
    );
}

#[test]
fn the_architecture_is_short() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md");
    let lines = fs::read_to_string(path).unwrap().lines().count();
    assert!(
        lines < 200,
        "ARCHITECTURE.md is {lines} lines: measurements go to BENCHMARKS.md"
    );
}
