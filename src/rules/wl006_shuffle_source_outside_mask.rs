//! WL006 `shuffle-source-outside-mask`: a shuffle whose source lane (after
//! width segmentation) is not in the mask, or a call by lanes that are not
//! in their own mask (`__syncwarp(0xfffffffe)` by lane 0). Proposed for every
//! masked primitive whose mask is not the constant full mask; the executor
//! computes the lanes.
//!
//! Most such candidates are speculative (a narrowed mask is right where
//! only its lanes get there, and what a caller does is not seen). One is
//! not: a constant mask in a kernel, where no condition on the call's path
//! differs between the lanes of a warp. Every lane of a warp then reaches
//! the call whenever one does, and the lanes the mask leaves out call it
//! outside their own mask, the static evidence behind a default finding.

use super::Class;
use super::warp::{activemask_mask, call_sites, const_mask, group_held_mask, mask_is_modelled};
use super::{Finding, Rule, RuleContext, RuleMeta};
use crate::dataflow;
use crate::diagnostic::Severity;
use crate::ir::{FnKind, Primitive};

pub struct ShuffleSourceOutsideMask;

pub static META: RuleMeta = RuleMeta {
    code: "WL006",
    name: "shuffle-source-outside-mask",
    severity: Severity::Error,
    summary: "Shuffle source lane or calling lane outside the mask",
    has_fix: false,
    page: include_str!("../../rules/WL006-shuffle-source-outside-mask.md"),
    checks_linked_functions: true,
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
                || !mask_is_modelled(&site, cx.module, cx.facts)
            {
                continue;
            }
            // A lane using a coalesced group went through its forming, so
            // is in it; only a shuffle's source (a rank) may be outside.
            if !matches!(p, Primitive::Shfl(_)) && group_held_mask(&site) {
                continue;
            }
            let (start, end) = site.span();
            // Whole warps reach it (the runs check the block's shape).
            let whole_warps = site.f.kind == FnKind::Kernel && !site.context.warp_divergent();
            let left_out = const_mask(&site, cx.module)
                .map(|m| !m)
                .filter(|&out| out != 0 && whole_warps);
            let labels = left_out
                .map(|out| {
                    vec![(
                        start,
                        end,
                        format!(
                            "no condition on the way here differs between the lanes of a warp: {} call it whenever the others do, outside the mask",
                            lanes_text(out)
                        ),
                    )]
                })
                .unwrap_or_default();
            out.push(Finding {
                rule: &META,
                start,
                end,
                message: format!(
                    "`{}` with mask {} involves lanes outside the mask",
                    site.written_name(src, p),
                    site.mask_text(src)
                ),
                help: Some(
                    "every calling lane must be in the mask, and a shuffle may only read lanes in the mask; \
                     widen the mask or guard the call so that only lanes in the mask execute it"
                        .to_owned(),
                ),
                labels,
                fix: None,
                claim: Some(super::Claim {
                    speculative: left_out.is_none(),
                    unseen_callers: None,
                    // A mask that names exactly the lanes reaching the call
                    // (a ballot of the branch's condition) holds every
                    // caller; a shuffle's sources it does not bound.
                    lane_proof: (!matches!(p, Primitive::Shfl(_)))
                        .then(|| {
                            dataflow::lanes::reaching_lanes_proof(
                                cx.module,
                                cx.facts,
                                site.function,
                                site.expr,
                                &site.context,
                            )
                        })
                        .flatten(),
                    ..site.claim(CLASSES)
                }),
            });
        }
    }
}

/// `lanes 16–31`, `lane 0`, or `12 lanes` for a set that is not a range.
fn lanes_text(lanes: u32) -> String {
    let (lo, hi) = (lanes.trailing_zeros(), 31 - lanes.leading_zeros());
    let contiguous = lanes.count_ones() == hi - lo + 1;
    match (contiguous, lo == hi) {
        (_, true) => format!("lane {lo}"),
        (true, false) => format!("lanes {lo}–{hi}"),
        (false, false) => format!("{} lanes", lanes.count_ones()),
    }
}

#[cfg(test)]
mod tests {
    use super::lanes_text;

    #[test]
    fn left_out_lanes_read_as_ranges() {
        assert_eq!(lanes_text(0xffff_0000), "lanes 16–31");
        assert_eq!(lanes_text(1), "lane 0");
        assert_eq!(lanes_text(0xaaaa_aaaa), "16 lanes");
    }
}
