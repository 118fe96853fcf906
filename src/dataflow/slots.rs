//! Comparisons that cut the threads of a block only at block boundaries.
//!
//! `blockIdx.y * 128 + threadIdx.x < 2688` in a kernel of at most 128
//! threads per block (`__launch_bounds__(128)`) holds in every thread of a
//! block or in none: the left side is `128·u + t` with `u` the same for the
//! whole block and `0 ≤ t < 128`, and `2688 = 128·21`, so it holds exactly
//! when `u < 21`. In general `K·u + t < K·m` holds exactly when `u < m`,
//! whenever `0 ≤ t < K`.
//!
//! The same argument makes a block-stride loop
//! `for (i = threadIdx.x; i < n; i += blockDim.x)` run as often in every
//! thread when `n` is a block-uniform multiple of `blockDim.x`: thread `t`
//! runs while `K·j + t < K·m`, that is `m` times. Kernels round a loop's
//! bound up that way so that every thread reaches a barrier in the loop.
//!
//! A side `K·u + t` is a sum whose one lane-varying term is `threadIdx.x`
//! (through `int` locals declared once and never written) and whose other
//! terms are block-uniform multiples of `K`. `K` is a constant that bounds
//! the block's width (`__launch_bounds__`, or the extent every launch
//! states), or `blockDim.x` itself. Integer arithmetic is taken as exact
//! (index arithmetic that overflows is a bug of its own).
//!
//! Bounded: [`MAX_DEPTH`] nested expressions, and every node read spends
//! one step of the caller's budget.

use super::Level;
use super::linear::Leaves;
use crate::ir::asserts::Divisor;
use crate::ir::*;

const MAX_DEPTH: usize = 16;

/// The step between the block slots a comparison may cut at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    /// A constant at least as large as the block's width.
    Threads(i64),
    /// `blockDim.x`.
    BlockWidth,
}

/// What the slot reading needs beyond the linear forms' leaves.
pub trait SlotLeaves: Leaves {
    /// The value of a named constant (a file constant or a local that
    /// folds).
    fn constant(&self, name: &str) -> Option<i64>;
    /// A bound on `blockDim.x` the code states (`__launch_bounds__`, the
    /// x extent of every launch).
    fn block_width_at_most(&self) -> Option<u32>;
    /// How many expressions of the function write `name` ([`write_counts`]).
    fn writes(&self, name: &str) -> u32;
    /// The x extent every launch of the function states.
    fn block_width(&self) -> Option<u32>;
    /// What the body's opening assertions state divides the name or field
    /// path `path` (`FnFacts::asserted_multiples`).
    fn asserted_multiple(&self, path: &str) -> Option<Divisor>;
}

/// How many expressions write each variable (an assignment, an update or
/// `&x`), counted once per function.
pub fn write_counts(f: &Function) -> rustc_hash::FxHashMap<String, u32> {
    let mut out = rustc_hash::FxHashMap::default();
    for n in f.writes() {
        *out.entry(n.to_owned()).or_insert(0) += 1;
    }
    out
}

/// `a op b` holds in all threads of a block or in none of them.
pub fn comparison_is_block_uniform(
    cx: &mut dyn SlotLeaves,
    op: BinOp,
    a: ExprId,
    b: ExprId,
) -> bool {
    // With `s` the side read as `K·u + t` and `c` the other: `s < c` and
    // `s >= c` cut where `c` does, `s <= c` and `s > c` where `c + 1` does.
    let orientations = [
        (a, b, matches!(op, BinOp::Le | BinOp::Gt)),
        (b, a, matches!(op, BinOp::Lt | BinOp::Ge)),
    ];
    orientations
        .into_iter()
        .any(|(slot, other, plus_one)| cuts_at_slots(cx, slot, other, plus_one))
}

/// `slot < other (+ 1)` holds in all threads of a block or in none.
fn cuts_at_slots(cx: &mut dyn SlotLeaves, slot: ExprId, other: ExprId, plus_one: bool) -> bool {
    if cx.level(other) != Level::Uniform {
        return false;
    }
    let Some(terms) = slot_terms(cx, slot) else {
        return false;
    };
    units(cx, &terms, other).into_iter().any(|k| {
        terms.iter().all(|&t| multiple_of(cx, t, k, 0))
            && match (plus_one, k) {
                (false, _) => multiple_of(cx, other, k, 0),
                (true, Unit::Threads(k)) => {
                    literal(cx.f(), other).is_some_and(|c| (c + 1).rem_euclid(k) == 0)
                }
                (true, Unit::BlockWidth) => false,
            }
    })
}

/// The bound and the stride of `for (…; i < n; i += s)` (or `n > i`),
/// for the loop variable `var`.
pub fn stride_loop_parts(
    f: &Function,
    var: &str,
    cond: ExprId,
    step: ExprId,
) -> Option<(ExprId, ExprId)> {
    let bound = match &f.expr(cond).kind {
        ExprKind::Binary(BinOp::Lt, i, n) if is_var(f, *i, var) => *n,
        ExprKind::Binary(BinOp::Gt, n, i) if is_var(f, *i, var) => *n,
        _ => return None,
    };
    let stride = match &f.expr(step).kind {
        ExprKind::Assign {
            op: Some(BinOp::Add),
            lhs,
            rhs,
        } if is_var(f, *lhs, var) => *rhs,
        _ => return None,
    };
    Some((bound, stride))
}

/// `for (i = K·u + threadIdx.x; i < K·m; i += K)` (with `i` written
/// nowhere else): every thread of the block runs it `m - u` times.
pub fn stride_loop_is_block_uniform(
    cx: &mut dyn SlotLeaves,
    var: &str,
    start: ExprId,
    bound: ExprId,
    stride: ExprId,
) -> bool {
    let f = cx.f();
    // A stride of whole blocks (`blockDim.x * gridDim.x` too: each test
    // cuts between the same blocks for every thread).
    let literal_stride = literal(f, stride);
    let unit = match literal_stride {
        Some(k) if k > 0 && cx.block_width_at_most().is_some_and(|w| i64::from(w) <= k) => {
            Unit::Threads(k)
        }
        _ if multiple_of(cx, stride, Unit::BlockWidth, 0) => Unit::BlockWidth,
        _ => return false,
    };
    if cx.writes(var) != 1 || cx.level(bound) != Level::Uniform {
        return false;
    }
    let Some(terms) = slot_terms(cx, start) else {
        return false;
    };
    terms.iter().all(|&t| multiple_of(cx, t, unit, 0)) && multiple_of(cx, bound, unit, 0)
}

fn is_var(f: &Function, e: ExprId, name: &str) -> bool {
    matches!(&f.expr(e).kind, ExprKind::Var(n) if n == name)
}

fn literal(f: &Function, e: ExprId) -> Option<i64> {
    match f.expr(e).kind {
        ExprKind::Int(v) => Some(v),
        _ => None,
    }
}

/// The block-uniform terms of `e` when `e` is those terms plus
/// `threadIdx.x` (once, added).
fn slot_terms(cx: &mut dyn SlotLeaves, e: ExprId) -> Option<Vec<ExprId>> {
    let mut terms = Vec::new();
    let mut threads = 0;
    let mut work = vec![(e, 0usize)];
    while let Some((e, depth)) = work.pop() {
        if depth > MAX_DEPTH || !cx.step() {
            return None;
        }
        let f = cx.f();
        match f.expr(e).kind.clone() {
            ExprKind::Builtin(Builtin::ThreadIdx(Dim::X)) => threads += 1,
            ExprKind::Binary(BinOp::Add, a, b) => {
                work.push((a, depth + 1));
                work.push((b, depth + 1));
            }
            // Only the uniform side may be subtracted: `t` keeps sign +.
            ExprKind::Binary(BinOp::Sub, a, b) if cx.level(b) == Level::Uniform => {
                work.push((a, depth + 1));
                terms.push(b);
            }
            ExprKind::Var(name) if cx.var_level(&name) != Level::Uniform => {
                let local = cx.locals().get(&name).copied()?;
                if !local.int_type.is_32_bit() {
                    return None;
                }
                work.push((local.init?, depth + 1));
            }
            _ if cx.level(e) == Level::Uniform => terms.push(e),
            _ => return None,
        }
    }
    (threads == 1).then_some(terms)
}

/// The steps a comparison of `terms + threadIdx.x` with `bound` may cut at:
/// the constant factors of its terms and of its bound that bound the
/// block's width, the bound on the width itself, and `blockDim.x`.
fn units(cx: &mut dyn SlotLeaves, terms: &[ExprId], bound: ExprId) -> Vec<Unit> {
    let mut out = vec![Unit::BlockWidth];
    let Some(width) = cx.block_width_at_most().map(i64::from) else {
        return out;
    };
    out.push(Unit::Threads(width));
    let f = cx.f();
    for &t in terms.iter().chain(std::iter::once(&bound)) {
        if let ExprKind::Binary(BinOp::Mul, a, b) = f.expr(t).kind {
            for k in [literal(f, a), literal(f, b)].into_iter().flatten() {
                if k >= width && !out.contains(&Unit::Threads(k)) {
                    out.push(Unit::Threads(k));
                }
            }
        }
    }
    out
}

/// `e` (block-uniform) is a multiple of `k` whatever its value.
fn multiple_of(cx: &mut dyn SlotLeaves, e: ExprId, k: Unit, depth: usize) -> bool {
    if depth > MAX_DEPTH || !cx.step() {
        return false;
    }
    let f = cx.f();
    match f.expr(e).kind.clone() {
        ExprKind::Int(v) => match k {
            Unit::Threads(k) => v.rem_euclid(k) == 0,
            Unit::BlockWidth => v == 0,
        },
        ExprKind::Builtin(Builtin::BlockDim(Dim::X)) => k == Unit::BlockWidth,
        ExprKind::Binary(BinOp::Mul, a, b) => {
            multiple_of(cx, a, k, depth + 1) || multiple_of(cx, b, k, depth + 1)
        }
        ExprKind::Binary(BinOp::Shl, a, b) => {
            let shifted = match (k, literal(f, b)) {
                (Unit::Threads(k), Some(s)) if (0..62).contains(&s) => (1i64 << s) % k == 0,
                _ => false,
            };
            shifted || multiple_of(cx, a, k, depth + 1)
        }
        ExprKind::Binary(BinOp::Add | BinOp::Sub, a, b) => {
            multiple_of(cx, a, k, depth + 1) && multiple_of(cx, b, k, depth + 1)
        }
        ExprKind::Unary(UnOp::Neg, a) => multiple_of(cx, a, k, depth + 1),
        ExprKind::Ternary(_, a, b) => {
            multiple_of(cx, a, k, depth + 1) && multiple_of(cx, b, k, depth + 1)
        }
        ExprKind::Var(name) => {
            if let Some(v) = cx.constant(&name) {
                return match k {
                    Unit::Threads(k) => v.rem_euclid(k) == 0,
                    Unit::BlockWidth => v == 0,
                };
            }
            match cx.locals().get(&name).and_then(|l| l.init) {
                Some(init) => multiple_of(cx, init, k, depth + 1),
                None => asserted_multiple_of(cx, e, k),
            }
        }
        ExprKind::Member(..) => asserted_multiple_of(cx, e, k),
        _ => false,
    }
}

/// `e` (a name or a field path the function never writes) is a multiple
/// of `k` by what the body's opening assertions state.
fn asserted_multiple_of(cx: &mut dyn SlotLeaves, e: ExprId, k: Unit) -> bool {
    let Some((root, path)) = cx.f().access_path(e) else {
        return false;
    };
    if cx.writes(root) != 0 {
        return false;
    }
    match (cx.asserted_multiple(&path), k) {
        (Some(Divisor::BlockWidth), Unit::BlockWidth) => true,
        (Some(Divisor::Const(m)), Unit::Threads(k)) => m % k == 0,
        // `p.n % 128 == 0` with every launch's block 128 (or 64) wide.
        (Some(Divisor::Const(m)), Unit::BlockWidth) => cx
            .block_width()
            .is_some_and(|w| w > 0 && m % i64::from(w) == 0),
        _ => false,
    }
}
