//! Replaying a path into a trace: one snapshot per step, with the invariants judged at each.

use super::model::Budgeted;
use super::{
    ArrowKind, InvKind, MetricValue, Model, PathError, Present, StateView, StepInfo, Text,
};

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
    pub view: StateView,
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

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub steps: Vec<Step>,
    /// The choice taken at each step; `steps.len() == path.len() + 1`.
    pub path: Vec<u8>,
    /// How many leading choices came from the requested path (the rest are defaults).
    pub given: usize,
    /// Why the requested path could not be followed to its end, if it could not.
    pub error: Option<PathError>,
}

impl Trace {
    /// A run of one empty step: the page's safe default should no scenario's code be there
    /// to replay (`scenarios::shown`).
    pub fn blank() -> Trace {
        Trace {
            steps: vec![Step::default()],
            path: Vec::new(),
            given: 0,
            error: None,
        }
    }

    /// The index of the last step.
    pub fn last(&self) -> usize {
        self.steps.len() - 1
    }
}

/// Replays `path` as far as it is valid, then continues with default choices (the first
/// enabled progress action) until the run is quiet.
pub fn replay<M: Present>(model: &M, path: &[u8]) -> Trace {
    let mut states = vec![Budgeted::init(model)];
    let mut taken: Vec<u8> = Vec::new();
    let mut actions = Vec::new();
    let mut error = None;

    for (at, &choice) in path.iter().enumerate() {
        let state = &states[at];
        actions.clear();
        state.actions(model, &mut actions);
        if at >= MAX_STEPS {
            error = Some(too_long(at));
            break;
        }
        let Some(action) = actions.get(choice as usize) else {
            let (n, c) = (actions.len(), choice as usize + 1);
            let reason = if n == 0 {
                Text::new(
                    format!("the run is over at step {at}"),
                    format!("运行在第 {at} 步已结束"),
                )
            } else {
                let noun = if n == 1 { "choice" } else { "choices" };
                Text::new(
                    format!("step {at} offers {n} {noun}, not choice {c}"),
                    format!("第 {at} 步只有 {n} 个选项，没有第 {c} 个"),
                )
            };
            error = Some(PathError { at, reason });
            break;
        };
        let next = state.next(model, action);
        states.push(next);
        taken.push(choice);
    }
    let given = taken.len();

    while taken.len() < MAX_STEPS {
        let Some(state) = states.last() else { break };
        actions.clear();
        state.actions(model, &mut actions);
        let Some(index) = actions.iter().position(|a| !model.is_fault(a)) else {
            break;
        };
        let next = state.next(model, &actions[index]);
        states.push(next);
        taken.push(index as u8);
    }

    let steps = snapshots(model, &states, &taken);
    Trace {
        steps,
        path: taken,
        given,
        error,
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

fn too_long(at: usize) -> PathError {
    PathError {
        at,
        reason: Text::new(
            format!("a run is at most {MAX_STEPS} steps"),
            format!("一次运行最多 {MAX_STEPS} 步"),
        ),
    }
}

fn snapshots<M: Present>(model: &M, states: &[Budgeted<M::State>], path: &[u8]) -> Vec<Step> {
    let mut actions = Vec::new();
    let mut steps: Vec<Step> = Vec::with_capacity(states.len());
    for (t, run) in states.iter().enumerate() {
        let state = &run.state;
        actions.clear();
        run.actions(model, &mut actions);
        let choices = actions
            .iter()
            .enumerate()
            .map(|(i, a)| Choice {
                index: i as u8,
                key: action_key(a),
                label: model.label(state, a),
                fault: model.is_fault(a),
            })
            .collect::<Vec<_>>();
        let quiet = choices.iter().all(|c| c.fault);
        let (info, fault) = if t == 0 {
            let info = StepInfo {
                title: Text::new("Start", "开始"),
                narration: model.intro(),
                ..StepInfo::default()
            };
            (info, false)
        } else {
            let mut prev_actions = Vec::new();
            states[t - 1].actions(model, &mut prev_actions);
            let action = &prev_actions[path[t - 1] as usize];
            (
                model.describe(&states[t - 1].state, action, state),
                model.is_fault(action),
            )
        };
        let mut view = model.view(state);
        if let Some(prev) = steps.last() {
            mark_changes(&prev.view, &mut view);
        }
        date_waits(steps.last().map(|s| &s.view), &mut view, t);
        steps.push(Step {
            view,
            info,
            fault,
            choices,
            quiet,
            verdicts: Vec::new(),
        });
    }
    count_copies(&mut steps);
    judge(model, states, &mut steps);
    steps
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

/// Fills in when each waiting item of an `Oldest` metric started waiting: the step it first
/// appeared in an unbroken run of steps that list it.
fn date_waits(prev: Option<&StateView>, view: &mut StateView, step: usize) {
    for (i, metric) in view.metrics.iter_mut().enumerate() {
        let MetricValue::Oldest { keys, since } = &mut metric.value else {
            continue;
        };
        let before = prev.and_then(|p| match p.metrics.get(i).map(|m| &m.value) {
            Some(MetricValue::Oldest { keys, since }) => Some((keys, since)),
            _ => None,
        });
        *since = keys
            .iter()
            .map(|k| {
                before
                    .and_then(|(ks, ss)| ks.iter().position(|x| x == k).and_then(|j| ss.get(j)))
                    .copied()
                    .unwrap_or(step)
            })
            .collect();
    }
}

/// Judges every invariant at every step. Violations are sticky: a run that broke a property
/// stays broken even if a later state looks fine. The sentence is the state's own at each step
/// (the counters keep moving after the first violation), followed by where it first broke and
/// what caused it.
fn judge<M: Present>(model: &M, states: &[Budgeted<M::State>], steps: &mut [Step]) {
    for inv in model.invariants() {
        // (first violating step, its cause, the sentence then)
        let mut violated: Option<(usize, Option<usize>, Text)> = None;
        let mut unmet_since: Option<usize> = None;
        for t in 0..states.len() {
            let outcome = (inv.check)(&states[t].state);
            unmet_since = match outcome {
                Some(_) => unmet_since.or(Some(t)),
                None => None,
            };
            if violated.is_none() {
                if let Some(why) = &outcome {
                    if inv.kind == InvKind::Always || steps[t].quiet {
                        let opened = match inv.kind {
                            InvKind::Always => t,
                            InvKind::Eventually => unmet_since.unwrap_or(t),
                        };
                        violated = Some((t, cause_of(steps, inv.kind, opened, t), why.clone()));
                    }
                }
            }
            let verdict = match (&violated, outcome) {
                (Some((since, cause, first)), now) => Verdict {
                    name: inv.name.clone(),
                    kind: inv.kind,
                    status: Status::Violated,
                    since: Some(*since),
                    cause: Some(cause.unwrap_or(*since)),
                    why: violation_sentence(
                        steps,
                        now.as_ref().unwrap_or(first),
                        *since,
                        *cause,
                        t,
                    ),
                    rows: (inv.rows)(&states[t].state),
                },
                (None, Some(why)) => Verdict {
                    name: inv.name.clone(),
                    kind: inv.kind,
                    status: Status::Pending,
                    since: None,
                    cause: None,
                    why,
                    rows: Vec::new(),
                },
                (None, None) => Verdict {
                    name: inv.name.clone(),
                    kind: inv.kind,
                    status: Status::Holds,
                    since: None,
                    cause: None,
                    why: inv.holds.clone(),
                    rows: Vec::new(),
                },
            };
            steps[t].verdicts.push(verdict);
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
