//! The pure engine: models, traces, paths and the exhaustive explorer.
//!
//! Nothing here knows about the browser. A scenario implements [`Model`]; the engine replays a
//! path of choices into a [`Trace`] (each step's facts, its view drawn on demand) and
//! explores every path within [`Bounds`] to prove or break each invariant.
mod explore;
pub mod kit;
mod model;
mod path;
mod replay;
mod text;
mod trace;
mod view;

pub use explore::{explore, explore_with, Bounds, InvariantReport, Report, PROGRESS_EVERY};
pub use model::{given, InvKind, Invariant, Model, Present, RowRef};
pub use path::{decode_path, encode_path, PathError, MAX_CHOICES};
pub use replay::{replay, Replayable};
pub use text::{counted, grouped, Lang, Text};
pub use trace::{action_key, follow, Choice, Status, Step, Trace, Verdict, MAX_STEPS};
pub use view::{
    arrow, mark, Arrow, ArrowKind, CodeView, Cursor, Figure, FigureBody, Kept, LaneView, LedgerRow,
    Level, Mark, MarkKind, Meter, Metric, MetricValue, Plot, RowView, Series, Span, SpanChart,
    StateView, StepInfo, TableView, Tone, TreeItem, Unit,
};

/// Scenario and variant descriptions shown in pickers and headings.
#[derive(Clone, Debug)]
pub struct VariantMeta {
    pub slug: &'static str,
    pub name: Text,
    pub blurb: Text,
    /// A variant that is meant to hold every invariant (a fix, not a mistake).
    pub fixed: bool,
    /// How many faults the player (and its explorer) allows in one run of this variant.
    pub fault_budget: u8,
    /// For a mistake: the slug of the variant that fixes it (the explorer's "prove the fix").
    pub fixed_by: Option<&'static str>,
    /// For a mistake: its canonical failing path ("Watch it fail"), as a link writes it — a
    /// shortest counterexample of the invariant it breaks first, which a test holds equal in
    /// length to the explorer's.
    pub fails: Option<&'static str>,
    /// One line on the move to try ("Step to 2, then ⚡ crash the order service").
    pub hint: Text,
}

impl VariantMeta {
    /// A mistake: a variant that breaks an invariant, with its name and one-line blurb in both
    /// languages; `fault_budget`, `fixed_by` and its failing path are set by the scenario.
    pub fn mistake(slug: &'static str, name: [&str; 2], blurb: [&str; 2]) -> VariantMeta {
        VariantMeta {
            slug,
            name: Text::new(name[0], name[1]),
            blurb: Text::new(blurb[0], blurb[1]),
            fixed: false,
            fault_budget: 0,
            fixed_by: None,
            fails: None,
            hint: Text::default(),
        }
    }

    /// A fix: a variant meant to hold every invariant.
    pub fn fix(slug: &'static str, name: [&str; 2], blurb: [&str; 2]) -> VariantMeta {
        VariantMeta {
            fixed: true,
            ..VariantMeta::mistake(slug, name, blurb)
        }
    }

    /// A mistake's canonical failing path (as a link writes it) and the move to try.
    pub fn failing(self, path: &'static str, hint: [&str; 2]) -> VariantMeta {
        VariantMeta {
            fails: Some(path),
            ..self.hinted(hint)
        }
    }

    /// The move to try (for a fix: what it withstands).
    pub fn hinted(self, hint: [&str; 2]) -> VariantMeta {
        VariantMeta {
            hint: Text::new(hint[0], hint[1]),
            ..self
        }
    }
}

#[derive(Clone, Debug)]
pub struct ScenarioMeta {
    pub slug: &'static str,
    /// The group it is listed under on the home page.
    pub theme: Text,
    pub title: Text,
    pub summary: Text,
    pub variants: Vec<VariantMeta>,
    /// The scenario's numbers a learner may change (a cap, request amounts), in URL order.
    pub knobs: Vec<Knob>,
    /// The heading of the next moves, saying whose choices they are ("You are the payment
    /// API"); `None` for a scheduler's choice of what runs next, which the player names itself.
    pub moves_heading: Option<Text>,
}

/// Speaker notes, after the seeds' interview answers: what to say, how to take the follow-up
/// questions, and what not to say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    pub say: Text,
    pub follow_up: Text,
    pub avoid: Text,
}

impl Notes {
    pub fn new(say: [&str; 2], follow_up: [&str; 2], avoid: [&str; 2]) -> Notes {
        Notes {
            say: Text::new(say[0], say[1]),
            follow_up: Text::new(follow_up[0], follow_up[1]),
            avoid: Text::new(avoid[0], avoid[1]),
        }
    }
}

/// A number of the scenario's setup: its URL key, name, default and range (inclusive).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knob {
    pub key: &'static str,
    pub name: Text,
    pub default: u32,
    pub min: u32,
    pub max: u32,
    pub step: u32,
    /// For a knob with a fixed set of choices (a behaviour, a size from a list): the choices; the
    /// value is the index, while links name a choice by its word. Empty for a number.
    pub options: Vec<KnobOption>,
}

/// One choice of a knob with a fixed set: the word a link uses for it, and its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnobOption {
    /// Short and stable (a number or kebab-case: `10`, `always-timeout`): links carry it, so it
    /// never changes once published.
    pub word: String,
    pub name: Text,
}

impl KnobOption {
    pub fn new(word: impl Into<String>, name: Text) -> KnobOption {
        KnobOption {
            word: word.into(),
            name,
        }
    }
}

impl Knob {
    /// A knob known by its URL key only (a scenario's card, before its code is here).
    pub fn keyed(key: &'static str) -> Knob {
        Knob {
            key,
            name: Text::same(key),
            default: 0,
            min: 0,
            max: 0,
            step: 1,
            options: Vec::new(),
        }
    }

    /// `value` as a link writes it: the option's word for a knob with options, the number
    /// otherwise (and for an index that names no option).
    pub fn word(&self, value: u32) -> String {
        usize::try_from(value)
            .ok()
            .and_then(|i| self.options.get(i))
            .map_or_else(|| value.to_string(), |o| o.word.clone())
    }

    /// The value a link's text stands for: the index of the option with that word (ASCII case
    /// ignored) for a knob with options, a whole number otherwise; `None` unless in range.
    pub fn read(&self, text: &str) -> Option<u32> {
        let value = if self.options.is_empty() {
            text.parse::<u32>().ok()
        } else {
            self.options
                .iter()
                .position(|o| o.word.eq_ignore_ascii_case(text))
                .and_then(|i| u32::try_from(i).ok())
        };
        value.filter(|v| (self.min..=self.max).contains(v))
    }
}

impl ScenarioMeta {
    /// The knobs' default values.
    pub fn default_knobs(&self) -> Vec<u32> {
        self.knobs.iter().map(|k| k.default).collect()
    }

    /// The index of the variant with this slug (a link's `v=`, a run file, a program's name).
    pub fn variant_index(&self, slug: &str) -> Option<usize> {
        self.variants.iter().position(|v| v.slug == slug)
    }
}

/// A scenario: what it is about, and the model of each of its variants. Everything else (the
/// replay, following action keys, exploring) is the engine's, the same for every scenario.
pub trait Scenario {
    type Model: Replayable;
    /// The variants, in `meta().variants`' order (a test holds the two the same length).
    type Variant: kit::Variants;
    fn meta(&self) -> ScenarioMeta;
    /// The model of the variant at `variant` (out of range: the first), with up to `budget`
    /// faults (`None`: the player's budget) and `knobs` (one value per `meta().knobs` entry;
    /// missing or out of range: the defaults).
    fn model_of(variant: usize, budget: Option<u8>, knobs: &[u32]) -> Self::Model;
}

/// A scenario with its type erased at the boundary, so the UI is not generic over models.
/// Every [`Scenario`] is one.
///
/// Exploration is deliberately not a method here: a trait object keeps every method it has in
/// the bundle, and the page itself never explores (see `scenarios::explore`).
pub trait AnyScenario {
    fn meta(&self) -> ScenarioMeta;
    /// Replays `path` (choice indices) on `variant` with the knobs set to `knobs` (one value
    /// per `meta().knobs` entry, already in range; the defaults when the slice is empty), then
    /// continues with default choices until the run is quiet.
    fn trace_with(&self, variant: usize, knobs: &[u32], path: &[u8]) -> Trace;
    /// The path on `variant` with `knobs` that follows the given action keys ([`follow`]).
    fn follow_with(&self, variant: usize, knobs: &[u32], keys: &[String]) -> Vec<u8>;
    /// [`AnyScenario::trace_with`] at the default knobs.
    fn trace(&self, variant: usize, path: &[u8]) -> Trace {
        self.trace_with(variant, &[], path)
    }
    /// [`AnyScenario::follow_with`] at the default knobs.
    fn follow(&self, variant: usize, keys: &[String]) -> Vec<u8> {
        self.follow_with(variant, &[], keys)
    }
}

impl<S: Scenario + 'static> AnyScenario for S {
    fn meta(&self) -> ScenarioMeta {
        Scenario::meta(self)
    }
    fn trace_with(&self, variant: usize, knobs: &[u32], path: &[u8]) -> Trace {
        replay(&S::model_of(variant, None, knobs), path).from_origin(
            std::any::TypeId::of::<S>(),
            variant,
            knobs,
        )
    }
    fn follow_with(&self, variant: usize, knobs: &[u32], keys: &[String]) -> Vec<u8> {
        follow(&S::model_of(variant, None, knobs), keys)
    }
}
