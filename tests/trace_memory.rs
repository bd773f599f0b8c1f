//! The memory a run holds, counted by the allocator: the longest run of the knobs' range
//! (retry layering's 625 steps) stays within a budget while it is shown. Kept for every step,
//! its views held 18.5 MB here (56 MB of wasm memory); drawn on demand, the trace holds 2.8 MB.
//! Allocation sizes are deterministic, so the budget is a number, not a timing.

use effectively_once::scenarios;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator unchanged, counting sizes on the way.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
        PEAK.fetch_max(live, Relaxed);
        // SAFETY: the caller's contract is the system allocator's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const MB: usize = 1_000_000;

#[test]
fn the_longest_run_holds_under_4_mb() {
    let s = scenarios::all()[scenarios::index_of("retry-layers").expect("registered")];
    let before = LIVE.load(Relaxed);
    PEAK.store(before, Relaxed);
    let trace = s.trace_with(0, &[4, 5, 0, 2, 600, 7], &[]);
    let (held, peak) = (LIVE.load(Relaxed) - before, PEAK.load(Relaxed) - before);
    assert!(trace.last() > 600, "the 625-step run");
    assert!(held < 4 * MB, "the trace holds {held} B");
    assert!(peak < 5 * MB, "replaying it peaked at {peak} B");
    // Showing every step keeps only the last few views.
    for t in 0..=trace.last() {
        assert!(!trace.view(t).lanes.is_empty());
    }
    let shown = LIVE.load(Relaxed) - before;
    assert!(
        shown < held + MB / 2,
        "after every step was shown: {shown} B"
    );
}
