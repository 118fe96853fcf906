//! WL003 `activemask-as-mask`: `__activemask()` used as the mask of a
//! shuffle, vote or reduction. It returns the lanes that happen to be
//! converged now, not the lanes that take the branch. Opportunistic code
//! (`__match_any_sync(__activemask(), key)` and whatever uses the group it
//! returns) is not proposed; the executor compares converged and split
//! schedules and refutes uses whose results do not depend on the schedule.

use super::Class;
use super::warp::{activemask_mask, call_sites, code};
use super::{Finding, Rule, RuleContext, RuleMeta};
use crate::dataflow;
use crate::diagnostic::Severity;
use crate::ir::Primitive;

pub struct ActivemaskAsMask;

pub static META: RuleMeta = RuleMeta {
    code: "WL003",
    name: "activemask-as-mask",
    severity: Severity::Error,
    summary: "__activemask() used as the set of lanes that should take part",
    has_fix: true,
    page: include_str!("../../rules/WL003-activemask-as-mask.md"),
    checks_linked_functions: true,
};

const CLASSES: &[Class] = &[Class::ScheduleDependent];

impl Rule for ActivemaskAsMask {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &RuleContext, out: &mut Vec<Finding>) {
        for site in call_sites(cx.module, cx.facts) {
            let direct = matches!(site.prim, Some(p) if p.is_masked() && !matches!(p, Primitive::Match { .. } | Primitive::Elect))
                && activemask_mask(&site, cx.facts);
            // A helper handed `__activemask()` as its mask argument.
            let via_helper = site.prim.is_none()
                && dataflow::callee(cx.module, site.call)
                    .is_some_and(|g| cx.facts.uses_warp_primitives[g])
                && site.call.args.iter().any(|a| {
                    dataflow::mentions_call(site.f, *a, &["__activemask"])
                        || dataflow::mentions_var(
                            site.f,
                            *a,
                            &cx.facts.functions[site.function].activemask_vars,
                        )
                });
            if !direct && !via_helper {
                continue;
            }
            let (start, end) = site.span();
            let what = site
                .prim
                .map(|p| p.display_name())
                .unwrap_or(site.call.name.as_str());
            let mut claim = site.claim(CLASSES);
            claim.schedule_dependent = true;
            out.push(Finding {
                rule: &META,
                start,
                end,
                message: format!(
                    "{} takes `__activemask()` as its mask: the lanes converged now, which may be fewer \
                     than those that reach it",
                    code(what, 40)
                ),
                help: Some(
                    "take the mask with `__ballot_sync(0xffffffff, cond)` before the branch (or use \
                     `cg::coalesced_threads()`); keep `__activemask()` for opportunistic grouping with \
                     `__match_any_sync`"
                        .to_owned(),
                ),
                labels: Vec::new(),
                fix: None,
                claim: Some(claim),
            });
        }
    }
}
