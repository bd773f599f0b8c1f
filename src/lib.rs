//! Effectively Once: animated, exhaustively checked failure modes of payment and order backends.
//!
//! Layering (see ARCHITECTURE.md): `sim` is the pure engine, `scenarios` are models built on it,
//! `player` is the pure playback reducer, and `ui` renders plain view data with Leptos.
//! `explorer` is the text protocol between the page and `worker`, the explorer's Web Worker.
//! `content` renders and reads the text the page fetches on demand (the quiz, speaker notes).
// Input must never panic the page (panic = "abort"): no unwrap/expect outside tests.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod content;
pub mod explorer;
pub mod export;
pub mod player;
pub mod quiz;
pub mod scenarios;
pub mod sim;
pub mod ui;
pub mod worker;

/// Declares a binary's allocator: talc in place of Rust's default (dlmalloc), smaller on wasm
/// (BENCHMARKS.md, "Bundle"); single-threaded, hence no lock. Each binary declares it (the page,
/// the explorer's worker), not the library, so a test may count allocations with an allocator of
/// its own (tests/trace_memory.rs).
#[macro_export]
macro_rules! allocator {
    () => {
        #[cfg(target_arch = "wasm32")]
        #[global_allocator]
        static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
    };
}
