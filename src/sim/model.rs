//! The [`Model`] trait: a deterministic, finite state machine with named invariants.

use super::{Kept, StateView, StepInfo, Text};
use std::fmt::Debug;
use std::hash::Hash;

/// When an invariant is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvKind {
    /// A safety property: must hold in every state of every run.
    Always,
    /// A liveness property: judged when the run is quiet (no progress action is enabled).
    /// Before that, an unmet condition is only *pending*.
    Eventually,
}

/// A named property of states. `check` returns `None` when the property is met in `state`,
/// or a one-sentence explanation naming the rows or events that break it.
pub struct Invariant<S> {
    pub name: Text,
    pub kind: InvKind,
    /// One sentence saying what "holds" means, shown while the property is met.
    pub holds: Text,
    pub check: fn(&S) -> Option<Text>,
    /// The table rows a violation is about in `state` (table key, row key): highlighted when
    /// the invariant is violated, so the evidence stands out from the rest of the state.
    pub rows: fn(&S) -> Vec<RowRef>,
}

/// A row of a state table: the table's key and the row's key.
pub type RowRef = (&'static str, String);

/// A scenario variant as a state machine.
///
/// Faults (crashes, rollbacks, lost acknowledgements) are ordinary actions that the model marks
/// with `is_fault` and enables at their injection points. The budget is the engine's: it counts
/// the faults a run has taken and stops offering them once `fault_budget` is spent, so a model
/// neither counts nor checks. Everything is deterministic: `actions` lists the enabled actions
/// in a fixed order and `next` is a pure function.
pub trait Model {
    /// Durable and volatile state together. The explorer deduplicates states by `Hash` and
    /// `Eq`; state ids follow the breadth-first order, so no result depends on hash order.
    type State: Clone + Ord + Hash + Debug;
    type Act: Clone + Debug + PartialEq;

    fn init(&self) -> Self::State;
    /// The enabled actions in a fixed order, faults included whatever the budget. The engine
    /// offers progress actions first and faults after them (a stable partition): the default
    /// continuation of a run takes the first action that is not a fault.
    fn actions(&self, state: &Self::State, out: &mut Vec<Self::Act>);
    fn is_fault(&self, action: &Self::Act) -> bool;
    /// How many faults one run may take.
    fn fault_budget(&self) -> u8;
    /// The transition. Only called with an action that `actions` returned for `state`.
    fn next(&self, state: &Self::State, action: &Self::Act) -> Self::State;
    fn invariants(&self) -> Vec<Invariant<Self::State>>;
}

/// A state as the engine keeps it: the model's, and the faults the run has taken to reach it.
/// Two runs that reach the same model state with different budgets left are different states.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Budgeted<S> {
    pub state: S,
    pub faults: u8,
}

impl<S> Budgeted<S> {
    pub fn init<M: Model<State = S>>(model: &M) -> Budgeted<S> {
        Budgeted {
            state: model.init(),
            faults: 0,
        }
    }

    /// The actions offered here: the model's, progress first, faults only while the budget lasts.
    pub fn actions<M: Model<State = S>>(&self, model: &M, out: &mut Vec<M::Act>) {
        model.actions(&self.state, out);
        if self.faults >= model.fault_budget() {
            out.retain(|a| !model.is_fault(a));
            return;
        }
        // A stable partition by moving each fault to the end in turn: a slice sort or a
        // `partition` would add a routine per action type to both bundles (1.2 KB gzip each).
        if out.is_sorted_by_key(|a| model.is_fault(a)) {
            return;
        }
        let mut i = 0;
        for _ in 0..out.len() {
            if model.is_fault(&out[i]) {
                let fault = out.remove(i);
                out.push(fault);
            } else {
                i += 1;
            }
        }
    }

    pub fn next<M: Model<State = S>>(&self, model: &M, action: &M::Act) -> Budgeted<S> {
        // `next`'s precondition, which lets a model skip re-checking it: the exhaustive tests
        // (debug builds) take every enabled action of every reachable state through here.
        debug_assert!(
            {
                let mut enabled = Vec::new();
                self.actions(model, &mut enabled);
                enabled.contains(action)
            },
            "next called with an action that is not enabled: {action:?}"
        );
        Budgeted {
            state: model.next(&self.state, action),
            faults: self.faults + u8::from(model.is_fault(action)),
        }
    }
}

/// How a [`Model`] is shown: button labels, the state's tables and drawings, and narration.
///
/// The explorer and its worker need only [`Model`]; the page's player needs this too. Keeping
/// the two apart is what keeps a scenario's text and drawings out of the explorer's worker.
pub trait Present: Model {
    /// What a button offering `action` in `state` says ("Crash order service").
    fn label(&self, state: &Self::State, action: &Self::Act) -> Text;
    /// The projection of a state to plain view data.
    fn view(&self, state: &Self::State) -> StateView;
    /// What happened in a step: marks, messages and narration.
    fn describe(&self, before: &Self::State, action: &Self::Act, after: &Self::State) -> StepInfo;
    /// Narration for step 0, before anything happened.
    fn intro(&self) -> Text;
    /// What the replay keeps of `state`'s view for every step (views are drawn on demand).
    /// Read from the view unless a model says it directly because its view is costly: then a
    /// test holds the two equal in every reachable state.
    fn kept(&self, state: &Self::State) -> Kept {
        Kept::of(&self.view(state))
    }
}

/// What `next` needs of the state to take an action that `actions` offers only when it holds
/// (the relay's claimed event, the job in hand). Checked in debug builds, where the exhaustive
/// tests take every enabled action of every reachable state; in release the step changes less
/// rather than panicking (one panic would take the page down).
pub fn given<T>(found: Option<T>, what: &str) -> Option<T> {
    debug_assert!(found.is_some(), "next without its precondition: {what}");
    found
}
