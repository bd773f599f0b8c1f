//! The [`Model`] trait: a deterministic, finite state machine with named invariants.

use super::{StateView, StepInfo, Text};
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
/// Faults (crashes, rollbacks, lost acknowledgements) are ordinary actions: the model enables
/// them at their injection points while its fault budget lasts. Everything is deterministic:
/// `actions` lists the enabled actions in a fixed order and `next` is a pure function.
pub trait Model {
    /// Durable and volatile state together. The explorer deduplicates states by `Hash` and
    /// `Eq`; state ids follow the breadth-first order, so no result depends on hash order.
    type State: Clone + Ord + Hash + Debug;
    type Act: Clone + Debug + PartialEq;

    fn init(&self) -> Self::State;
    /// The enabled actions in a fixed order. Progress actions first, faults after them: the
    /// default continuation of a run takes the first action that is not a fault.
    fn actions(&self, state: &Self::State, out: &mut Vec<Self::Act>);
    fn is_fault(&self, action: &Self::Act) -> bool;
    /// The transition. Only called with an action that `actions` returned for `state`.
    fn next(&self, state: &Self::State, action: &Self::Act) -> Self::State;
    fn invariants(&self) -> Vec<Invariant<Self::State>>;
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
}
