//! Comparisons every lane decides alike because of the ranges of their
//! operands: `(warp & 1) * 32 + lane < 64` holds in every lane, whatever
//! the warp, since `warp & 1` is 0 or 1 and the lane below 32. Generated
//! kernels guard warp-wide code this way; a guard that never splits a warp
//! is not divergence.
//!
//! Each operand is read as an interval of non-negative integers: literals,
//! the lane id (0–31), `threadIdx` (0–1023), `x & k` (0–k whatever `x`),
//! `x % k` and `x / k`, `x >> k` of a non-negative `x`, sums, products and
//! differences that stay non-negative, either arm of a `?:` (the one a
//! literal condition picks), and an `int`
//! local declared once and never written (its initializer) or stored once
//! (`asm("mov.u32 %0, %%laneid;" : "=r"(lane))`). Everything
//! stays in `0..=i32::MAX`, so signed and unsigned comparisons agree and
//! no 32-bit operation wraps; a cast (invisible in the IR, which keeps its
//! operand) or a narrow local is read only where its interval fits every
//! integer type (0–127). Anything else has no interval, and the
//! comparison keeps its level.
//!
//! Bounded: [`MAX_DEPTH`] nested operands; the caller's step budget.

use super::linear::Leaves;
use crate::ir::*;

const MAX_DEPTH: usize = 24;

/// Fits `signed char`, the narrowest integer a cast or local may be.
const NARROW_MAX: i64 = 127;

/// The largest `threadIdx` component (a block has at most 1024 threads).
const MAX_THREAD_INDEX: i64 = 1023;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Range {
    lo: i64,
    hi: i64,
}

impl Range {
    fn new(lo: i64, hi: i64) -> Option<Range> {
        (0 <= lo && lo <= hi && hi <= i64::from(i32::MAX)).then_some(Range { lo, hi })
    }
}

/// Whether `a op b` (a comparison) has one value in every lane.
pub fn comparison_is_constant(cx: &mut dyn Leaves, op: BinOp, a: ExprId, b: ExprId) -> bool {
    let (Some(x), Some(y)) = (range(cx, a, 0), range(cx, b, 0)) else {
        return false;
    };
    let (always, never) = match op {
        BinOp::Lt => (x.hi < y.lo, x.lo >= y.hi),
        BinOp::Le => (x.hi <= y.lo, x.lo > y.hi),
        BinOp::Gt => (x.lo > y.hi, x.hi <= y.lo),
        BinOp::Ge => (x.lo >= y.hi, x.hi < y.lo),
        BinOp::Eq => (
            x.lo == x.hi && y.lo == y.hi && x.lo == y.lo,
            x.hi < y.lo || y.hi < x.lo,
        ),
        BinOp::Ne => (
            x.hi < y.lo || y.hi < x.lo,
            x.lo == x.hi && y.lo == y.hi && x.lo == y.lo,
        ),
        _ => (false, false),
    };
    always || never
}

fn range(cx: &mut dyn Leaves, e: ExprId, depth: usize) -> Option<Range> {
    if depth > MAX_DEPTH || !cx.step() {
        return None;
    }
    let r = match &cx.f().expr(e).kind {
        ExprKind::Int(v) => Range::new(*v, *v)?,
        ExprKind::Builtin(Builtin::LaneId) => Range::new(0, 31)?,
        ExprKind::Builtin(Builtin::ThreadIdx(_)) => Range::new(0, MAX_THREAD_INDEX)?,
        ExprKind::Builtin(Builtin::WarpSize) => Range::new(32, 32)?,
        ExprKind::Var(name) => {
            let local = cx.locals().get(name.as_str()).copied()?;
            let r = range(cx, local.init.or(local.only_store)?, depth + 1)?;
            if !local.int_type.is_32_bit() && r.hi > NARROW_MAX {
                return None;
            }
            r
        }
        // A literal condition (generated code's `(0) ? a : b`) picks its arm.
        &ExprKind::Ternary(c, a, b) => match cx.f().expr(c).kind {
            ExprKind::Int(v) => range(cx, if v != 0 { a } else { b }, depth + 1)?,
            _ => {
                let (x, y) = (range(cx, a, depth + 1)?, range(cx, b, depth + 1)?);
                Range::new(x.lo.min(y.lo), x.hi.max(y.hi))?
            }
        },
        &ExprKind::Binary(op, a, b) => {
            // `x & k`: 0..=k whatever `x` is.
            let literal = |cx: &mut dyn Leaves, e: ExprId| match cx.f().expr(e).kind {
                ExprKind::Int(v) if v >= 0 => Some(v),
                _ => None,
            };
            if op == BinOp::BitAnd
                && let Some(k) = literal(cx, b).or_else(|| literal(cx, a))
            {
                Range::new(0, k)?
            } else {
                let x = range(cx, a, depth + 1)?;
                let y = range(cx, b, depth + 1)?;
                match op {
                    BinOp::Add => Range::new(x.lo + y.lo, x.hi + y.hi)?,
                    BinOp::Sub => Range::new(x.lo - y.hi, x.hi - y.lo)?,
                    BinOp::Mul => Range::new(x.lo * y.lo, x.hi.checked_mul(y.hi)?)?,
                    BinOp::Div if y.lo > 0 => Range::new(x.lo / y.hi, x.hi / y.lo)?,
                    BinOp::Rem if y.lo > 0 => Range::new(0, x.hi.min(y.hi - 1))?,
                    BinOp::Shr if y.hi < 32 => Range::new(x.lo >> y.hi, x.hi >> y.lo)?,
                    _ => return None,
                }
            }
        }
        _ => return None,
    };
    // A cast may narrow its operand.
    if cx.f().casts.contains(&e) && r.hi > NARROW_MAX {
        return None;
    }
    Some(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataflow::Level;
    use crate::dataflow::linear::{IntLocal, int_locals};
    use rustc_hash::FxHashMap as HashMap;

    struct Plain<'f> {
        f: &'f Function,
        locals: HashMap<String, IntLocal>,
    }

    impl Leaves for Plain<'_> {
        fn f(&self) -> &Function {
            self.f
        }
        fn locals(&self) -> &HashMap<String, IntLocal> {
            &self.locals
        }
        fn level(&mut self, _: ExprId) -> Level {
            Level::Varying
        }
        fn var_level(&self, _: &str) -> Level {
            Level::Varying
        }
        fn step(&mut self) -> bool {
            true
        }
    }

    /// Whether the condition of the first `if` in `body` is constant.
    fn constant(body: &str) -> bool {
        let src = format!("__global__ void k(int *o, int n) {{ {body} }}");
        let source = crate::source::SourceFile::new("t.cu", src.as_bytes());
        let parsed = crate::frontend::parse(source).expect("parses");
        let m = crate::ir::lower_file(&parsed, &crate::frontend::PreprocEnv::default());
        let f = &m.functions[0];
        let cond = f
            .stmts
            .iter()
            .find_map(|s| match &s.kind {
                StmtKind::If { cond, .. } => Some(*cond),
                _ => None,
            })
            .expect("an if");
        let ExprKind::Binary(op, a, b) = f.expr(cond).kind else {
            panic!("a comparison")
        };
        let mut cx = Plain {
            f,
            locals: int_locals(f),
        };
        comparison_is_constant(&mut cx, op, a, b)
    }

    #[test]
    fn ranges_decide_comparisons_every_lane_decides_alike() {
        let lane = "int w = threadIdx.x / 32; int lane = threadIdx.x % 32;";
        assert!(constant(&format!(
            "{lane} int row = (w & 1) * 32 + lane; if (row < 64) o[0] = 1;"
        )));
        assert!(constant(&format!(
            "{lane} int row = (unsigned int)((w & 1) * 32) + lane; if (row >= 64) o[0] = 1;"
        )));
        assert!(constant(&format!("{lane} if ((lane & 7) != 9) o[0] = 1;")));
        assert!(constant("if (threadIdx.x % 32 < 32) o[0] = 1;"));
        assert!(constant(&format!("{lane} if (lane / 8 <= 3) o[0] = 1;")));
        // A lane id stored once by inline PTX.
        assert!(constant(
            "unsigned lane; asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(lane)); \
             unsigned row = ((threadIdx.x / 32) & 1) * 32 + lane; if (row < 64) o[0] = 1;"
        ));
    }

    #[test]
    fn comparisons_that_split_lanes_or_read_unknowns_stay() {
        let lane = "int w = threadIdx.x / 32; int lane = threadIdx.x % 32;";
        assert!(!constant(&format!(
            "{lane} int row = (w & 3) * 32 + lane; if (row < 64) o[0] = 1;"
        )));
        assert!(!constant(&format!("{lane} if (lane < 16) o[0] = 1;")));
        assert!(!constant(&format!("{lane} if (lane + n < 64) o[0] = 1;")));
        assert!(!constant(&format!("{lane} if (lane - 8 < 64) o[0] = 1;")));
        // A local written again is not its initializer.
        assert!(!constant(&format!(
            "{lane} int r = lane & 1; r += n; if (r < 64) o[0] = 1;"
        )));
        assert!(!constant(&format!(
            "{lane} int r; r = lane; r = n; if (r < 64) o[0] = 1;"
        )));
        // A narrow local or cast of a value past 127 may wrap.
        assert!(!constant(&format!(
            "{lane} char c = lane * 8; if (c >= 0) o[0] = 1;"
        )));
        assert!(!constant("if ((char)(threadIdx.x) >= 0) o[0] = 1;"));
    }
}
