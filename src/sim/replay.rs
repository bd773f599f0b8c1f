//! Replaying a path into a trace: each step's small facts at once (what happened, the choices,
//! the verdicts), its view of the state on demand.
//!
//! A view per step kept forever held 56 MB of wasm memory on retry layering's 625-step run:
//! its call chart repeats every span before it, so the run's views grow with the square of
//! its length. Now the trace keeps every [`EVERY`]th state and builds a view again from the
//! nearest of them when the player shows that step.

use std::sync::Arc;

use crate::tx;

use super::model::Budgeted;
use super::trace::{too_long, Judge, Step, Trace, MAX_STEPS};
use super::PathError;
use super::{action_key, ArrowKind, Choice, Kept, MetricValue, Present, StateView, StepInfo, Text};

/// Every this many steps the replay keeps the state, so that a view is at most this many
/// transitions away from one (the 625-step run keeps 20 states, not 626).
const EVERY: usize = 32;

/// What draws any step's view again (a [`Trace`] keeps it behind a trait object, so that the
/// page is not generic over models).
pub(super) trait Views: Send + Sync {
    /// Step `t`'s view, with the rows changed since `before` (step `t - 1`'s view, if it is at
    /// hand: stepping forward has just drawn it) marked.
    fn view(&self, t: usize, before: Option<&StateView>) -> StateView;
}

struct Replayed<M: Present> {
    model: M,
    path: Vec<u8>,
    /// The states at steps 0, `EVERY`, 2 × `EVERY`, …
    marks: Vec<Budgeted<M::State>>,
    /// For each step, when each waiting item of each `Oldest` metric (by its index) started
    /// waiting: it depends on every step before, so it is worked out once, in order.
    waits: Vec<Waits>,
}

type Waits = Vec<(usize, Vec<usize>)>;

impl<M: Present + Send + Sync> Views for Replayed<M>
where
    M::State: Send + Sync,
{
    fn view(&self, t: usize, before: Option<&StateView>) -> StateView {
        let t = t.min(self.path.len());
        // Without the step before's view, start a step early to draw it too.
        let from = if before.is_some() {
            t
        } else {
            t.saturating_sub(1)
        } / EVERY
            * EVERY;
        let Some(mut state) = self.marks.get(from / EVERY).cloned() else {
            return StateView::default(); // not reached: step 0 is always kept
        };
        let mut previous = None;
        let mut actions = Vec::new();
        for &choice in &self.path[from..t] {
            actions.clear();
            state.actions(&self.model, &mut actions);
            let Some(action) = actions.get(choice as usize) else {
                break;
            };
            let next = state.next(&self.model, action);
            previous = Some(std::mem::replace(&mut state, next));
        }
        let mut view = self.model.view(&state.state);
        match (before, previous) {
            (Some(before), _) if t > 0 => mark_changes(before, &mut view),
            (None, Some(p)) => mark_changes(&self.model.view(&p.state), &mut view),
            _ => {}
        }
        for (i, dated) in self.waits.get(t).into_iter().flatten() {
            if let Some(MetricValue::Oldest { since, .. }) =
                view.metrics.get_mut(*i).map(|m| &mut m.value)
            {
                since.clone_from(dated);
            }
        }
        view
    }
}

/// A model a trace can keep, to draw its views later: every scenario's is one.
pub trait Replayable:
    Present<State: Send + Sync + 'static> + Clone + Send + Sync + 'static
{
}

impl<M> Replayable for M where
    M: Present<State: Send + Sync + 'static> + Clone + Send + Sync + 'static
{
}

/// Replays `path` as far as it is valid, then continues with default choices (the first
/// enabled progress action) until the run is quiet.
pub fn replay<M: Replayable>(model: &M, path: &[u8]) -> Trace {
    let mut run = Recorder::new(model);
    let mut state = Budgeted::init(model);
    let mut before: Option<(Budgeted<M::State>, M::Act)> = None;
    let mut actions = Vec::new();
    let (mut taken, mut given, mut error) = (Vec::new(), None, None);
    loop {
        let t = taken.len();
        actions.clear();
        state.actions(model, &mut actions);
        run.record(&state, &actions, before.as_ref());
        let mut index = None;
        if given.is_none() && t < path.len() {
            match chosen(&actions, path[t], t) {
                Ok(i) => index = Some(i),
                Err(e) => (error, given) = (Some(e), Some(t)),
            }
        }
        let index = index.or_else(|| {
            given.get_or_insert(t);
            (t < MAX_STEPS)
                .then(|| actions.iter().position(|a| !model.is_fault(a)))
                .flatten()
        });
        let Some(index) = index else { break };
        let action = actions.swap_remove(index);
        let next = state.next(model, &action);
        before = Some((std::mem::replace(&mut state, next), action));
        taken.push(index as u8);
    }
    run.finish(taken, given.unwrap_or(0), error)
}

/// The index of `choice` among `actions` at step `at`, or why the path stops there.
fn chosen<A>(actions: &[A], choice: u8, at: usize) -> Result<usize, PathError> {
    if at >= MAX_STEPS {
        return Err(too_long(at));
    }
    let (n, c) = (actions.len(), choice as usize + 1);
    if (choice as usize) < n {
        return Ok(choice as usize);
    }
    let reason = if n == 0 {
        tx!("the run is over at step {at}", "运行在第 {at} 步已结束")
    } else {
        let noun = if n == 1 { "choice" } else { "choices" };
        tx!(
            "step {at} offers {n} {noun}, not choice {c}",
            "第 {at} 步只有 {n} 个选项，没有第 {c} 个"
        )
    };
    Err(PathError { at, reason })
}

/// Collects a trace's steps as the replay reaches them.
struct Recorder<M: Present> {
    model: M,
    steps: Vec<Step>,
    judges: Vec<Judge<M::State>>,
    marks: Vec<Budgeted<M::State>>,
    waits: Vec<Waits>,
    /// What was kept of the last step, for dating the next one's waits.
    last: Option<Kept>,
}

impl<M: Replayable> Recorder<M> {
    fn new(model: &M) -> Self {
        Recorder {
            model: model.clone(),
            steps: Vec::new(),
            judges: model.invariants().into_iter().map(Judge::new).collect(),
            marks: Vec::new(),
            waits: Vec::new(),
            last: None,
        }
    }

    /// Records the step at `state`, reached from `before` by its action.
    fn record(
        &mut self,
        state: &Budgeted<M::State>,
        actions: &[M::Act],
        before: Option<&(Budgeted<M::State>, M::Act)>,
    ) {
        let (model, t) = (&self.model, self.steps.len());
        if t % EVERY == 0 {
            self.marks.push(state.clone());
        }
        let choices: Vec<Choice> = actions
            .iter()
            .enumerate()
            .map(|(i, a)| Choice {
                index: i as u8,
                key: action_key(a),
                label: model.label(&state.state, a),
                fault: model.is_fault(a),
            })
            .collect();
        let (info, fault) = match before {
            None => (intro(model.intro()), false),
            Some((b, a)) => (model.describe(&b.state, a, &state.state), model.is_fault(a)),
        };
        let kept = model.kept(&state.state);
        let before = self.last.as_ref().zip(self.waits.last());
        self.waits.push(date_waits(before, &kept, t));
        self.steps.push(Step {
            down: kept.down.clone(),
            info,
            fault,
            quiet: choices.iter().all(|c| c.fault),
            choices,
            verdicts: Vec::new(),
        });
        self.last = Some(kept);
        for judge in &mut self.judges {
            let verdict = judge.verdict(&state.state, &self.steps, t);
            self.steps[t].verdicts.push(verdict);
        }
    }

    fn finish(mut self, path: Vec<u8>, given: usize, error: Option<PathError>) -> Trace {
        count_copies(&mut self.steps);
        // Kept for as long as the run is shown: not a third more than it holds.
        self.steps.shrink_to_fit();
        let views = Replayed {
            model: self.model,
            path: path.clone(),
            marks: self.marks,
            waits: self.waits,
        };
        Trace::new(self.steps, path, given, error, Arc::new(views))
    }
}

fn intro(narration: Text) -> StepInfo {
    StepInfo {
        title: Text::new("Start", "开始"),
        narration,
        ..StepInfo::default()
    }
}

/// Numbers each duplicate arrow by the copies of its message that arrived before it (same
/// label, same receiver), so the drawing can say "×2".
fn count_copies(steps: &mut [Step]) {
    let mut seen: Vec<(usize, String)> = Vec::new();
    for step in steps.iter_mut() {
        for a in &mut step.info.arrows {
            if !matches!(a.kind, ArrowKind::Message | ArrowKind::Duplicate) {
                continue;
            }
            let key = (a.to, a.label.en.clone());
            if a.kind == ArrowKind::Duplicate {
                let before = seen.iter().filter(|k| **k == key).count();
                a.copy = u8::try_from(before + 1).unwrap_or(u8::MAX);
            }
            seen.push(key);
        }
    }
}

fn mark_changes(prev: &StateView, view: &mut StateView) {
    for table in &mut view.tables {
        let before = prev.tables.iter().find(|t| t.key == table.key);
        for row in &mut table.rows {
            let old = before.and_then(|t| t.rows.iter().find(|r| r.key == row.key));
            row.changed = old.is_none_or(|old| old.cells != row.cells || old.faint != row.faint);
        }
    }
}

/// When each item waiting in an `Oldest` metric started waiting: the step it first appeared
/// in an unbroken run of steps that list it.
fn date_waits(before: Option<(&Kept, &Waits)>, kept: &Kept, step: usize) -> Waits {
    let dated = |i: usize, key: &String| {
        let (was, since) = before?;
        let keys = &was.waiting.iter().find(|w| w.0 == i)?.1;
        let since = &since.iter().find(|s| s.0 == i)?.1;
        since.get(keys.iter().position(|k| k == key)?).copied()
    };
    (kept.waiting.iter())
        .map(|(i, keys)| {
            (
                *i,
                keys.iter().map(|k| dated(*i, k).unwrap_or(step)).collect(),
            )
        })
        .collect()
}
