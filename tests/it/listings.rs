//! Every JavaScript listing the app shows is a whole ES module: Node loads it (its imports
//! resolve, nothing at its top level refers to a name it does not declare) and it exports the
//! entry point the narration points at. Running them against the model's schedules is the
//! refund-cap driver's job (tests/it/refund_cap.rs) and, for the others, the listing harness's.

use std::path::{Path, PathBuf};
use std::process::Command;

fn js_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src/scenarios") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            js_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "js") {
            out.push(path);
        }
    }
}

/// Imports `file` in Node; `Err` carries Node's message.
fn load(file: &Path) -> Result<String, String> {
    let url = format!("file://{}", file.display());
    let script = format!(
        "import({url:?}).then(m => console.log(Object.keys(m).sort().join(',')), \
         e => {{ console.error(String(e)); process.exit(1); }})"
    );
    let out = Command::new("node")
        .args(["--input-type=module", "-e", &script])
        .output()
        .expect("node is installed (.ci/setup)");
    let text = |b: &[u8]| String::from_utf8_lossy(b).trim().to_string();
    if out.status.success() {
        Ok(text(&out.stdout))
    } else {
        Err(text(&out.stderr))
    }
}

#[test]
fn every_javascript_listing_loads_in_node() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/scenarios");
    let mut files = Vec::new();
    js_files(&root, &mut files);
    files.sort();
    assert!(files.len() >= 20, "found {} listings", files.len());
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| load(f).err().map(|e| format!("{}: {e}", f.display())))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn each_listing_exports_what_its_scenario_calls() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/scenarios");
    for (file, exports) in [
        ("refund_cap/js/read-then-write.js", "refund"),
        ("semaphore_scope/js/leases.js", "workLoop"),
        ("backpressure/api.js", "serve"),
        ("backpressure/consumer_throttled.js", "consume"),
        ("cancellation/reconcile.js", "serve"),
    ] {
        assert_eq!(load(&root.join(file)).as_deref(), Ok(exports), "{file}");
    }
}

#[test]
fn a_listing_that_names_an_undeclared_global_is_caught() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/listings-probe");
    std::fs::create_dir_all(&dir).expect("target/ is writable");
    let file = dir.join("broken.js");
    std::fs::write(&file, "app.post('/orders', () => {});\n").expect("write the probe");
    let err = load(&file).expect_err("an undeclared `app` must not load");
    assert!(err.contains("ReferenceError"), "{err}");
}

/// Every program the app shows is run against its model by some test (`scenarios::PROGRAMS_RUN`
/// says which and how, and the page says so under it).
#[test]
fn every_program_is_run_against_its_model() {
    use effectively_once::scenarios;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/scenarios");
    let mut programs = Vec::new();
    js_files(&root, &mut programs);
    for entry in std::fs::read_dir(&root).expect("read src/scenarios") {
        let dir = entry.expect("entry").path();
        for f in std::fs::read_dir(&dir).into_iter().flatten() {
            let path = f.expect("entry").path();
            if path.extension().is_some_and(|e| e == "py") {
                programs.push(path);
            }
        }
    }
    let mut not_run = Vec::new();
    for path in &programs {
        let rel = path.strip_prefix(&root).expect("under src/scenarios");
        let dir = rel.components().next().expect("a scenario's folder");
        let slug = dir.as_os_str().to_string_lossy().replace('_', "-");
        let file = path.file_name().expect("a file").to_string_lossy();
        let helper = ["lock.js", "jobs.js", "token-bucket.js"].contains(&file.as_ref());
        if scenarios::program_checked(&slug).is_none() && !helper {
            not_run.push(rel.display().to_string());
        }
    }
    assert!(
        not_run.is_empty(),
        "programs no test runs against their model: {not_run:?}"
    );
    assert!(programs.len() >= 25, "found {} programs", programs.len());
}
