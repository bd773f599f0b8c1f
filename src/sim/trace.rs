//! A trace: a run's steps, with the invariants judged at each (the replay is `replay.rs`).

use std::sync::{Arc, Mutex};

use super::model::Budgeted;
use super::replay::Views;
use super::{InvKind, Invariant, Model, PathError, StateView, StepInfo, Text};

/// Runs longer than this are cut off. The longest run of the knobs' range is retry layering's
/// 5 attempts × 4 layers: 625 calls, one step each.
pub const MAX_STEPS: usize = 700;

/// An action the learner may take at a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub index: u8,
    /// The action's stable word ([`action_key`]): what [`follow`] and run files match, so a
    /// copy edit of a label changes no behaviour.
    pub key: String,
    pub label: Text,
    pub fault: bool,
}

/// An action's stable word: its name in the model, in kebab case, with its arguments
/// (`SvcCrash` → `svc-crash`, `Exec(1)` → `exec-1`). It changes only when the model's action
/// is renamed, which the tests that pin paths by key would notice.
pub fn action_key(action: &impl std::fmt::Debug) -> String {
    let mut key = String::new();
    let mut prev = '-';
    for c in format!("{action:?}").chars() {
        let c = if c.is_ascii_alphanumeric() { c } else { '-' };
        let boundary =
            c.is_ascii_uppercase() && (prev.is_ascii_lowercase() || prev.is_ascii_digit());
        if (boundary || c == '-') && !key.ends_with('-') && !key.is_empty() {
            key.push('-');
        }
        if c != '-' {
            key.push(c.to_ascii_lowercase());
        }
        prev = c;
    }
    key.trim_end_matches('-').to_string()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Holds,
    /// An `eventually` property not yet met while the run can still make progress.
    Pending,
    Violated,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub name: Text,
    pub kind: InvKind,
    pub status: Status,
    /// For a violation: the step at which it was first seen.
    pub since: Option<usize>,
    /// For a violation: the step that caused it (the fault that opened the gap, if any).
    pub cause: Option<usize>,
    /// One sentence on why the status is what it is, naming rows and events.
    pub why: Text,
    /// For a violation: the table rows it is about in this step's state.
    pub rows: Vec<super::RowRef>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Step {
    /// Which lanes are down (crashed), in the lanes' order: the timeline shades every step's,
    /// so it is kept with the step rather than read from its view ([`Trace::view`]).
    pub down: Vec<bool>,
    /// What the action leading to this step did (for step 0: the scenario's introduction).
    pub info: StepInfo,
    /// The action leading here was a fault.
    pub fault: bool,
    /// Actions enabled in this step's state, in the model's order.
    pub choices: Vec<Choice>,
    /// No progress action is enabled: `eventually` properties are judged here.
    pub quiet: bool,
    pub verdicts: Vec<Verdict>,
}

/// How many views a trace keeps after drawing them: the step shown, the one compared with it,
/// and a step either side of them.
const VIEWS_KEPT: usize = 4;

pub struct Trace {
    pub steps: Vec<Step>,
    /// The choice taken at each step; `steps.len() == path.len() + 1`.
    pub path: Vec<u8>,
    /// How many leading choices came from the requested path (the rest are defaults).
    pub given: usize,
    /// Why the requested path could not be followed to its end, if it could not.
    pub error: Option<PathError>,
    /// Draws a step's view again; `None` for the blank trace.
    views: Option<Arc<dyn Views>>,
    /// What was replayed (the scenario's type, the variant, the knobs), when known: two traces
    /// of the same origin and path have the same views, so equality need not build them.
    origin: Option<(std::any::TypeId, usize, Vec<u32>)>,
    /// The views drawn last, newest first.
    kept: Mutex<Vec<(usize, Arc<StateView>)>>,
}

impl Trace {
    pub(super) fn new(
        steps: Vec<Step>,
        path: Vec<u8>,
        given: usize,
        error: Option<PathError>,
        views: Arc<dyn Views>,
    ) -> Trace {
        Trace {
            steps,
            path,
            given,
            error,
            views: Some(views),
            origin: None,
            kept: Mutex::default(),
        }
    }

    /// A run of one empty step: the page's safe default should no scenario's code be there
    /// to replay (`scenarios::shown`).
    pub fn blank() -> Trace {
        Trace {
            steps: vec![Step::default()],
            path: Vec::new(),
            given: 0,
            error: None,
            views: None,
            origin: None,
            kept: Mutex::default(),
        }
    }

    /// Names what was replayed, so that equal traces are known equal without their views.
    pub fn from_origin(
        mut self,
        scenario: std::any::TypeId,
        variant: usize,
        knobs: &[u32],
    ) -> Trace {
        self.origin = Some((scenario, variant, knobs.to_vec()));
        self
    }

    /// The index of the last step.
    pub fn last(&self) -> usize {
        self.steps.len() - 1
    }

    /// The state at step `t` (past the end: the last) as tables, lanes and drawings, with the
    /// rows that changed since the step before marked. Built on demand from the nearest kept
    /// state; the last few drawn are kept.
    pub fn view(&self, t: usize) -> Arc<StateView> {
        let t = t.min(self.last());
        let Some(views) = &self.views else {
            return Arc::default();
        };
        let view = self.kept(|kept| {
            let i = kept.iter().position(|(at, _)| *at == t)?;
            Some(kept.remove(i).1)
        });
        // Drawn with the lock released: a wasm page has one thread, and its `Mutex` panics
        // rather than wait, so nothing runs while it is held but these few lines.
        let view = view.unwrap_or_else(|| {
            let before = t.checked_sub(1).and_then(|b| {
                self.kept(|kept| kept.iter().find(|(at, _)| *at == b).map(|(_, v)| v.clone()))
            });
            Arc::new(views.view(t, before.as_deref()))
        });
        self.kept(|kept| {
            kept.insert(0, (t, view.clone()));
            kept.truncate(VIEWS_KEPT);
        });
        view
    }

    fn kept<R>(&self, f: impl FnOnce(&mut Vec<(usize, Arc<StateView>)>) -> R) -> R {
        f(&mut self.kept.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

impl Clone for Trace {
    fn clone(&self) -> Trace {
        Trace {
            steps: self.steps.clone(),
            path: self.path.clone(),
            given: self.given,
            error: self.error.clone(),
            views: self.views.clone(),
            origin: self.origin.clone(),
            kept: Mutex::default(),
        }
    }
}

impl PartialEq for Trace {
    /// Equal steps, path and origin. Without an origin (a model replayed directly), only the
    /// same replay is known to have the same views.
    fn eq(&self, other: &Trace) -> bool {
        let same_views = match (&self.origin, &other.origin) {
            (Some(a), Some(b)) => a == b,
            (None, None) => match (&self.views, &other.views) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (a, b) => a.is_none() && b.is_none(),
            },
            _ => false,
        };
        same_views
            && self.path == other.path
            && self.given == other.given
            && self.error == other.error
            && self.steps == other.steps
    }
}

impl Eq for Trace {}

impl std::fmt::Debug for Trace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Trace")
            .field("steps", &self.steps)
            .field("path", &self.path)
            .field("given", &self.given)
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

/// The path that takes, step by step, the action with the same key as `keys` does, or the
/// default (first progress action) where no action has that key: the same fault schedule on
/// another variant of a scenario (the compare view).
pub fn follow<M: Model>(model: &M, keys: &[String]) -> Vec<u8> {
    let mut state = Budgeted::init(model);
    let mut path = Vec::new();
    let mut actions = Vec::new();
    for key in keys {
        actions.clear();
        state.actions(model, &mut actions);
        let same = actions.iter().position(|a| action_key(a) == *key);
        let Some(i) = same.or_else(|| actions.iter().position(|a| !model.is_fault(a))) else {
            break;
        };
        state = state.next(model, &actions[i]);
        path.push(i as u8);
    }
    path
}

impl Trace {
    /// The key of each action taken, in order (what [`follow`] matches).
    pub fn keys(&self) -> Vec<String> {
        self.steps
            .iter()
            .zip(&self.path)
            .filter_map(|(s, &c)| s.choices.get(c as usize).map(|c| c.key.clone()))
            .collect()
    }
}

pub(super) fn too_long(at: usize) -> PathError {
    PathError {
        at,
        reason: Text::new(
            format!("a run is at most {MAX_STEPS} steps"),
            format!("一次运行最多 {MAX_STEPS} 步"),
        ),
    }
}

/// Judges one invariant step by step as the replay reaches each. Violations are sticky: a
/// run that broke a property stays broken even if a later state looks fine. The sentence is
/// the state's own at each step (the counters keep moving after the first violation),
/// followed by where it first broke and what caused it.
pub(super) struct Judge<S> {
    inv: Invariant<S>,
    /// The first violating step, its cause, and the sentence then.
    violated: Option<(usize, Option<usize>, Text)>,
    unmet_since: Option<usize>,
}

impl<S> Judge<S> {
    pub fn new(inv: Invariant<S>) -> Self {
        Judge {
            inv,
            violated: None,
            unmet_since: None,
        }
    }

    /// The verdict at step `t` (the last of `steps`), whose state is `state`.
    pub fn verdict(&mut self, state: &S, steps: &[Step], t: usize) -> Verdict {
        let inv = &self.inv;
        let outcome = (inv.check)(state);
        self.unmet_since = match outcome {
            Some(_) => self.unmet_since.or(Some(t)),
            None => None,
        };
        if let (None, Some(why)) = (&self.violated, &outcome) {
            if inv.kind == InvKind::Always || steps[t].quiet {
                let opened = match inv.kind {
                    InvKind::Always => t,
                    InvKind::Eventually => self.unmet_since.unwrap_or(t),
                };
                self.violated = Some((t, cause_of(steps, inv.kind, opened, t), why.clone()));
            }
        }
        let (status, since, cause, why, rows) = match (&self.violated, outcome) {
            (Some((since, cause, first)), now) => (
                Status::Violated,
                Some(*since),
                Some(cause.unwrap_or(*since)),
                violation_sentence(steps, now.as_ref().unwrap_or(first), *since, *cause, t),
                (inv.rows)(state),
            ),
            (None, Some(why)) => (Status::Pending, None, None, why, Vec::new()),
            (None, None) => (Status::Holds, None, None, inv.holds.clone(), Vec::new()),
        };
        Verdict {
            name: inv.name.clone(),
            kind: inv.kind,
            status,
            since,
            cause,
            why,
            rows,
        }
    }
}

/// The latest fault that could have opened the gap seen at step `t`: for a safety property any
/// earlier fault (a crash long before the duplicate it causes), for a liveness property one
/// since it became unmet at `opened`.
fn cause_of(steps: &[Step], kind: InvKind, opened: usize, t: usize) -> Option<usize> {
    let from = match kind {
        InvKind::Always => 1,
        InvKind::Eventually => opened.max(1),
    };
    (from..=t).rev().find(|&j| steps[j].fault)
}

/// A violated invariant's sentence at step `t`: what the state says now, then (after the first
/// violating step) where it first broke, and its cause.
fn violation_sentence(
    steps: &[Step],
    now: &Text,
    since: usize,
    cause: Option<usize>,
    t: usize,
) -> Text {
    let mut why = now.clone();
    if t > since {
        why = why.then(&Text::new(
            format!("First broken at step {since}."),
            format!("第 {since} 步首次被破坏。"),
        ));
    }
    match cause {
        Some(j) => why.then(&Text::new(
            format!("Cause: step {j}, {}.", steps[j].info.title.en),
            format!("原因：第 {j} 步，{}。", steps[j].info.title.zh),
        )),
        None => why,
    }
}
