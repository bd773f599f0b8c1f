//! The page's and the worker's split builds (features `split` and `split-worker`, index.html)
//! link their wasm with relocations kept: `wasm-split` needs them to cut each scenario into its
//! own module (tests/e2e/tools/split.mjs).
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let on = |feature: &str| std::env::var_os(feature).is_some();
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "wasm32");
    if wasm && on("CARGO_FEATURE_SPLIT") {
        println!("cargo:rustc-link-arg-bin=effectively-once=--emit-relocs");
    }
    if wasm && on("CARGO_FEATURE_SPLIT_WORKER") {
        println!("cargo:rustc-link-arg-bin=explorer=--emit-relocs");
    }
}
