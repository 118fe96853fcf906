//! The options one file is checked with: the command line merged with its
//! configuration file (see `config::Resolver`).

use crate::budgets::Budgets;
use crate::diagnostic::MinConfidence;
use crate::discover::DiscoverOptions;
use crate::frontend::PreprocEnv;
use crate::rules::RuleSet;
use crate::tu;

#[derive(Debug, Clone, Default)]
pub struct Options {
    pub rules: RuleSet,
    pub env: PreprocEnv,
    pub discover: DiscoverOptions,
    /// Report findings the executor refuted.
    pub show_refuted: bool,
    /// Which undecided findings to report (`--min-confidence`).
    pub min_confidence: MinConfidence,
    /// Worker threads; `None` lets rayon pick.
    pub threads: Option<usize>,
    /// Block shape to assume when no launch site or `__launch_bounds__`
    /// says otherwise (`--block-dim`, config `block-dim`).
    pub block_dim: Option<[u32; 3]>,
    /// Limits that keep the executor linear and bounded.
    pub budgets: Budgets,
    /// Audit as if there were no suppression comments (`--no-suppressions`).
    pub ignore_suppressions: bool,
    /// Where `#include`s are looked for (translation units).
    pub includes: tu::IncludeOptions,
}
