//! WL002 `full-mask-in-divergent-code`: a `*_sync` primitive or
//! `__syncwarp` whose mask names lanes that cannot reach the call.
//!
//! Proposed wherever a masked primitive (or a helper that executes one)
//! sits under a lane-varying branch, loop or early exit; the executor
//! decides, so correct ballot-before-branch masks and sibling-arm pairings
//! are refuted rather than reported.

use super::warp::{
    Formations, activemask_mask, call_sites, callee_text, coalesced_passed_where_formed,
    coalesced_where_formed, const_mask, first_primitive, group_held_mask, guard_labels,
    mask_is_modelled, reach_text, runs_full_mask,
};
use super::{Claim, Class};
use super::{Finding, Rule, RuleContext, RuleMeta};
use crate::dataflow::{self, Level};
use crate::diagnostic::Severity;

pub struct FullMaskInDivergentCode;

pub static META: RuleMeta = RuleMeta {
    code: "WL002",
    name: "full-mask-in-divergent-code",
    severity: Severity::Error,
    summary: "Warp primitive whose mask names lanes that cannot reach it",
    has_fix: true,
    page: include_str!("../../rules/WL002-full-mask-in-divergent-code.md"),
    checks_linked_functions: true,
};

const CLASSES: &[Class] = &[Class::AbsentLanes, Class::ReadsExited, Class::MaskDisagree];

const HELP: &str = "compute the mask before the branch, where every lane still executes: \
`unsigned mask = __ballot_sync(0xffffffff, cond); if (cond) { … __shfl_down_sync(mask, v, d) … }`";

impl Rule for FullMaskInDivergentCode {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &RuleContext, out: &mut Vec<Finding>) {
        let mut formations = Formations::default();
        for site in call_sites(cx.module, cx.facts) {
            let src = cx.source_of(site.function);
            let partial = partial_warp_threads(cx.module, site.function);
            if !site.context.warp_divergent() && partial.is_none() {
                continue;
            }
            let (start, end) = site.span();
            let mut labels = guard_labels(&site.context, Level::Varying);
            // A call into code whose masks are computed (a sub-warp's own
            // lanes, `WarpMask<Lanes>(warp_id)`) is a candidate, not
            // evidence: such masks usually name just the lanes that call.
            let computed_masks;
            let message = match site.prim {
                Some(p) if p.is_masked() => {
                    if activemask_mask(&site, cx.facts)
                        || !mask_is_modelled(&site, cx.module, cx.facts)
                    {
                        continue; // WL003's business, or a mask only callers know
                    }
                    if coalesced_where_formed(&site, cx.facts, &mut formations) {
                        continue; // the group's own lanes, all of them here
                    }
                    // So is a mask the warp computes alike from values the
                    // analysis does not know (`(1u << kLanes) - 1` with
                    // `kLanes` a class's, a mask parameter): it may well
                    // name just the lanes the guard keeps, and only a run
                    // shows it wrong. A lane-varying mask (a ballot, a
                    // `__match_any_sync` group) is evidence, as a constant is.
                    // And so is a coalesced group's: the lanes that were
                    // together where it was formed, usually just those
                    // that reach its members (`cg::coalesced_threads()`
                    // inside the branch).
                    computed_masks = const_mask(&site, cx.module).is_none()
                        && (group_held_mask(&site)
                            || site.mask_arg().is_some_and(|m| {
                                let facts = &cx.facts.functions[site.function];
                                dataflow::expr_level(site.f, m, facts, cx.module) < Level::Varying
                            }));
                    match partial {
                        Some(threads) if !site.context.warp_divergent() => format!(
                            "`{}` names {}, but blocks of {threads} threads end in a partial warp",
                            site.written_name(src, p),
                            site.mask_phrase(src, cx.module),
                        ),
                        _ => format!(
                            "`{}` names {}, but only lanes {} reach it",
                            site.written_name(src, p),
                            site.mask_phrase(src, cx.module),
                            reach_text(src, &site.context, Level::Varying)
                        ),
                    }
                }
                None if site.context.warp_divergent() => {
                    let Some(g) = dataflow::callee(cx.module, site.call) else {
                        continue;
                    };
                    if !cx.facts.uses_warp_primitives[g] || g == site.function {
                        continue;
                    }
                    if coalesced_passed_where_formed(&site, cx.module, cx.facts, &mut formations, g)
                    {
                        continue; // the group's own lanes, all of them here
                    }
                    let (_, label) =
                        first_primitive(cx.module, &|f| cx.source_of(f), site.function, g, &|p| {
                            p.is_masked()
                        });
                    labels.extend(label);
                    computed_masks = !runs_full_mask(cx.module, site.f, site.call, g);
                    let masks = if computed_masks {
                        "with masks it computes"
                    } else {
                        "that name every lane"
                    };
                    format!(
                        "{} runs warp primitives {masks}, but only lanes {} reach it",
                        callee_text(src, &site),
                        reach_text(src, &site.context, Level::Varying)
                    )
                }
                _ => continue,
            };
            out.push(Finding {
                rule: &META,
                start,
                end,
                message,
                help: Some(HELP.to_owned()),
                labels,
                fix: None,
                // A partial warp is stated by the launch; a guard is
                // evidence only where the code shows it splitting lanes.
                claim: Some(if partial.is_some() && !site.context.warp_divergent() {
                    site.claim(CLASSES)
                } else {
                    Claim {
                        // Group masks (`0xff << 8 * slot`, a ballot of the
                        // branch's own condition) name just the lanes that
                        // reach the call; only a launch of whole warps
                        // makes that a proof (checked by the executor).
                        lane_proof: dataflow::lanes::reaching_lanes_proof(
                            cx.module,
                            cx.facts,
                            site.function,
                            site.expr,
                            &site.context,
                        ),
                        ..site.guarded_claim(CLASSES, cx.facts, cx.module, Level::Varying)
                    }
                })
                .map(|claim| Claim {
                    speculative: claim.speculative || computed_masks,
                    ..claim
                }),
            });
        }
    }
}

/// The block size of a kernel launched (or bounded) with a thread count
/// that is not a multiple of 32: its last warp has lanes that do not exist.
fn partial_warp_threads(module: &crate::ir::Module, function: usize) -> Option<u32> {
    let f = &module.functions[function];
    if !f.is_kernel() {
        return None;
    }
    let from_launch = module
        .launches
        .iter()
        .filter(|l| l.kernel == f.name)
        .find_map(|l| l.block_dim)
        .map(|d| d.iter().product::<u32>());
    from_launch.or(f.launch_bounds).filter(|t| t % 32 != 0)
}
