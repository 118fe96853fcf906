//! WL006 `shuffle-source-outside-mask`: a shuffle whose source lane (after
//! width segmentation) is not in the mask, or a call by lanes that are not
//! in their own mask (`__syncwarp(0xfffffffe)` by lane 0). Proposed for every
//! masked primitive whose mask is not the constant full mask; the executor
//! computes the lanes.

use super::Class;
use super::warp::{activemask_mask, call_sites, const_mask, mask_is_modelled};
use super::{Finding, Rule, RuleContext, RuleMeta};
use crate::diagnostic::Severity;

pub struct ShuffleSourceOutsideMask;

pub static META: RuleMeta = RuleMeta {
    code: "WL006",
    name: "shuffle-source-outside-mask",
    severity: Severity::Error,
    summary: "Shuffle source lane or calling lane outside the mask",
    has_fix: false,
    page: include_str!("../../rules/WL006-shuffle-source-outside-mask.md"),
};

const CLASSES: &[Class] = &[Class::SourceOutsideMask, Class::CallerNotInMask];

impl Rule for ShuffleSourceOutsideMask {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &RuleContext, out: &mut Vec<Finding>) {
        for site in call_sites(cx.module, cx.facts) {
            let src = cx.source_of(site.function);
            let Some(p) = site.prim.filter(|p| p.is_masked()) else {
                continue;
            };
            if const_mask(&site, cx.module) == Some(0xffff_ffff)
                || activemask_mask(&site, cx.facts)
                || !mask_is_modelled(&site, cx.module)
            {
                continue;
            }
            let (start, end) = site.span();
            out.push(Finding {
                rule: &META,
                start,
                end,
                message: format!(
                    "`{}` with mask {} involves lanes outside the mask",
                    p.display_name(),
                    site.mask_text(src)
                ),
                help: Some(
                    "every calling lane must be in the mask, and a shuffle may only read lanes in the mask; \
                     widen the mask or guard the call so that only lanes in the mask execute it"
                        .to_owned(),
                ),
                labels: Vec::new(),
                fix: None,
                claim: Some(super::Claim {
                    speculative: true,
                    unseen_callers: None,
                    lane_proof: None,
                    ..site.claim(CLASSES)
                }),
            });
        }
    }
}
