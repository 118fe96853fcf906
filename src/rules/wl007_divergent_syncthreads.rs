//! WL007 `divergent-syncthreads`: `__syncthreads()` (and `_count`, `_and`,
//! `_or`, `cg::sync(block)`, a cluster's or the grid's `sync()`, `bar.sync
//! 0;`) reached by only some threads of the block; a PTX named barrier
//! with a thread count, aligned (`bar.sync 1, 128;`), reached by only
//! some lanes of a warp.

use super::Class;
use super::warp::{call_sites, callee_text, first_primitive, guard_labels, reach_text};
use super::{Finding, Rule, RuleContext, RuleMeta};
use crate::dataflow::{self, Context, GuardKind, Level};
use crate::diagnostic::Severity;
use crate::ir::Primitive;
use crate::ir::primitives::SyncthreadsMode;

pub struct DivergentSyncthreads;

pub static META: RuleMeta = RuleMeta {
    code: "WL007",
    name: "divergent-syncthreads",
    severity: Severity::Error,
    summary: "__syncthreads() reached by only some threads of the block, or a named barrier by some lanes of a warp",
    has_fix: false,
    page: include_str!("../../rules/WL007-divergent-syncthreads.md"),
    checks_linked_functions: true,
};

impl Rule for DivergentSyncthreads {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &RuleContext, out: &mut Vec<Finding>) {
        for site in call_sites(cx.module, cx.facts) {
            let src = cx.source_of(site.function);
            let callee = match site.prim {
                None => dataflow::callee(cx.module, site.call).filter(|&g| g != site.function),
                Some(_) => None,
            };
            // A barrier of the block needs every thread of it; the warps
            // a named barrier counts are the code's choice (a producer
            // warp group apart from the consumers), and only the lanes of
            // one warp must arrive together.
            let named = match site.prim {
                // Lanes of a warp may meet an unaligned one (`barrier.sync`)
                // from different places, or leave them waiting until they
                // exit: not checked.
                Some(Primitive::Syncthreads(SyncthreadsMode::Named(form))) if !form.aligned => {
                    continue;
                }
                Some(Primitive::Syncthreads(SyncthreadsMode::Named(_))) => true,
                Some(_) => false,
                None => callee.is_some_and(|g| {
                    cx.facts.uses_named_barrier[g] && !cx.facts.uses_block_barrier[g]
                }),
            };
            let (level, reached) = if named {
                (Level::Varying, lanes_split(&site.context))
            } else {
                (Level::Warp, site.context.block_divergent())
            };
            if !reached {
                continue;
            }
            let mut labels = guard_labels(&site.context, level);
            let what = match site.prim {
                Some(Primitive::Syncthreads(SyncthreadsMode::Cluster)) => {
                    "the cluster's `sync()` waits for every thread of its blocks,".to_owned()
                }
                Some(Primitive::Syncthreads(SyncthreadsMode::Grid)) => {
                    "the grid's `sync()` waits for every thread of the grid,".to_owned()
                }
                Some(p @ Primitive::Syncthreads(SyncthreadsMode::Named(_))) => format!(
                    "`{}` waits for every live lane of its warp,",
                    site.written_name(src, p)
                ),
                Some(p @ Primitive::Syncthreads(_)) => format!(
                    "`{}()` waits for every thread of the block,",
                    site.written_name(src, p)
                ),
                None => {
                    let Some(g) = callee else { continue };
                    if !cx.facts.uses_block_barrier[g] && !named {
                        continue;
                    }
                    let (barrier, label) =
                        first_primitive(cx.module, &|f| cx.source_of(f), site.function, g, &|p| {
                            matches!(p, Primitive::Syncthreads(m)
                                if if named { m.is_aligned_named() } else { m.is_block_wide() })
                        });
                    labels.extend(label);
                    if named {
                        let barrier = barrier.unwrap_or_else(|| "a named barrier".to_owned());
                        format!(
                            "{} waits at {barrier}, which needs every live lane of its warp,",
                            callee_text(src, &site)
                        )
                    } else {
                        let barrier = barrier.unwrap_or_else(|| "`__syncthreads()`".to_owned());
                        format!("{} waits at {barrier},", callee_text(src, &site))
                    }
                }
                Some(_) => continue,
            };
            let help = if named {
                "let every lane of the warp reach the named barrier: decide who takes part per warp \
                 (from `threadIdx.x / 32`), or move the barrier out of the lane-dependent branch"
            } else {
                "move the barrier out of the condition so every thread reaches it (also after an early \
                 return: keep the threads alive and guard the work instead)"
            };
            let (start, end) = site.span();
            out.push(Finding {
                rule: &META,
                start,
                end,
                message: format!(
                    "{what} but only threads {} reach it",
                    reach_text(src, &site.context, level)
                ),
                help: Some(help.to_owned()),
                labels,
                fix: None,
                claim: Some(site.guarded_claim(
                    &[Class::DivergentBarrier],
                    cx.facts,
                    cx.module,
                    level,
                )),
            });
        }
    }
}

/// Lanes of one warp may not all get here, and those that do not have not
/// all exited (a named barrier waits for none of those that have).
fn lanes_split(ctx: &Context) -> bool {
    ctx.guards
        .iter()
        .any(|g| g.level == Level::Varying && g.kind != GuardKind::EarlyExit { ends_threads: true })
}
