//! Benchmarks only: see `benches/explore.rs`.
