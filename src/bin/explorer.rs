//! The explorer's Web Worker (see `effectively_once::worker`).

// The page's allocator (src/main.rs).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    effectively_once::worker::serve();
}
