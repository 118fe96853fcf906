//! The engine's own codes for suppression comments (WL100–WL102): metadata
//! and pages only, no `Rule::check`; `crate::suppress` emits them.

use super::RuleMeta;
use crate::diagnostic::Severity;

pub static UNUSED_SUPPRESSION: RuleMeta = RuleMeta {
    code: "WL100",
    name: "unused-suppression",
    severity: Severity::Warning,
    summary: "Suppression comment that suppresses nothing",
    has_fix: true,
    page: include_str!("../../rules/WL100-unused-suppression.md"),
    checks_linked_functions: false,
};

pub static SUPPRESSION_WITHOUT_REASON: RuleMeta = RuleMeta {
    code: "WL101",
    name: "suppression-without-reason",
    severity: Severity::Warning,
    summary: "Suppression comment that does not say why",
    has_fix: false,
    page: include_str!("../../rules/WL101-suppression-without-reason.md"),
    checks_linked_functions: false,
};

pub static INVALID_SUPPRESSION: RuleMeta = RuleMeta {
    code: "WL102",
    name: "invalid-suppression",
    severity: Severity::Warning,
    summary: "Malformed suppression comment, or one naming an unknown rule",
    has_fix: false,
    page: include_str!("../../rules/WL102-invalid-suppression.md"),
    checks_linked_functions: false,
};
