//! Block extents that the code states: a row-major thread-index helper.
//!
//! CUB and its copies compute the linear thread index with a helper that
//! takes the block extents as arguments, `RowMajorTid(BlockDimX, BlockDimY,
//! BlockDimZ)` returning `threadIdx.x + threadIdx.y * x + threadIdx.z * x *
//! y`. Warps are cut from exactly that index, so, when the arguments *are*
//! the block's extents, the result divided by 32 is the warp's index. The
//! helper is recognised by the shape of what it returns, never by its name;
//! the arguments count as the extents only when they are `blockDim` itself
//! or template values of the caller (`BlockDimX`), which the executor then
//! runs equal to the block's extents (`stated_extents`). Column-major
//! (`threadIdx.y + threadIdx.x * y`) or any other shape, and extents from
//! ordinary values (a parameter, a field), stay lane-varying.

use crate::ir::*;

/// Nodes a helper's returned expression may have: a row-major index is
/// small, and the walk stays bounded whatever the helper returns.
const MAX_NODES: usize = 64;

/// A helper returning the row-major thread index of its parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowMajor {
    /// The parameter giving the x extent.
    pub x: usize,
    /// The parameter giving the y extent (a z term's second factor, or
    /// the extent a y term's guard tests).
    pub y: Option<usize>,
    /// The parameter a z term's guard tests.
    pub z: Option<usize>,
}

/// `f` returns `threadIdx.x [+ threadIdx.y * X [+ threadIdx.z * X * Y]]`
/// with `X`, `Y` two of its parameters; a term may sit in
/// `(E == 1) ? 0 : term` with `E` a parameter (zero either way when that
/// extent is 1).
pub fn row_major(f: &Function) -> Option<RowMajor> {
    let [only] = f.body.as_slice() else {
        return None;
    };
    let StmtKind::Return(Some(e)) = &f.stmt(*only).kind else {
        return None;
    };
    let param = |e: ExprId| -> Option<usize> {
        match &f.expr(strip(f, e)).kind {
            ExprKind::Var(n) => f.params.iter().position(|p| &p.name == n),
            _ => None,
        }
    };
    let mut terms = Vec::new();
    let mut budget = MAX_NODES;
    flatten(f, *e, BinOp::Add, &mut terms, &mut budget)?;
    let (mut x_term, mut y_term, mut z_term) = (false, None, None);
    // The parameter each guarded term tests, by the term's dimension.
    let (mut y_guard, mut z_guard) = (None, None);
    for t in terms {
        let (t, guard) = unguard(f, t, &param)?;
        let mut factors = Vec::new();
        flatten(f, t, BinOp::Mul, &mut factors, &mut budget)?;
        let mut dim = None;
        let mut extents = Vec::new();
        for c in factors {
            match &f.expr(strip(f, c)).kind {
                ExprKind::Builtin(Builtin::ThreadIdx(d)) if dim.is_none() => dim = Some(*d),
                _ => extents.push(param(c)?),
            }
        }
        match (dim?, extents.as_slice()) {
            (Dim::X, []) if !x_term && guard.is_none() => x_term = true,
            (Dim::Y, [x]) if y_term.is_none() => {
                y_term = Some(*x);
                y_guard = guard;
            }
            (Dim::Z, [a, b]) if z_term.is_none() => {
                z_term = Some((*a, *b));
                z_guard = guard;
            }
            _ => return None,
        }
    }
    if !x_term {
        return None;
    }
    let rm = match (y_term, z_term) {
        (Some(x), None) => RowMajor {
            x,
            y: y_guard,
            z: None,
        },
        // `threadIdx.z * X * Y`, in either order, with the y term's X.
        (Some(x), Some((a, b))) if a == x || b == x => RowMajor {
            x,
            y: Some(if a == x { b } else { a }),
            z: z_guard,
        },
        _ => return None,
    };
    // A guard must test the extent of its own term's dimension (zero
    // either way when that extent is 1), not the x extent.
    let ok = y_guard.is_none_or(|g| Some(g) == rm.y && g != rm.x)
        && z_guard.is_none_or(|g| g != rm.x && Some(g) != rm.y);
    ok.then_some(rm)
}

/// The argument is the block's extent along `dim` as the caller states
/// it: `blockDim` itself, or a template value of the caller.
pub fn stated_extent(caller: &Function, arg: ExprId, dim: Dim) -> bool {
    match &caller.expr(strip(caller, arg)).kind {
        ExprKind::Builtin(Builtin::BlockDim(d)) => *d == dim,
        ExprKind::Var(n) => caller.template_values.contains(n),
        _ => false,
    }
}

/// The template values a function passes as the x, y (and z) extents of a
/// row-major helper: the executor runs them equal to the block's extents.
pub fn stated_extents(module: &Module, f: &Function) -> Vec<(Dim, String)> {
    let mut out = Vec::new();
    for e in &f.exprs {
        let ExprKind::Call(c) = &e.kind else { continue };
        let Some(rm) = module
            .callee(c)
            .and_then(|g| row_major(&module.functions[g]))
        else {
            continue;
        };
        if !row_major_call(f, c, rm) {
            continue;
        }
        let dims = [(Dim::X, Some(rm.x)), (Dim::Y, rm.y), (Dim::Z, rm.z)];
        for (d, i) in dims {
            if let Some(ExprKind::Var(n)) = i
                .and_then(|i| c.args.get(i))
                .map(|a| &f.expr(strip(f, *a)).kind)
                && f.template_values.contains(n)
                && !out.iter().any(|(_, m)| m == n)
            {
                out.push((d, n.clone()));
            }
        }
    }
    out
}

/// A call of row-major helper `rm` whose extent arguments are stated.
pub fn row_major_call(caller: &Function, c: &Call, rm: RowMajor) -> bool {
    let arg = |i: usize| c.args.get(i).copied();
    let stated = |i: Option<usize>, d: Dim| {
        i.is_none_or(|i| arg(i).is_some_and(|a| stated_extent(caller, a, d)))
    };
    stated(Some(rm.x), Dim::X) && stated(rm.y, Dim::Y) && stated(rm.z, Dim::Z)
}

/// `static_cast<int>(e)` and the like: the value of `e`.
fn strip(f: &Function, mut e: ExprId) -> ExprId {
    for _ in 0..8 {
        match &f.expr(e).kind {
            ExprKind::Call(c)
                if c.receiver.is_none()
                    && c.args.len() == 1
                    && matches!(c.name.as_str(), "static_cast" | "int" | "unsigned") =>
            {
                e = c.args[0]
            }
            _ => break,
        }
    }
    e
}

/// `(E == 1) ? 0 : t` (or `E != 1 ? t : 0`) with `E` a parameter: `t`
/// and `E`'s position.
fn unguard(
    f: &Function,
    e: ExprId,
    param: &dyn Fn(ExprId) -> Option<usize>,
) -> Option<(ExprId, Option<usize>)> {
    let e = strip(f, e);
    let ExprKind::Ternary(c, a, b) = &f.expr(e).kind else {
        return Some((e, None));
    };
    let ExprKind::Binary(op @ (BinOp::Eq | BinOp::Ne), l, r) = &f.expr(strip(f, *c)).kind else {
        return None;
    };
    let one = matches!(f.expr(strip(f, *r)).kind, ExprKind::Int(1));
    let p = param(*l)?;
    let zero = |x: ExprId| matches!(f.expr(strip(f, x)).kind, ExprKind::Int(0));
    match op {
        BinOp::Eq if one && zero(*a) => Some((*b, Some(p))),
        BinOp::Ne if one && zero(*b) => Some((*a, Some(p))),
        _ => None,
    }
}

/// The operands of a chain of `op` (`a + b + c`), bounded by `budget`.
fn flatten(
    f: &Function,
    e: ExprId,
    op: BinOp,
    out: &mut Vec<ExprId>,
    budget: &mut usize,
) -> Option<()> {
    let mut stack = vec![e];
    while let Some(id) = stack.pop() {
        *budget = budget.checked_sub(1)?;
        let id = strip(f, id);
        match &f.expr(id).kind {
            ExprKind::Binary(o, a, b) if *o == op => {
                stack.push(*b);
                stack.push(*a);
            }
            _ => out.push(id),
        }
    }
    Some(())
}
