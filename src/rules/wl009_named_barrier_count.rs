//! WL009 `named-barrier-count`: a PTX named barrier (`bar.sync 1, 256;`)
//! whose thread count the block cannot meet: not a positive multiple of
//! 32, more threads than all the arrivals of its warps make up, or, every
//! arrival waiting, no whole number of phases of the count.
//!
//! Proposed in kernels, at every named barrier with a thread count and
//! every call of a helper that reaches one, as a candidate: a count is
//! right or wrong only for the warps that arrive, which only runs of every
//! warp of the block show (`executor::confirm`).

use super::Class;
use super::warp::{call_sites, callee_text, first_primitive};
use super::{Finding, Rule, RuleContext, RuleMeta};
use crate::dataflow;
use crate::diagnostic::Severity;
use crate::ir::primitives::SyncthreadsMode;
use crate::ir::{FnKind, Primitive};

pub struct NamedBarrierCount;

pub static META: RuleMeta = RuleMeta {
    code: "WL009",
    name: "named-barrier-count",
    severity: Severity::Error,
    summary: "Named barrier whose thread count the warps that arrive cannot meet",
    has_fix: false,
    page: include_str!("../../rules/WL009-named-barrier-count.md"),
    checks_linked_functions: true,
};

impl Rule for NamedBarrierCount {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &RuleContext, out: &mut Vec<Finding>) {
        // Proposed in kernels only: a helper's count is its callers' to
        // get right (often a parameter), so a barrier in a helper is
        // proposed at the kernel's call, which usually states the count,
        // and once, not in every helper on the way.
        for site in call_sites(cx.module, cx.facts) {
            if site.f.kind != FnKind::Kernel {
                continue;
            }
            let src = cx.source_of(site.function);
            let (what, labels) = match site.prim {
                Some(p @ Primitive::Syncthreads(SyncthreadsMode::Named(_))) => {
                    (format!("`{}` has", site.written_name(src, p)), Vec::new())
                }
                Some(_) => continue,
                None => {
                    let Some(g) = dataflow::callee(cx.module, site.call)
                        .filter(|&g| g != site.function && cx.facts.uses_any_named_barrier[g])
                    else {
                        continue;
                    };
                    let (barrier, label) =
                        first_primitive(cx.module, &|f| cx.source_of(f), site.function, g, &|p| {
                            matches!(p, Primitive::Syncthreads(SyncthreadsMode::Named(_)))
                        });
                    let barrier = barrier.unwrap_or_else(|| "a named barrier".to_owned());
                    (
                        format!("{} reaches {barrier} with", callee_text(src, &site)),
                        label.into_iter().collect(),
                    )
                }
            };
            let (start, end) = site.span();
            out.push(Finding {
                rule: &META,
                start,
                end,
                message: format!("{what} a thread count that the warps arriving at it cannot meet"),
                help: Some(
                    "count 32 threads for every warp that arrives at this barrier id (a warp \
                     arrives whole), or let the missing warps arrive (`bar.arrive id, count`)"
                        .to_owned(),
                ),
                labels,
                fix: None,
                claim: Some(super::Claim {
                    speculative: true,
                    ..site.claim(&[Class::BarrierCount])
                }),
            });
        }
    }
}
