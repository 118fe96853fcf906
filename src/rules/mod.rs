//! Stage 5: rules. Each rule lives in its own file, next to its page in
//! `rules/` at the repository root, and proposes [`Finding`]s. A finding is
//! a claim; the executor (stage 6) decides whether users see it.

pub mod claim;
pub mod fixes;
mod suppression_codes;
mod warp;
mod wl001_legacy_warp_primitive;
mod wl002_full_mask_in_divergent_code;
mod wl003_activemask_as_mask;
mod wl004_unsynchronized_shared_memory;
mod wl005_shuffle_width_not_power_of_two;
mod wl006_shuffle_source_outside_mask;
mod wl007_divergent_syncthreads;
mod wl008_full_mask_presence_vote;
mod wl009_named_barrier_count;

use crate::dataflow::Facts;
use crate::diagnostic::{Fix, Severity};
use crate::frontend::{ParsedFile, PreprocEnv};
use crate::ir::Module;
pub use claim::{Claim, Class};
pub use suppression_codes::{INVALID_SUPPRESSION, SUPPRESSION_WITHOUT_REASON, UNUSED_SUPPRESSION};

/// Static facts about a rule, shown by `warplint rules` and in reports.
#[derive(Debug)]
pub struct RuleMeta {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    /// One line, used by `warplint rules` and SARIF's shortDescription.
    pub summary: &'static str,
    /// Whether the rule can offer an automatic fix.
    pub has_fix: bool,
    /// The rule's page from `rules/`, embedded at build time.
    pub page: &'static str,
    /// Whether the rule checks the header functions a translation unit
    /// links in (an IR rule), not only the file's own text: only then does
    /// a unit that found nothing in a header function overrule the
    /// header's own run (`engine::merge_header_findings`).
    pub checks_linked_functions: bool,
}

/// Everything a rule may look at for one file.
pub struct RuleContext<'a> {
    pub file: &'a ParsedFile,
    pub env: &'a PreprocEnv,
    pub module: &'a Module,
    pub facts: &'a Facts,
}

impl RuleContext<'_> {
    /// The text a function's spans point into: its header's when it was
    /// linked in from an included header (translation units), else the
    /// file's own.
    pub fn source_of(&self, function: usize) -> &crate::source::SourceFile {
        match self.module.header_of(function) {
            Some(h) => h,
            None => &self.file.source,
        }
    }
}

/// A proposed diagnostic, in byte offsets; the engine turns it into a
/// [`crate::diagnostic::Diagnostic`] once the executor has judged it.
#[derive(Debug, Clone)]
pub struct Finding {
    pub rule: &'static RuleMeta,
    pub start: usize,
    pub end: usize,
    pub message: String,
    pub help: Option<String>,
    pub labels: Vec<(usize, usize, String)>,
    pub fix: Option<Fix>,
    /// What the executor must show to confirm it; `None` for findings
    /// that are facts about the source alone.
    pub claim: Option<Claim>,
}

pub trait Rule: Sync {
    fn meta(&self) -> &'static RuleMeta;
    fn check(&self, cx: &RuleContext, out: &mut Vec<Finding>);
}

/// Every rule, in code order.
pub static RULES: &[&dyn Rule] = &[
    &wl001_legacy_warp_primitive::LegacyWarpPrimitive,
    &wl002_full_mask_in_divergent_code::FullMaskInDivergentCode,
    &wl003_activemask_as_mask::ActivemaskAsMask,
    &wl004_unsynchronized_shared_memory::UnsynchronizedSharedMemory,
    &wl005_shuffle_width_not_power_of_two::ShuffleWidthNotPowerOfTwo,
    &wl006_shuffle_source_outside_mask::ShuffleSourceOutsideMask,
    &wl007_divergent_syncthreads::DivergentSyncthreads,
    &wl008_full_mask_presence_vote::FullMaskPresenceVote,
    &wl009_named_barrier_count::NamedBarrierCount,
];

/// Codes the engine reports itself, about suppression comments rather than
/// about the code: they have metadata and a page, but no [`Rule::check`].
/// They are listed, selected and ignored like any rule.
pub static ENGINE_RULES: &[&RuleMeta] = &[
    &UNUSED_SUPPRESSION,
    &SUPPRESSION_WITHOUT_REASON,
    &INVALID_SUPPRESSION,
];

/// Every code, analysis rules first, in code order.
pub fn all_meta() -> impl Iterator<Item = &'static RuleMeta> {
    RULES
        .iter()
        .map(|r| r.meta())
        .chain(ENGINE_RULES.iter().copied())
}

/// Whether `code` is reported by the engine rather than by a [`Rule`].
pub fn is_engine_rule(code: &str) -> bool {
    ENGINE_RULES.iter().any(|m| m.code == code)
}

/// Look a rule up by code (`WL001`, any case) or name (`legacy-warp-primitive`).
pub fn lookup(key: &str) -> Option<&'static RuleMeta> {
    all_meta().find(|m| m.code.eq_ignore_ascii_case(key) || m.name == key)
}

/// Which rules run: `--select`/`--ignore` (and the config's keys) narrow it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleSet {
    enabled: Vec<bool>,
}

/// One flag per code of [`all_meta`], in that order.
fn code_count() -> usize {
    RULES.len() + ENGINE_RULES.len()
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet {
            enabled: vec![true; code_count()],
        }
    }
}

impl RuleSet {
    /// `select` replaces the set when given; `ignore` then removes from it.
    /// Keys are codes, names, or `ALL`. An unknown key is an error naming it.
    pub fn from_lists(select: Option<&[String]>, ignore: &[String]) -> Result<RuleSet, String> {
        let mut set = match select {
            Some(keys) => {
                let mut s = RuleSet {
                    enabled: vec![false; code_count()],
                };
                for key in keys {
                    s.apply(key, true)?;
                }
                s
            }
            None => RuleSet::default(),
        };
        for key in ignore {
            set.apply(key, false)?;
        }
        Ok(set)
    }

    fn apply(&mut self, key: &str, on: bool) -> Result<(), String> {
        let key = key.trim();
        if key.eq_ignore_ascii_case("ALL") {
            self.enabled.iter_mut().for_each(|e| *e = on);
            return Ok(());
        }
        let idx = all_meta()
            .position(|m| m.code.eq_ignore_ascii_case(key) || m.name == key)
            .ok_or_else(|| {
                format!("unknown rule `{key}` (see `warplint rules` for codes and names)")
            })?;
        self.enabled[idx] = on;
        Ok(())
    }

    /// Whether the rule or engine code `code` is enabled.
    pub fn contains(&self, code: &str) -> bool {
        all_meta()
            .zip(&self.enabled)
            .any(|(m, &on)| on && m.code == code)
    }

    pub fn rules(&self) -> impl Iterator<Item = &'static dyn Rule> + '_ {
        RULES
            .iter()
            .zip(&self.enabled)
            .filter(|(_, on)| **on)
            .map(|(r, _)| *r)
    }
}

/// Run the enabled rules over one parsed file.
pub fn run(set: &RuleSet, cx: &RuleContext) -> Vec<Finding> {
    let mut out = Vec::new();
    for rule in set.rules() {
        rule.check(cx, &mut out);
    }
    // A template that runs only as its instances: their claims decide.
    out.retain(|f: &Finding| {
        (f.claim.as_ref()).is_none_or(|c| !cx.module.functions[c.function].runs_as_instances)
    });
    out
}

/// The `_sync` replacement of a legacy primitive, if `name` is one.
pub fn legacy_replacement(name: &str) -> Option<&'static str> {
    wl001_legacy_warp_primitive::legacy_entry(name).map(|e| e.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_sequential_and_names_kebab_case() {
        let metas: Vec<_> = all_meta().collect();
        for (i, m) in metas.iter().enumerate() {
            assert!(m.code.starts_with("WL") && m.code.len() == 5, "{}", m.code);
            assert!(
                m.name.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{}",
                m.name
            );
            for other in &metas[i + 1..] {
                assert!(m.code < other.code, "rules must be listed in code order");
                assert_ne!(m.name, other.name);
            }
        }
    }

    #[test]
    fn engine_codes_are_selectable_like_rules() {
        let all = RuleSet::default();
        assert!(all.contains("WL100") && all.contains("WL001"));
        let s = RuleSet::from_lists(None, &["unused-suppression".into()]).unwrap();
        assert!(!s.contains("WL100") && s.contains("WL101"));
        let s = RuleSet::from_lists(Some(&["WL101".into()]), &[]).unwrap();
        assert!(s.contains("WL101") && !s.contains("WL001"));
        assert_eq!(s.rules().count(), 0, "engine codes have no Rule to run");
        assert!(is_engine_rule("WL102") && !is_engine_rule("WL001"));
    }

    #[test]
    fn select_and_ignore_accept_codes_and_names() {
        let s = RuleSet::from_lists(Some(&["legacy-warp-primitive".into()]), &[]).unwrap();
        assert!(s.contains("WL001"));
        let s = RuleSet::from_lists(None, &["wl001".into()]).unwrap();
        assert!(!s.contains("WL001"));
        // A code no rule has (built so that it is not mistaken for a rule).
        let unknown = format!("WL{}", 999);
        let err = RuleSet::from_lists(None, std::slice::from_ref(&unknown)).unwrap_err();
        assert!(err.contains(&unknown));
    }
}
