use effectively_once::ui::{install_panic_hook, start};

// Talc in place of Rust's default allocator (dlmalloc): smaller on wasm (BENCHMARKS.md,
// "Bundle"); single-threaded, hence no lock. In the binaries, not the library, so a test may
// count allocations with an allocator of its own (tests/trace_memory.rs).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    install_panic_hook();
    start();
}
