//! WL002 `full-mask-in-divergent-code`: a `*_sync` primitive or
//! `__syncwarp` whose mask names lanes that cannot reach the call.
//!
//! Proposed wherever a masked primitive (or a helper that executes one)
//! sits under a lane-varying branch, loop or early exit; the executor
//! decides, so correct ballot-before-branch masks and sibling-arm pairings
//! are refuted rather than reported.

use super::warp::{
    activemask_mask, call_sites, first_primitive, guard_labels, mask_is_modelled, reach_text,
};
use super::{Finding, Rule, RuleContext, RuleMeta};
use crate::dataflow::{self, Level};
use crate::diagnostic::Severity;
use crate::executor::check::Class;

pub struct FullMaskInDivergentCode;

pub static META: RuleMeta = RuleMeta {
    code: "WL002",
    name: "full-mask-in-divergent-code",
    severity: Severity::Error,
    summary: "Warp primitive whose mask names lanes that cannot reach it",
    has_fix: false,
    page: include_str!("../../rules/WL002-full-mask-in-divergent-code.md"),
};

const CLASSES: &[Class] = &[Class::AbsentLanes, Class::ReadsExited, Class::MaskDisagree];

const HELP: &str = "compute the mask before the branch, where every lane still executes: \
`unsigned mask = __ballot_sync(0xffffffff, cond); if (cond) { … __shfl_down_sync(mask, v, d) … }`";

impl Rule for FullMaskInDivergentCode {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &RuleContext, out: &mut Vec<Finding>) {
        let src = &cx.file.source;
        for site in call_sites(cx.module, cx.facts) {
            if !site.context.warp_divergent() {
                continue;
            }
            let (start, end) = site.span();
            let mut labels = guard_labels(&site.context, Level::Varying);
            let message = match site.prim {
                Some(p) if p.is_masked() => {
                    if activemask_mask(&site, cx.facts)
                        || !mask_is_modelled(&site, cx.module, cx.facts)
                    {
                        continue; // WL003's business, or a mask only callers know
                    }
                    format!(
                        "`{}` is called with mask {} in divergent code: {}",
                        p.display_name(),
                        site.mask_text(src),
                        reach_text(src, &site.context, Level::Varying)
                    )
                }
                None => {
                    let Some(g) = dataflow::callee(cx.module, site.call) else {
                        continue;
                    };
                    if !cx.facts.uses_warp_primitives[g] || g == site.function {
                        continue;
                    }
                    labels.extend(first_primitive(cx.module, g, &|p| p.is_masked()));
                    format!(
                        "`{}` runs warp primitives whose mask names every lane, but it is called in divergent code: {}",
                        site.call.name,
                        reach_text(src, &site.context, Level::Varying)
                    )
                }
                Some(_) => continue,
            };
            out.push(Finding {
                rule: &META,
                start,
                end,
                message,
                help: Some(HELP.to_owned()),
                labels,
                fix: None,
                claim: Some(site.claim(CLASSES)),
            });
        }
    }
}
