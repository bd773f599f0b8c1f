//! Building blocks that scenarios share: processes that crash and restart, messages in flight,
//! and retry policies in logical time. All plain data with `Ord`, so they live inside a model's
//! state and the explorer can deduplicate them.

/// `Eq`, `Ord` and `Hash` of a state by its `identity()`, a tuple of the fields that decide its
/// future. A state that carries what it draws (curves, call logs) leaves that out, so the
/// explorer merges runs that differ only in their past.
macro_rules! by_identity {
    ($state:ty) => {
        impl PartialEq for $state {
            fn eq(&self, other: &Self) -> bool {
                self.identity() == other.identity()
            }
        }
        impl Eq for $state {}
        impl PartialOrd for $state {
            fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }
        impl Ord for $state {
            fn cmp(&self, other: &Self) -> std::cmp::Ordering {
                self.identity().cmp(&other.identity())
            }
        }
        impl std::hash::Hash for $state {
            fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
                self.identity().hash(h);
            }
        }
    };
}
pub(crate) use by_identity;

/// `items` in order, without repeats. An insertion by `binary_search`, not a slice sort: these
/// are a handful of ids or steps, and each element type's sort is 3–6 KB of wasm in the module
/// that uses it (BENCHMARKS.md, "Bundle").
pub fn sorted_set<T: Ord>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for x in items {
        if let Err(at) = out.binary_search(&x) {
            out.insert(at, x);
        }
    }
    out
}

/// A scenario's variants, in the picker's order: the index a link or the picker holds is a
/// position in `ALL`, and one out of range is the first variant.
pub trait Variants: Copy + 'static {
    const ALL: &'static [Self];
    fn at(index: usize) -> Self {
        Self::ALL.get(index).copied().unwrap_or(Self::ALL[0])
    }
}

/// A process: whether it is up, and its volatile memory, which a crash wipes. Durable state (a
/// database, a broker's log) lives outside any `Proc` and survives.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Proc<M> {
    pub up: bool,
    pub mem: M,
}

impl<M: Default> Proc<M> {
    pub fn new() -> Proc<M> {
        Proc {
            up: true,
            mem: M::default(),
        }
    }

    /// The process dies: everything in memory is gone.
    pub fn crash(&mut self) {
        self.up = false;
        self.mem = M::default();
    }

    /// The process comes back with empty memory.
    pub fn restart(&mut self) {
        self.up = true;
    }
}

/// Messages in flight, in the order they were sent. A network may deliver any of them (so a
/// later message can overtake an earlier one), deliver one twice, or lose one; each is a
/// separate action for the model to offer.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Net<T> {
    pub flight: Vec<T>,
}

impl<T> Default for Net<T> {
    fn default() -> Net<T> {
        Net { flight: Vec::new() }
    }
}

impl<T: Clone> Net<T> {
    pub fn send(&mut self, msg: T) {
        self.flight.push(msg);
    }

    /// Removes and returns message `i` (the receiver now has it).
    pub fn deliver(&mut self, i: usize) -> Option<T> {
        (i < self.flight.len()).then(|| self.flight.remove(i))
    }

    /// Delivers message `i` but keeps a copy in flight: it will arrive again.
    pub fn deliver_keep(&mut self, i: usize) -> Option<T> {
        self.flight.get(i).cloned()
    }

    /// The network loses message `i`.
    pub fn drop_msg(&mut self, i: usize) -> bool {
        self.deliver(i).is_some()
    }

    pub fn is_empty(&self) -> bool {
        self.flight.is_empty()
    }
}

/// A retry policy: attempts and backoff in logical milliseconds. `attempts_max == 0` means
/// unlimited (Temporal's default activity policy), so a caller must also bound total time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Retry {
    pub attempts_max: u32,
    pub initial_interval_ms: u64,
    /// Backoff coefficient in tenths (20 = 2.0), so the policy stays integer and exact.
    pub coefficient_tenths: u64,
    pub max_interval_ms: u64,
}

impl Retry {
    /// Temporal's documented default activity retry policy: 1 s initial interval, coefficient
    /// 2.0, maximum interval 100 × the initial one, unlimited attempts.
    pub const TEMPORAL_DEFAULT: Retry = Retry {
        attempts_max: 0,
        initial_interval_ms: 1_000,
        coefficient_tenths: 20,
        max_interval_ms: 100_000,
    };

    /// Whether attempt number `attempt` (1-based) may start.
    pub fn allows(&self, attempt: u32) -> bool {
        self.attempts_max == 0 || attempt <= self.attempts_max
    }

    /// The wait before attempt `attempt + 1`, after attempt `attempt` (1-based) failed.
    pub fn backoff_ms(&self, attempt: u32) -> u64 {
        let mut wait = self.initial_interval_ms;
        for _ in 1..attempt {
            wait = (wait * self.coefficient_tenths / 10).min(self.max_interval_ms);
        }
        wait.min(self.max_interval_ms)
    }

    /// The attempts that fit before `deadline_ms` when each attempt takes `attempt_ms`.
    pub fn attempts_within(&self, attempt_ms: u64, deadline_ms: u64) -> u32 {
        let (mut t, mut n) = (0u64, 0u32);
        while self.allows(n + 1) && t + attempt_ms <= deadline_ms {
            n += 1;
            t += attempt_ms + self.backoff_ms(n);
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sorted_set_orders_and_drops_repeats() {
        assert_eq!(sorted_set([3u8, 1, 3, 2, 1]), [1, 2, 3]);
        assert_eq!(
            sorted_set([(1, 'b'), (0, 'z'), (1, 'a')]),
            [(0, 'z'), (1, 'a'), (1, 'b')]
        );
        assert!(sorted_set(Vec::<u8>::new()).is_empty());
    }

    #[test]
    fn a_crash_wipes_memory_and_a_restart_does_not_bring_it_back() {
        let mut p: Proc<Option<u8>> = Proc::new();
        p.mem = Some(17);
        p.crash();
        assert_eq!(
            p,
            Proc {
                up: false,
                mem: None
            }
        );
        p.restart();
        assert_eq!(
            p,
            Proc {
                up: true,
                mem: None
            }
        );
    }

    #[test]
    fn the_network_can_reorder_duplicate_and_lose() {
        let mut net = Net::default();
        for m in [1, 2, 3] {
            net.send(m);
        }
        assert_eq!(net.deliver(1), Some(2), "2 overtakes 1");
        assert_eq!(net.deliver_keep(0), Some(1));
        assert_eq!(net.flight, vec![1, 3], "a duplicate stays in flight");
        assert!(net.drop_msg(1));
        assert_eq!(net.deliver(5), None);
        assert_eq!(net.flight, vec![1]);
    }

    #[test]
    fn temporal_default_backoff_doubles_to_a_cap_and_never_stops_by_itself() {
        let r = Retry::TEMPORAL_DEFAULT;
        let waits: Vec<u64> = (1..=9).map(|a| r.backoff_ms(a)).collect();
        assert_eq!(
            waits,
            [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 100_000, 100_000]
        );
        assert!(r.allows(1_000_000));
        // Bounded only by time: attempts of 10 s within a 5-minute schedule-to-close.
        assert_eq!(
            r.attempts_within(10_000, 300_000),
            8,
            "starts at 0, 11, 23, 37, 55, 81, 123, 197 s"
        );
    }

    #[test]
    fn three_attempts_per_layer() {
        let r = Retry {
            attempts_max: 3,
            initial_interval_ms: 100,
            coefficient_tenths: 20,
            max_interval_ms: 1_000,
        };
        assert!(r.allows(3) && !r.allows(4));
        assert_eq!(r.attempts_within(1, 1_000_000), 3);
        assert_eq!(
            r.attempts_within(1, 1_000_000).pow(3),
            27,
            "three layers of three"
        );
    }
}
