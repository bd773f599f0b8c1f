//! The scenario registry: slug → scenario. Adding a scenario is one file and one line here.

mod dual_write;

pub use dual_write::{DualWrite, DualWriteModel, DwAct, DwVariant};

use crate::sim::AnyScenario;

/// Every scenario, in the order the picker shows them. The first is the default.
pub fn all() -> Vec<Box<dyn AnyScenario>> {
    vec![Box::new(DualWrite)]
}

/// The scenario with this slug, if there is one.
pub fn by_slug(slug: &str) -> Option<Box<dyn AnyScenario>> {
    all().into_iter().find(|s| s.meta().slug == slug)
}
