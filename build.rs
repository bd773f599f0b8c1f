//! The page's split build (feature `split`, index.html) links its wasm with relocations kept:
//! `wasm-split` needs them to cut each scenario into its own module (tools in
//! tests/e2e/tools/split.mjs).
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let split = std::env::var_os("CARGO_FEATURE_SPLIT").is_some();
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "wasm32");
    if split && wasm {
        println!("cargo:rustc-link-arg-bin=effectively-once=--emit-relocs");
    }
}
