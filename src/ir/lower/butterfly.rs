//! Xor butterflies written as loops.
//!
//! ```text
//! for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
//! ```
//!
//! leaves one value in every lane when the offsets are 16, 8, 4, 2 and 1
//! and the step's operator is commutative (`dataflow::exchange` has the
//! argument, for the same steps written one after another). The dataflow
//! keeps one level per name, and a loop's body is not renamed per
//! iteration, so after the loop `v` would keep the level of what each
//! lane loaded into it. This pass writes, after such a loop, the
//! assignment `v = WARP_REDUCED(v, kind, bound, width)` (or returns it,
//! where `return v;` follows): the scopes pass makes the assignment a new
//! version of `v` where it can (`scopes.rs`), and the
//! dataflow reads it as one value per warp where `bound` and `width` fold
//! to a full butterfly (in a template, only in the instances that bind
//! them), else as `v`. The executor reads it as `v`.
//!
//! Matched syntactically: a loop whose only statement is the step, whose
//! counter starts at `bound` and halves while positive (`kind` 0), or
//! starts at 1 and doubles while below `bound` (`kind` 1). Linear: each
//! statement list is rebuilt once.

use super::coop::Emit;
use crate::ir::primitives::{ShflMode, WARP_REDUCED};
use crate::ir::*;

/// After every butterfly loop of `f`, the assignment that marks its result.
pub(super) fn mark_loop_butterflies(f: &mut Function) {
    if !f
        .stmts
        .iter()
        .any(|s| matches!(s.kind, StmtKind::Loop { .. }))
    {
        return;
    }
    let body = std::mem::take(&mut f.body);
    f.body = rewrite(f, body);
    // The marks appended are plain statements: no lists of their own.
    for i in 0..f.stmts.len() {
        let mut kind = std::mem::replace(&mut f.stmts[i].kind, StmtKind::Opaque);
        match &mut kind {
            StmtKind::If {
                then_branch,
                else_branch,
                ..
            } => {
                *then_branch = rewrite(f, std::mem::take(then_branch));
                *else_branch = rewrite(f, std::mem::take(else_branch));
            }
            StmtKind::Loop { body, .. } => *body = rewrite(f, std::mem::take(body)),
            StmtKind::Block(list) => *list = rewrite(f, std::mem::take(list)),
            StmtKind::Switch { cases, .. } => {
                for c in cases.iter_mut() {
                    c.body = rewrite(f, std::mem::take(&mut c.body));
                }
            }
            _ => {}
        }
        f.stmts[i].kind = kind;
    }
}

fn rewrite(f: &mut Function, list: Vec<StmtId>) -> Vec<StmtId> {
    let mut out = Vec::with_capacity(list.len());
    let mut list = list.into_iter().peekable();
    while let Some(sid) = list.next() {
        out.push(sid);
        let Some(b) = butterfly(f, sid) else { continue };
        // `return v;` right after: it returns the mark (a parameter
        // reduced inside a branch cannot take a new version).
        let returns_var = list.peek().copied().filter(|&next| {
            matches!(&f.stmt(next).kind, StmtKind::Return(Some(e)) if var(f, *e) == Some(b.var.as_str()))
        });
        let (value, span) = mark_value(f, sid, &b);
        if let Some(ret) = returns_var {
            // In place: the function's returns are its statements.
            f.stmts[ret as usize].kind = StmtKind::Return(Some(value));
        } else {
            let lhs = push(f, ExprKind::Var(b.var), span);
            let assign = push(
                f,
                ExprKind::Assign {
                    op: None,
                    lhs,
                    rhs: value,
                },
                span,
            );
            out.push(new_stmt(f, StmtKind::Expr(assign), span));
        }
    }
    out
}

/// What one butterfly loop combines: the variable, the counter's shape
/// (0: halving from `bound`, 1: doubling from 1 below `bound`), `bound`
/// and the shuffle's width (`None`: the default, 32).
struct Butterfly {
    var: String,
    kind: i64,
    bound: ExprId,
    width: Option<ExprId>,
}

fn butterfly(f: &Function, sid: StmtId) -> Option<Butterfly> {
    let StmtKind::Loop {
        init,
        cond,
        step,
        body,
        ..
    } = &f.stmt(sid).kind
    else {
        return None;
    };
    let ([first], [only]) = (init.as_slice(), body.as_slice()) else {
        return None;
    };
    let (counter, start) = match &f.stmt(*first).kind {
        StmtKind::Decl {
            name,
            init: Some(e),
            dims,
            ..
        } if dims.is_empty() => (name.as_str(), *e),
        StmtKind::Expr(e) => match &f.expr(*e).kind {
            ExprKind::Assign { op: None, lhs, rhs } => (var(f, *lhs)?, *rhs),
            _ => return None,
        },
        _ => return None,
    };
    let halves = match step_of(f, (*step)?, counter)? {
        Step::Halve => true,
        Step::Double => false,
    };
    let ExprKind::Binary(op, a, b) = &f.expr((*cond)?).kind else {
        return None;
    };
    if var(f, *a) != Some(counter) {
        return None;
    }
    let int = |e: ExprId| match f.expr(e).kind {
        ExprKind::Int(v) => Some(v),
        _ => None,
    };
    let (kind, bound) = match (halves, op) {
        (true, BinOp::Gt | BinOp::Ne) if int(*b) == Some(0) => (0, start),
        (true, BinOp::Ge) if int(*b) == Some(1) => (0, start),
        (false, BinOp::Lt) if int(start) == Some(1) => (1, *b),
        _ => return None,
    };
    let (v, width) = step_statement(f, *only, counter)?;
    Some(Butterfly {
        var: v.to_owned(),
        kind,
        bound,
        width,
    })
}

enum Step {
    Halve,
    Double,
}

/// `o >>= 1`, `o /= 2`, `o = o >> 1`, `o = o / 2` (and doubling).
fn step_of(f: &Function, e: ExprId, counter: &str) -> Option<Step> {
    let ExprKind::Assign { op, lhs, rhs } = &f.expr(e).kind else {
        return None;
    };
    if var(f, *lhs) != Some(counter) {
        return None;
    }
    let (op, by) = match op {
        Some(op) => (*op, *rhs),
        None => match &f.expr(*rhs).kind {
            ExprKind::Binary(op, a, b) if var(f, *a) == Some(counter) => (*op, *b),
            _ => return None,
        },
    };
    match (op, &f.expr(by).kind) {
        (BinOp::Shr, ExprKind::Int(1)) | (BinOp::Div, ExprKind::Int(2)) => Some(Step::Halve),
        (BinOp::Shl, ExprKind::Int(1)) | (BinOp::Mul, ExprKind::Int(2)) => Some(Step::Double),
        _ => None,
    }
}

/// `v op= __shfl_xor_sync(0xffffffff, v, o[, w])` or `v = op(v, …)` with a
/// commutative `op`: the variable and the width.
fn step_statement<'f>(
    f: &'f Function,
    sid: StmtId,
    counter: &str,
) -> Option<(&'f str, Option<ExprId>)> {
    let mut sid = sid;
    // `{ v += …; }`: a block of one statement.
    while let StmtKind::Block(list) = &f.stmt(sid).kind {
        let [inner] = list.as_slice() else {
            return None;
        };
        sid = *inner;
    }
    let StmtKind::Expr(e) = &f.stmt(sid).kind else {
        return None;
    };
    let ExprKind::Assign { op, lhs, rhs } = &f.expr(*e).kind else {
        return None;
    };
    let v = var(f, *lhs)?;
    let shuffle = match op {
        Some(op) if op.is_commutative() => *rhs,
        Some(_) => return None,
        None => match &f.expr(*rhs).kind {
            ExprKind::Binary(op, a, b)
                if op.is_commutative() || matches!(op, BinOp::And | BinOp::Or) =>
            {
                match (var(f, *a), var(f, *b)) {
                    (Some(x), _) if x == v => *b,
                    (_, Some(x)) if x == v => *a,
                    _ => return None,
                }
            }
            _ => return None,
        },
    };
    let ExprKind::Call(c) = &f.expr(shuffle).kind else {
        return None;
    };
    let xor = Primitive::from_call(&c.name, c.scope.as_deref(), c.receiver.is_some())
        == Some(Primitive::Shfl(ShflMode::Xor));
    let full = matches!(
        c.args.first().map(|m| &f.expr(*m).kind),
        Some(ExprKind::Int(0xffff_ffff))
    );
    let reads_v = c.args.get(1).and_then(|a| var(f, *a)) == Some(v);
    let by_counter = c.args.get(2).and_then(|a| var(f, *a)) == Some(counter);
    (xor && full && reads_v && by_counter && v != counter && c.args.len() <= 4)
        .then(|| (v, c.args.get(3).copied()))
}

fn var(f: &Function, e: ExprId) -> Option<&str> {
    match &f.expr(e).kind {
        ExprKind::Var(name) => Some(name),
        _ => None,
    }
}

/// `WARP_REDUCED(v, kind, bound, width)` for loop `sid`, with copies of
/// `bound` and `width` (each expression has one place in the tree), and
/// the span it takes: the loop's end.
fn mark_value(f: &mut Function, sid: StmtId, b: &Butterfly) -> (ExprId, ByteSpan) {
    let span = f.stmt(sid).span;
    let at = (span.1, span.1);
    let bound = copy(f, b.bound, at);
    let width = match b.width {
        Some(w) => copy(f, w, at),
        None => push(f, ExprKind::Int(32), at),
    };
    let read = push(f, ExprKind::Var(b.var.clone()), at);
    let kind = push(f, ExprKind::Int(b.kind), at);
    let value = Emit(&mut f.exprs).prim_call(WARP_REDUCED, vec![read, kind, bound, width], at);
    (value, at)
}

fn new_stmt(f: &mut Function, kind: StmtKind, span: ByteSpan) -> StmtId {
    f.stmts.push(Stmt { kind, span });
    (f.stmts.len() - 1) as StmtId
}

fn push(f: &mut Function, kind: ExprKind, span: ByteSpan) -> ExprId {
    f.exprs.push(Expr { kind, span });
    (f.exprs.len() - 1) as ExprId
}

/// A copy of a small constant expression (`16`, `W`, `W / 2`); anything
/// larger or of another kind becomes `Unknown`, which never folds.
fn copy(f: &mut Function, e: ExprId, span: ByteSpan) -> ExprId {
    let kind = match f.expr(e).kind.clone() {
        k @ (ExprKind::Int(_) | ExprKind::Var(_)) => k,
        ExprKind::Binary(op, a, b) => {
            let leaf = |x: ExprId| matches!(f.expr(x).kind, ExprKind::Int(_) | ExprKind::Var(_));
            if !(leaf(a) && leaf(b)) {
                ExprKind::Unknown
            } else {
                let (ka, kb) = (f.expr(a).kind.clone(), f.expr(b).kind.clone());
                let a = push(f, ka, span);
                let b = push(f, kb, span);
                ExprKind::Binary(op, a, b)
            }
        }
        _ => ExprKind::Unknown,
    };
    push(f, kind, span)
}
