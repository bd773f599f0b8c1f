//! The explorer's messages between the page and its worker, as plain text lines: small to
//! encode, trivial to check, and safe to decode from anything (a malformed message is an error,
//! never a panic).
//!
//! Page → worker: `<id> <scenario> <variant> <budget> <knobs>`, the knobs comma-separated (`-`
//! for the defaults).
//! Worker → page: `P <id> <states so far>` while exploring, then
//! `R <id> <states> <runs> <quiet states> <truncated 0|1> <cyclic 0|1> <milliseconds>` followed by
//! one line per invariant, tab-separated: English name, Chinese name, violating states,
//! violating runs, their share of all runs in tenths of a percent, shortest counterexample path
//! (`-` when there is none);
//! or `E <id> <reason>` when the request names no scenario.

use crate::sim::{encode_path, Report, Text};

/// A request to explore one variant with a fault budget and the scenario's knobs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub id: u32,
    pub scenario: usize,
    pub variant: usize,
    pub budget: u8,
    /// Empty for the defaults.
    pub knobs: Vec<u32>,
}

/// More knobs than any scenario has: a longer list is malformed.
const MAX_KNOBS: usize = 8;

impl Request {
    pub fn encode(&self) -> String {
        let knobs: Vec<String> = self.knobs.iter().map(u32::to_string).collect();
        let knobs = if knobs.is_empty() {
            "-".to_string()
        } else {
            knobs.join(",")
        };
        format!(
            "{} {} {} {} {knobs}",
            self.id, self.scenario, self.variant, self.budget
        )
    }

    pub fn decode(text: &str) -> Option<Request> {
        let mut it = text.split(' ');
        let mut req = Request {
            id: it.next()?.parse().ok()?,
            scenario: it.next()?.parse().ok()?,
            variant: it.next()?.parse().ok()?,
            budget: it.next()?.parse().ok()?,
            knobs: Vec::new(),
        };
        match it.next()? {
            "-" => {}
            list => {
                for k in list.split(',') {
                    req.knobs.push(k.parse().ok()?);
                }
            }
        }
        (it.next().is_none() && req.knobs.len() <= MAX_KNOBS).then_some(req)
    }
}

/// What the page learns about one invariant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvSummary {
    pub name: Text,
    pub violating_states: usize,
    /// Decimal digits: run counts exceed 64 bits, and the page neither computes with them nor
    /// carries 128-bit arithmetic (the bundle).
    pub violating_runs: String,
    /// The violating runs' share of all runs, in tenths of a percent (rounded down).
    pub permille: u16,
    /// The shortest counterexample as a URL path (`p=`).
    pub counterexample: Option<String>,
}

/// What the page learns about one exploration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub states: usize,
    /// Decimal digits (see [`InvSummary::violating_runs`]).
    pub runs: String,
    pub quiet_states: usize,
    pub truncated: bool,
    pub cyclic: bool,
    /// Wall-clock time in the worker.
    pub ms: u64,
    pub invariants: Vec<InvSummary>,
}

/// A message from the worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Progress { id: u32, states: usize },
    Done { id: u32, summary: Summary },
    Failed { id: u32, reason: String },
}

pub fn encode_progress(id: u32, states: usize) -> String {
    format!("P {id} {states}")
}

/// The failure reason when the worker could not fetch the scenario's module (the page says it
/// in its own language).
pub const NOT_FETCHED: &str = "not fetched";

pub fn encode_failure(id: u32, reason: &str) -> String {
    format!("E {id} {}", reason.replace('\n', " "))
}

pub fn encode_report(id: u32, r: &Report, ms: u64) -> String {
    let mut out = format!(
        "R {id} {} {} {} {} {} {ms}",
        r.states,
        r.runs,
        r.quiet_states,
        u8::from(r.truncated),
        u8::from(r.cyclic)
    );
    let clean = |s: &str| s.replace(['\t', '\n'], " ");
    for inv in &r.invariants {
        let path = inv
            .counterexample
            .as_deref()
            .map_or_else(|| "-".to_string(), encode_path);
        let permille = inv
            .violating_runs
            .saturating_mul(1000)
            .checked_div(r.runs)
            .unwrap_or(0);
        out.push_str(&format!(
            "\n{}\t{}\t{}\t{}\t{permille}\t{path}",
            clean(&inv.name.en),
            clean(&inv.name.zh),
            inv.violating_states,
            inv.violating_runs
        ));
    }
    out
}

/// A non-negative decimal number without leading zeros, kept as text.
fn digits(s: &str) -> Option<String> {
    let ok =
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'));
    ok.then(|| s.to_string())
}

pub fn decode_reply(text: &str) -> Option<Reply> {
    let mut lines = text.split('\n');
    let head = lines.next()?;
    let mut it = head.splitn(3, ' ');
    let kind = it.next()?;
    let id: u32 = it.next()?.parse().ok()?;
    let rest = it.next().unwrap_or_default();
    match kind {
        "P" => Some(Reply::Progress {
            id,
            states: rest.parse().ok()?,
        }),
        "E" => Some(Reply::Failed {
            id,
            reason: rest.to_string(),
        }),
        "R" => {
            let f: Vec<&str> = rest.split(' ').collect();
            let [states, runs, quiet, truncated, cyclic, ms] = f.as_slice() else {
                return None;
            };
            let flag = |s: &str| match s {
                "0" => Some(false),
                "1" => Some(true),
                _ => None,
            };
            let mut summary = Summary {
                states: states.parse().ok()?,
                runs: digits(runs)?,
                quiet_states: quiet.parse().ok()?,
                truncated: flag(truncated)?,
                cyclic: flag(cyclic)?,
                ms: ms.parse().ok()?,
                invariants: Vec::new(),
            };
            for line in lines {
                let f: Vec<&str> = line.split('\t').collect();
                let [en, zh, states, runs, permille, path] = f.as_slice() else {
                    return None;
                };
                let path_ok = path.chars().all(|c| c.is_ascii_alphanumeric());
                summary.invariants.push(InvSummary {
                    name: Text::new(*en, *zh),
                    violating_states: states.parse().ok()?,
                    violating_runs: digits(runs)?,
                    permille: permille.parse().ok().filter(|&p| p <= 1000)?,
                    counterexample: match *path {
                        "-" => None,
                        p if path_ok => Some(p.to_string()),
                        _ => return None,
                    },
                });
            }
            Some(Reply::Done { id, summary })
        }
        _ => None,
    }
}

/// What the page would receive for exploring `variant` of scenario `scenario` with its player's
/// budget: the tests' way to get a real [`Summary`] without a worker.
#[cfg(test)]
pub fn summary_of(scenario: usize, variant: usize) -> Summary {
    let r = crate::scenarios::explore(
        scenario,
        variant,
        None,
        &[],
        crate::sim::Bounds::default(),
        &mut |_| {},
    )
    .expect("registered");
    match decode_reply(&encode_report(1, &r, 10)) {
        Some(Reply::Done { summary, .. }) => summary,
        other => panic!("{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios;
    use crate::sim::Bounds;

    #[test]
    fn a_report_survives_the_trip_through_the_worker() {
        let mut seen = Vec::new();
        let r = scenarios::explore(1, 4, None, &[], Bounds::default(), &mut |n| seen.push(n))
            .expect("outbox-relay");
        assert!(seen.len() > 5 && seen.windows(2).all(|w| w[0] < w[1]));
        let Some(Reply::Done { id, summary }) = decode_reply(&encode_report(7, &r, 420)) else {
            panic!("no summary");
        };
        assert_eq!(id, 7);
        assert_eq!(
            (summary.states, summary.runs.clone(), summary.ms),
            (r.states, r.runs.to_string(), 420)
        );
        assert_eq!(summary.invariants.len(), r.invariants.len());
        for (s, i) in summary.invariants.iter().zip(&r.invariants) {
            assert_eq!(s.name, i.name);
            assert_eq!(s.violating_runs, i.violating_runs.to_string());
            assert_eq!(
                s.counterexample,
                i.counterexample.as_deref().map(encode_path)
            );
        }
        assert!(r.runs > u128::from(u64::MAX), "exact beyond 64 bits");
    }

    #[test]
    fn requests_and_small_replies_round_trip() {
        let req = Request {
            id: 3,
            scenario: 1,
            variant: 5,
            budget: 2,
            knobs: Vec::new(),
        };
        assert_eq!(Request::decode(&req.encode()), Some(req));
        let req = Request {
            knobs: vec![150, 80, 0],
            ..Request::decode("3 2 0 0 -").expect("valid")
        };
        assert_eq!(req.encode(), "3 2 0 0 150,80,0");
        assert_eq!(Request::decode(&req.encode()), Some(req));
        assert_eq!(Request::decode("3 2 0 0 1,x"), None);
        assert_eq!(Request::decode("3 2 0 0 1,2,3,4,5,6,7,8,9"), None);
        assert_eq!(
            decode_reply(&encode_progress(3, 8192)),
            Some(Reply::Progress {
                id: 3,
                states: 8192
            })
        );
        assert_eq!(
            decode_reply(&encode_failure(3, "no\nsuch scenario")),
            Some(Reply::Failed {
                id: 3,
                reason: "no such scenario".into()
            })
        );
    }

    #[test]
    fn garbage_is_rejected_without_panicking() {
        let good = encode_report(1, &crate::sim::explore(&Toy, Bounds::default()), 1);
        let mut cases: Vec<String> = vec![
            String::new(),
            "R".into(),
            "R x".into(),
            "R 1 1 1 1 2 0 1".into(),
            "P 1 -3".into(),
            "Q 1 2".into(),
            "1 2 3".into(),
            "1 2 3 4 5".into(),
            "1 2 3 999".into(),
        ];
        // Every prefix of a good report, and each byte replaced.
        for cut in 0..good.len() {
            if good.is_char_boundary(cut) {
                cases.push(good[..cut].to_string());
            }
        }
        for (i, c) in good.char_indices() {
            for bad in ['\t', '\n', ' ', 'x', '-', '9'] {
                if bad != c {
                    let mut s = good.clone();
                    s.replace_range(i..i + c.len_utf8(), &bad.to_string());
                    cases.push(s);
                }
            }
        }
        for c in &cases {
            let _ = decode_reply(c);
            let _ = Request::decode(c);
        }
        assert_eq!(Request::decode("1 2 3 999"), None, "budget is a u8");
        assert_eq!(decode_reply("R 1 1 1 1 2 0 1"), None, "flags are 0 or 1");
    }

    /// A two-state model for the garbage test: small, with one broken invariant.
    struct Toy;
    impl crate::sim::Model for Toy {
        type State = u8;
        type Act = u8;
        fn init(&self) -> u8 {
            0
        }
        fn actions(&self, s: &u8, out: &mut Vec<u8>) {
            if *s < 2 {
                out.push(1);
            }
        }
        fn is_fault(&self, _: &u8) -> bool {
            false
        }
        fn fault_budget(&self) -> u8 {
            0
        }
        fn next(&self, s: &u8, a: &u8) -> u8 {
            s + a
        }
        fn invariants(&self) -> Vec<crate::sim::Invariant<u8>> {
            vec![crate::sim::Invariant {
                name: Text::new("small", "小"),
                kind: crate::sim::InvKind::Always,
                holds: Text::same("ok"),
                check: |s| (*s > 1).then(|| Text::same("big")),
                rows: |_| Vec::new(),
            }]
        }
    }
}
