//! WL007 `divergent-syncthreads`: `__syncthreads()` (and `_count`, `_and`,
//! `_or`, `cg::sync(block)`, a cluster's or the grid's `sync()`) reached by
//! only some threads of the block.

use super::Class;
use super::warp::{call_sites, callee_text, first_primitive, guard_labels, reach_text};
use super::{Finding, Rule, RuleContext, RuleMeta};
use crate::dataflow::{self, Level};
use crate::diagnostic::Severity;
use crate::ir::Primitive;
use crate::ir::primitives::SyncthreadsMode;

pub struct DivergentSyncthreads;

pub static META: RuleMeta = RuleMeta {
    code: "WL007",
    name: "divergent-syncthreads",
    severity: Severity::Error,
    summary: "__syncthreads() reached by only some threads of the block",
    has_fix: false,
    page: include_str!("../../rules/WL007-divergent-syncthreads.md"),
};

impl Rule for DivergentSyncthreads {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &RuleContext, out: &mut Vec<Finding>) {
        for site in call_sites(cx.module, cx.facts) {
            let src = cx.source_of(site.function);
            if !site.context.block_divergent() {
                continue;
            }
            let mut labels = guard_labels(&site.context, Level::Warp);
            let what = match site.prim {
                Some(Primitive::Syncthreads(SyncthreadsMode::Cluster)) => {
                    "the cluster's `sync()` waits for every thread of its blocks,".to_owned()
                }
                Some(Primitive::Syncthreads(SyncthreadsMode::Grid)) => {
                    "the grid's `sync()` waits for every thread of the grid,".to_owned()
                }
                Some(p @ Primitive::Syncthreads(_)) => format!(
                    "`{}()` waits for every thread of the block,",
                    site.written_name(src, p)
                ),
                None => {
                    let Some(g) = dataflow::callee(cx.module, site.call) else {
                        continue;
                    };
                    if !cx.facts.uses_block_barrier[g] || g == site.function {
                        continue;
                    }
                    let (barrier, label) =
                        first_primitive(cx.module, &|f| cx.source_of(f), site.function, g, &|p| {
                            matches!(p, Primitive::Syncthreads(_))
                        });
                    labels.extend(label);
                    let barrier = barrier.unwrap_or_else(|| "`__syncthreads()`".to_owned());
                    format!("{} waits at {barrier},", callee_text(src, &site))
                }
                Some(_) => continue,
            };
            let (start, end) = site.span();
            out.push(Finding {
                rule: &META,
                start,
                end,
                message: format!(
                    "{what} but only threads {} reach it",
                    reach_text(src, &site.context, Level::Warp)
                ),
                help: Some(
                    "move the barrier out of the condition so every thread reaches it (also after an early \
                     return: keep the threads alive and guard the work instead)"
                        .to_owned(),
                ),
                labels,
                fix: None,
                claim: Some(site.guarded_claim(&[Class::DivergentBarrier], cx.facts, cx.module, Level::Warp)),
            });
        }
    }
}
