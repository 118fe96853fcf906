//! WL004 `unsynchronized-shared-memory`: two lanes of a warp access the same
//! `__shared__` location, at least one writes, and no barrier orders them.
//!
//! Proposed for each statement that accesses shared memory in a function
//! that writes shared memory; the executor computes every lane's addresses
//! and keeps only statements where an unordered conflicting pair exists.

use super::Claim;
use super::Class;
use super::{Finding, Rule, RuleContext, RuleMeta};
use crate::dataflow::{any_subexpr, stmt_exprs, walk_subexprs};
use crate::diagnostic::Severity;
use crate::ir::{ExprId, ExprKind, Function, StmtKind, UnOp};

pub struct UnsynchronizedSharedMemory;

pub static META: RuleMeta = RuleMeta {
    code: "WL004",
    name: "unsynchronized-shared-memory",
    severity: Severity::Error,
    summary: "Lanes of a warp race on shared memory with no barrier between them",
    has_fix: true,
    page: include_str!("../../rules/WL004-unsynchronized-shared-memory.md"),
    checks_linked_functions: true,
};

impl Rule for UnsynchronizedSharedMemory {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, cx: &RuleContext, out: &mut Vec<Finding>) {
        for (fi, f) in cx.module.functions.iter().enumerate() {
            let shared = &cx.facts.functions[fi].shared_vars;
            if shared.is_empty() {
                continue;
            }
            let is_shared_access = |k: &ExprKind| match k {
                ExprKind::Index(b, _) | ExprKind::Unary(UnOp::Deref, b) => any_subexpr(
                    f,
                    *b,
                    &mut |bk| matches!(bk, ExprKind::Var(v) if shared.contains(v)),
                ),
                _ => false,
            };
            // A field of a shared element (`s[t].x = …` through a pointer
            // parameter) writes it too.
            let written = |mut e: ExprId| {
                for _ in 0..8 {
                    match &f.expr(e).kind {
                        ExprKind::Member(b, _) => e = *b,
                        k => return is_shared_access(k),
                    }
                }
                false
            };
            let writes_shared = f.exprs.iter().any(|e| match &e.kind {
                ExprKind::Assign { lhs, .. } | ExprKind::Update { target: lhs, .. } => {
                    written(*lhs)
                }
                _ => false,
            });
            if !writes_shared {
                continue;
            }
            for (si, stmt) in f.stmts.iter().enumerate() {
                let roots: Vec<ExprId> = match &stmt.kind {
                    StmtKind::Expr(_) | StmtKind::Return(Some(_)) | StmtKind::Assume(_) => {
                        stmt_exprs(stmt)
                    }
                    StmtKind::Decl {
                        init: Some(e),
                        shared: false,
                        ..
                    } => vec![*e],
                    _ => continue,
                };
                let sites = accesses(f, &roots, &is_shared_access);
                if sites.is_empty()
                    || !cx.facts.functions[fi]
                        .stmt_context
                        .contains_key(&(si as u32))
                {
                    continue;
                }
                let name = sites
                    .iter()
                    .find_map(|&e| base_name(f, e))
                    .unwrap_or_else(|| "shared memory".to_owned());
                out.push(Finding {
                    rule: &META,
                    start: stmt.span.0,
                    end: stmt.span.1,
                    message: format!(
                        "lanes of a warp access {} with no barrier between one lane's write and \
                         another's access",
                        super::warp::code(&name, 40)
                    ),
                    help: Some(
                        "split the exchange into phases: read into a register, `__syncwarp()`, write, \
                         `__syncwarp()` (`volatile` does not order lanes under independent thread scheduling)"
                            .to_owned(),
                    ),
                    labels: Vec::new(),
                    fix: None,
                    claim: Some(Claim {
                        function: fi,
                        sites,
                        classes: &[Class::SharedRace],
                        schedule_dependent: false,
                        speculative: true,
                        narrow_rows_only: false,
                        unseen_callers: None,
                        lane_proof: None,
                    }),
                });
            }
        }
    }
}

fn accesses(f: &Function, roots: &[ExprId], is_shared: &dyn Fn(&ExprKind) -> bool) -> Vec<ExprId> {
    let mut out = Vec::new();
    walk_subexprs(f, roots, &mut |id, k| {
        if is_shared(k) {
            out.push(id);
        }
        false
    });
    out.sort_unstable();
    out
}

fn base_name(f: &Function, e: ExprId) -> Option<String> {
    let mut cur = e;
    for _ in 0..8 {
        match &f.expr(cur).kind {
            ExprKind::Var(v) => return Some(crate::ir::scopes::source_name(v).to_owned()),
            ExprKind::Index(b, _) | ExprKind::Unary(_, b) => cur = *b,
            ExprKind::Binary(_, a, _) => cur = *a,
            _ => return None,
        }
    }
    None
}
