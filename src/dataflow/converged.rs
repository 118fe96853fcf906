//! Where the code states that a whole warp runs together.
//!
//! A PTX tensor instruction with the `.aligned` qualifier (`mma.sync`,
//! `ldmatrix.sync`, `wmma.*`, `wgmma.*`: [`crate::ir::primitives::ALIGNED_OP`])
//! must be executed by every lane of the warp together; in conditional
//! code "it should only be used if it is known that all threads in the
//! warp evaluate the condition identically" (PTX ISA). So a branch or a
//! loop whose body always reaches one states that its condition is
//! warp-uniform, as an assertion would: `for (col = threadIdx.y*32 +
//! threadIdx.x; col < ncols; …) { …; mma(…); }` tells that `ncols` is a
//! multiple of 32, which only the host checks.
//!
//! A statement list *converges* when some statement of it does and no
//! statement before it can leave (`return`, `break`, `continue`: lanes that
//! skip the instruction would make the condition divergent legitimately).
//! A statement converges when its expression calls the instruction (not in
//! a conditional operand) or a function that converges; a block, a
//! compile-time branch's taken arm, a runtime branch whose both arms do, or
//! a counted loop with constant bounds that runs at least once and whose
//! body does. A call converges where the function the module resolves it to
//! does; where that one is a stub that only traps (`NO_DEVICE_CODE` for the
//! configured architecture), where each same-named function taking as many
//! arguments converges or is such a stub, and one converges: overloads by
//! tile type are variants of one operation.
//!
//! Summaries are computed bottom-up in rounds (a function converges once a
//! callee's summary says so), at most [`ROUNDS`] rounds, each linear in the
//! module.

use crate::ir::primitives::ALIGNED_OP;
use crate::ir::*;

/// Rounds of the summary fixpoint: call chains deeper than this to the
/// instruction are not followed.
const ROUNDS: usize = 6;

/// Per function of the module: whether its body always reaches an aligned
/// tensor instruction, and whether it is a stub that only traps.
#[derive(Debug, Default)]
pub(crate) struct Table {
    conv: Vec<bool>,
    stubs: Vec<bool>,
}

impl Table {
    pub(crate) fn of(module: &Module) -> Table {
        let n = module.functions.len();
        let mut t = Table {
            conv: vec![false; n],
            stubs: Vec::new(),
        };
        if !module.functions.iter().any(mentions_aligned) {
            return t;
        }
        t.stubs = module.functions.iter().map(only_traps).collect();
        for _ in 0..ROUNDS {
            let mut changed = false;
            for i in 0..n {
                if t.conv[i] {
                    continue;
                }
                let f = &module.functions[i];
                if (Ctx {
                    module,
                    f,
                    table: &t,
                    fold: &|_| None,
                })
                .list(&f.body)
                {
                    t.conv[i] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        t
    }

    /// Whether `list`, a branch arm or loop body of `f`, always reaches an
    /// aligned tensor instruction; `fold` gives compile-time values.
    pub(crate) fn list(
        &self,
        module: &Module,
        f: &Function,
        list: &[StmtId],
        fold: &dyn Fn(ExprId) -> Option<i64>,
    ) -> bool {
        !self.stubs.is_empty()
            && (Ctx {
                module,
                f,
                table: self,
                fold,
            })
            .list(list)
    }
}

fn mentions_aligned(f: &Function) -> bool {
    f.exprs
        .iter()
        .any(|e| matches!(&e.kind, ExprKind::Call(c) if c.name == ALIGNED_OP))
}

/// A function whose body is only a trap (and declarations): the stub a
/// library leaves for an architecture without the instruction.
fn only_traps(f: &Function) -> bool {
    let mut trapped = false;
    for &s in &f.body {
        match &f.stmt(s).kind {
            StmtKind::Abort => trapped = true,
            StmtKind::Decl { .. } | StmtKind::Opaque | StmtKind::Return(None) => {}
            StmtKind::Expr(e) if matches!(f.expr(*e).kind, ExprKind::Unknown) => {}
            _ => return false,
        }
    }
    trapped
}

struct Ctx<'a> {
    module: &'a Module,
    f: &'a Function,
    table: &'a Table,
    fold: &'a dyn Fn(ExprId) -> Option<i64>,
}

impl Ctx<'_> {
    fn list(&self, list: &[StmtId]) -> bool {
        for &s in list {
            if self.stmt(s) {
                return true;
            }
            if self.may_leave(s) {
                return false;
            }
        }
        false
    }

    fn stmt(&self, s: StmtId) -> bool {
        match &self.f.stmt(s).kind {
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => self.expr(*e),
            StmtKind::Decl { init: Some(e), .. } => self.expr(*e),
            StmtKind::Block(list) => self.list(list),
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
                ..
            } => match (self.fold)(*cond).or_else(|| self.fold_plain(*cond)) {
                Some(v) if v != 0 => self.list(then_branch),
                Some(_) => self.list(else_branch),
                None => self.expr(*cond) || (self.list(then_branch) && self.list(else_branch)),
            },
            StmtKind::Loop {
                kind,
                init,
                cond,
                body,
                ..
            } => {
                let runs = *kind == LoopKind::DoWhile || self.runs_once(init, *cond);
                runs && self.list(body)
            }
            _ => false,
        }
    }

    fn fold_plain(&self, e: ExprId) -> Option<i64> {
        crate::ir::fold::eval(self.f, e, &|n| self.module.constants.get(n).copied(), 0)
    }

    /// `for (int i = A; i < B; …)` with `A < B` known at compile time.
    fn runs_once(&self, init: &[StmtId], cond: Option<ExprId>) -> bool {
        let ([only], Some(c)) = (init, cond) else {
            return false;
        };
        let StmtKind::Decl {
            name,
            init: Some(start),
            ..
        } = &self.f.stmt(*only).kind
        else {
            return false;
        };
        let ExprKind::Binary(op, a, b) = &self.f.expr(c).kind else {
            return false;
        };
        if !matches!(&self.f.expr(*a).kind, ExprKind::Var(v) if v == name) {
            return false;
        }
        let value = |e: ExprId| (self.fold)(e).or_else(|| self.fold_plain(e));
        match (value(*start), value(*b), op) {
            (Some(s), Some(end), BinOp::Lt) => s < end,
            (Some(s), Some(end), BinOp::Le) => s <= end,
            (Some(s), Some(end), BinOp::Ne) => s != end,
            _ => false,
        }
    }

    /// Whether lanes may leave the list at `s` (a `return`, `break` or
    /// `continue` anywhere in it; a loop's own `break` too, conservatively).
    fn may_leave(&self, s: StmtId) -> bool {
        let mut stack = vec![s];
        let mut budget = 100_000usize;
        while let Some(s) = stack.pop() {
            budget = match budget.checked_sub(1) {
                Some(b) => b,
                None => return true,
            };
            match &self.f.stmt(s).kind {
                StmtKind::Return(_) | StmtKind::Break | StmtKind::Continue => return true,
                StmtKind::Block(list) => stack.extend(list),
                StmtKind::If {
                    then_branch,
                    else_branch,
                    ..
                } => stack.extend(then_branch.iter().chain(else_branch)),
                StmtKind::Loop { body, .. } => stack.extend(body),
                StmtKind::Switch { cases, .. } => {
                    stack.extend(cases.iter().flat_map(|c| c.body.iter()))
                }
                _ => {}
            }
        }
        false
    }

    /// The expression calls the instruction, or a function that reaches
    /// it, whenever it is evaluated.
    fn expr(&self, root: ExprId) -> bool {
        let mut stack = vec![root];
        let mut budget = 100_000usize;
        while let Some(e) = stack.pop() {
            budget = match budget.checked_sub(1) {
                Some(b) => b,
                None => return false,
            };
            match &self.f.expr(e).kind {
                ExprKind::Call(c) => {
                    if self.call(c) {
                        return true;
                    }
                    stack.extend(&c.args);
                }
                // Only the operand evaluated in every case.
                ExprKind::Ternary(a, _, _) | ExprKind::Binary(BinOp::And | BinOp::Or, a, _) => {
                    stack.push(*a)
                }
                ExprKind::Lambda(_) => {}
                k => stack.extend(k.children()),
            }
        }
        false
    }

    fn call(&self, c: &Call) -> bool {
        if c.name == ALIGNED_OP {
            return true;
        }
        let Some(g) = self.module.callee(c) else {
            return false;
        };
        let (conv, stubs) = (&self.table.conv, &self.table.stubs);
        if conv.get(g).copied().unwrap_or(false) {
            return true;
        }
        if !stubs.get(g).copied().unwrap_or(false) {
            return false;
        }
        // The resolved overload is this configuration's stub: the call is
        // the operation its same-named, same-arity variants perform.
        let variants: Vec<usize> = (self.module.by_name.get(&c.name).into_iter().flatten())
            .copied()
            .filter(|&i| self.module.functions[i].takes_args(c.args.len()))
            .collect();
        variants.iter().any(|&i| conv[i]) && variants.iter().all(|&i| conv[i] || stubs[i])
    }
}
