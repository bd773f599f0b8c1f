//! The integration tests as one binary: one link instead of one per file, and every file's
//! tests shared out over the cores together (cargo runs test binaries one after another).
//! `tests/browser.rs` (in a browser) and `tests/trace_memory.rs` (an allocator of its own) stay
//! binaries of their own. Run one file's tests with `cargo test --test it <file>::`.

mod common;

mod approval;
mod backpressure;
mod cancellation;
mod checkpoint_replay;
mod content;
mod dead_letter;
mod dual_write;
mod duplicate_charge;
mod engine;
mod event_order;
mod figures;
mod glossary;
mod import_fuzz;
mod lease_fencing;
mod listings;
mod narration;
mod order_api;
mod outbox_relay;
mod refund_cap;
mod retry_layers;
mod semaphore_scope;
mod sql;
mod tidy;
mod unknown_outcome;
mod url_fuzz;
mod watch;
