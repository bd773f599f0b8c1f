//! Exhaustive exploration: every action sequence within bounds, states deduplicated.
//!
//! Breadth-first, so the first violating state found for an invariant is reached by a shortest
//! path: that path is the counterexample. Runs are counted on the deduplicated state graph
//! (a run is a maximal path from the initial state), so "violated in K of N runs" is exact
//! without enumerating runs one by one.

use super::model::Budgeted;
use super::{InvKind, Invariant, Model, Text, MAX_CHOICES};
use std::collections::VecDeque;
use std::hash::{Hash, Hasher};

/// A fast, fixed hasher for deduplicating states (the Fx hash of rustc). It only finds equal
/// states: ids come from the breadth-first order and the table is never iterated, so no result
/// depends on a hash value.
#[derive(Default)]
struct Fx(u64);

impl Fx {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.add(n.into());
    }
    fn write_u16(&mut self, n: u16) {
        self.add(n.into());
    }
    fn write_u32(&mut self, n: u32) {
        self.add(n.into());
    }
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
}

fn fx<T: Hash>(t: &T) -> u64 {
    let mut h = Fx::default();
    t.hash(&mut h);
    h.finish()
}

/// The states found so far, each stored once, and an open-addressing table (linear probing,
/// at most half full) from hash to state id.
struct Seen<S> {
    states: Vec<S>,
    hashes: Vec<u64>,
    /// State id + 1 per slot; 0 = empty. The length is a power of two.
    slots: Vec<u32>,
}

impl<S: Eq> Seen<S> {
    fn new() -> Seen<S> {
        Seen {
            states: Vec::new(),
            hashes: Vec::new(),
            slots: vec![0; 1024],
        }
    }

    /// The slot holding `state`, or the empty slot where it would go.
    fn slot(&self, hash: u64, state: &S) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            match self.slots[i] {
                0 => return i,
                id if self.hashes[id as usize - 1] == hash
                    && self.states[id as usize - 1] == *state =>
                {
                    return i
                }
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// The id of `state`, or the empty slot where it would go (one probe serves both).
    fn find(&self, hash: u64, state: &S) -> Result<u32, usize> {
        let slot = self.slot(hash, state);
        self.slots[slot].checked_sub(1).ok_or(slot)
    }

    /// Stores a state that [`Seen::find`] did not find, in the slot it returned (found again
    /// only when the table has to grow).
    fn add(&mut self, hash: u64, state: S, mut slot: usize) -> u32 {
        if 2 * (self.states.len() + 1) > self.slots.len() {
            let mut slots = vec![0u32; self.slots.len() * 2];
            let mask = slots.len() - 1;
            for (id, &h) in self.hashes.iter().enumerate() {
                let mut i = h as usize & mask;
                while slots[i] != 0 {
                    i = (i + 1) & mask;
                }
                slots[i] = id as u32 + 1;
            }
            self.slots = slots;
            slot = self.slot(hash, &state);
        }
        let id = self.states.len() as u32;
        self.slots[slot] = id + 1;
        self.hashes.push(hash);
        self.states.push(state);
        id
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Longest run explored, in steps.
    pub max_depth: usize,
    /// Stop discovering new states beyond this many.
    pub max_states: usize,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            max_depth: super::MAX_STEPS,
            max_states: 2_000_000,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvariantReport {
    pub name: Text,
    pub kind: InvKind,
    /// Distinct states in which the property is broken (for `eventually`: quiet states).
    pub violating_states: usize,
    /// Runs that pass through such a state.
    pub violating_runs: u128,
    /// A shortest path (choice indices) to a violating state.
    pub counterexample: Option<Vec<u8>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub states: usize,
    /// Maximal paths from the initial state (saturating).
    pub runs: u128,
    pub quiet_states: usize,
    /// The bounds cut the exploration short: verdicts cover only what was reached.
    pub truncated: bool,
    /// The state graph has a cycle, so runs cannot be counted (a model bug: every model must
    /// make progress or spend budget on each step).
    pub cyclic: bool,
    pub invariants: Vec<InvariantReport>,
}

struct Graph {
    edges: Vec<Vec<u32>>,
    /// `bad[i][id]`: invariant i is broken in state id.
    bad: Vec<Vec<bool>>,
}

pub fn explore<M: Model>(model: &M, bounds: Bounds) -> Report {
    explore_with(model, bounds, &mut |_| {})
}

/// How many states are expanded between two calls of the progress callback.
pub const PROGRESS_EVERY: usize = 8192;

/// [`explore`], calling `progress` with the number of distinct states found so far every
/// [`PROGRESS_EVERY`] expanded states (the explorer's worker reports it to the page).
pub fn explore_with<M: Model>(
    model: &M,
    bounds: Bounds,
    progress: &mut dyn FnMut(usize),
) -> Report {
    let invariants = model.invariants();
    let mut search = Search::new(Budgeted::init(model), invariants.len());
    let (mut actions, mut successors, mut broken) = (Vec::new(), Vec::new(), Vec::new());
    while let Some(id) = search.queue.pop_front() {
        if id as usize % PROGRESS_EVERY == PROGRESS_EVERY - 1 {
            progress(search.seen.states.len());
        }
        let state = &search.seen.states[id as usize];
        actions.clear();
        state.actions(model, &mut actions);
        assert!(
            actions.len() <= MAX_CHOICES,
            "a state enables {} actions",
            actions.len()
        );
        let quiet = actions.iter().all(|a| model.is_fault(a));
        broken.clear();
        broken.extend(invariants.iter().map(|inv| {
            (inv.kind == InvKind::Always || quiet) && (inv.check)(&state.state).is_some()
        }));
        // Successors first (borrowing the state), then their ids (growing the store).
        let deep = search.depth[id as usize] as usize >= bounds.max_depth;
        successors.clear();
        if !deep {
            successors.extend(actions.iter().map(|a| state.next(model, a)));
        }
        search.quiet_states += usize::from(quiet);
        search.judged(id, &broken);
        search.truncated |= deep && !actions.is_empty();
        for (choice, next) in successors.drain(..).enumerate() {
            search.reached(id, choice as u8, next, bounds);
        }
    }
    search.report(&invariants)
}

/// The breadth-first search's store: the states seen (ids in the order found), how each was
/// first reached and at what depth, the graph of edges, and the invariants' verdicts.
struct Search<S> {
    seen: Seen<S>,
    parent: Vec<(u32, u8)>,
    depth: Vec<u32>,
    graph: Graph,
    first_bad: Vec<Option<u32>>,
    quiet_states: usize,
    truncated: bool,
    queue: VecDeque<u32>,
}

impl<S: Eq + Hash> Search<S> {
    fn new(init: S, invariants: usize) -> Search<S> {
        let mut seen = Seen::new();
        let hash = fx(&init);
        let slot = seen.find(hash, &init).err().unwrap_or(0);
        seen.add(hash, init, slot);
        Search {
            seen,
            parent: vec![(0, 0)],
            depth: vec![0],
            graph: Graph {
                edges: vec![Vec::new()],
                bad: vec![Vec::new(); invariants],
            },
            first_bad: vec![None; invariants],
            quiet_states: 0,
            truncated: false,
            queue: VecDeque::from([0]),
        }
    }

    /// Records which invariants state `id` breaks (the first state found breaking one is
    /// reached by a shortest path: its counterexample).
    fn judged(&mut self, id: u32, broken: &[bool]) {
        for (i, &b) in broken.iter().enumerate() {
            self.graph.bad[i].push(b);
            if b && self.first_bad[i].is_none() {
                self.first_bad[i] = Some(id);
            }
        }
    }

    /// The edge from `id` by `choice` to `next`: a known state, a new one (queued), or none
    /// past the state bound.
    fn reached(&mut self, id: u32, choice: u8, next: S, bounds: Bounds) {
        let hash = fx(&next);
        let next_id = match self.seen.find(hash, &next) {
            Ok(known) => known,
            Err(_) if self.seen.states.len() >= bounds.max_states => {
                self.truncated = true;
                return;
            }
            Err(slot) => {
                let new_id = self.seen.add(hash, next, slot);
                self.parent.push((id, choice));
                self.depth.push(self.depth[id as usize] + 1);
                self.graph.edges.push(Vec::new());
                self.queue.push_back(new_id);
                new_id
            }
        };
        self.graph.edges[id as usize].push(next_id);
    }

    fn report<T>(&self, invariants: &[Invariant<T>]) -> Report {
        let (runs, violating, cyclic) = count_runs(&self.graph);
        let invariants = invariants
            .iter()
            .enumerate()
            .map(|(i, inv)| InvariantReport {
                name: inv.name.clone(),
                kind: inv.kind,
                violating_states: self.graph.bad[i].iter().filter(|&&b| b).count(),
                violating_runs: violating[i],
                counterexample: self.first_bad[i].map(|id| path_to(&self.parent, id)),
            })
            .collect();
        Report {
            states: self.seen.states.len(),
            runs,
            quiet_states: self.quiet_states,
            truncated: self.truncated,
            cyclic,
            invariants,
        }
    }
}

fn path_to(parent: &[(u32, u8)], mut id: u32) -> Vec<u8> {
    let mut path = Vec::new();
    while id != 0 {
        let (up, choice) = parent[id as usize];
        path.push(choice);
        id = up;
    }
    path.reverse();
    path
}

/// Counts maximal paths from state 0, in total and through a broken state per invariant, by an
/// iterative post-order walk of the graph (memoised, so each state is visited once).
fn count_runs(graph: &Graph) -> (u128, Vec<u128>, bool) {
    let n = graph.edges.len();
    let k = graph.bad.len();
    let mut total = vec![0u128; n];
    let mut through = vec![0u128; n * k];
    // 0 = unvisited, 1 = on the stack, 2 = done.
    let mut color = vec![0u8; n];
    let mut cyclic = false;
    let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
    color[0] = 1;
    while let Some(&mut (id, ref mut next_edge)) = stack.last_mut() {
        let edges = &graph.edges[id as usize];
        if let Some(&succ) = edges.get(*next_edge) {
            *next_edge += 1;
            match color[succ as usize] {
                0 => {
                    color[succ as usize] = 1;
                    stack.push((succ, 0));
                }
                1 => cyclic = true,
                _ => {}
            }
            continue;
        }
        stack.pop();
        color[id as usize] = 2;
        let u = id as usize;
        let mut sum = if edges.is_empty() { 1 } else { 0u128 };
        let mut sums = vec![0u128; k];
        for &succ in edges {
            let s = succ as usize;
            if color[s] != 2 {
                continue;
            }
            sum = sum.saturating_add(total[s]);
            for (i, acc) in sums.iter_mut().enumerate() {
                *acc = acc.saturating_add(through[s * k + i]);
            }
        }
        total[u] = sum;
        for (i, acc) in sums.into_iter().enumerate() {
            through[u * k + i] = if graph.bad[i][u] { sum } else { acc };
        }
    }
    let violating = (0..k).map(|i| through[i]).collect();
    (total[0], violating, cyclic)
}
