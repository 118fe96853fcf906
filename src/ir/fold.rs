//! Constant folding over IR expressions. Unknown stays unknown: any operand
//! that is not a known integer makes the result `None`, never a guess,
//! except where the other operand decides it (`0 && x`, `1 || x`).

use rustc_hash::FxHashMap as HashMap;

use super::{BinOp, Builtin, ExprId, ExprKind, Function, UnOp};

/// Fold `e` to an integer using `consts` for names.
pub fn eval_const(f: &Function, e: ExprId, consts: &HashMap<String, i64>) -> Option<i64> {
    eval(f, e, &|name| consts.get(name).copied(), 0)
}

/// Fold with a caller-supplied name lookup.
pub fn eval(
    f: &Function,
    e: ExprId,
    lookup: &dyn Fn(&str) -> Option<i64>,
    depth: usize,
) -> Option<i64> {
    if depth > super::lower::MAX_EXPR_DEPTH {
        return None;
    }
    let d = depth + 1;
    match &f.expr(e).kind {
        ExprKind::Int(v) => Some(*v),
        ExprKind::Var(name) => lookup(name),
        ExprKind::Builtin(Builtin::WarpSize) => Some(32),
        ExprKind::Unary(op, a) => {
            let a = eval(f, *a, lookup, d)?;
            match op {
                UnOp::Neg => Some(a.wrapping_neg()),
                UnOp::Not => Some((a == 0) as i64),
                UnOp::BitNot => Some(bit_not(a)),
                _ => None,
            }
        }
        // `0 && x` and `1 || x` are known whatever `x` is (either side).
        ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
            let decides = *op == BinOp::Or;
            let a = eval(f, *a, lookup, d);
            if a.is_some_and(|v| (v != 0) == decides) {
                return Some(decides as i64);
            }
            let b = eval(f, *b, lookup, d);
            if b.is_some_and(|v| (v != 0) == decides) {
                return Some(decides as i64);
            }
            apply_binop(*op, a?, b?)
        }
        ExprKind::Binary(op, a, b) => {
            let a = eval(f, *a, lookup, d)?;
            let b = eval(f, *b, lookup, d)?;
            apply_binop(*op, a, b)
        }
        ExprKind::Ternary(c, a, b) => {
            if eval(f, *c, lookup, d)? != 0 {
                eval(f, *a, lookup, d)
            } else {
                eval(f, *b, lookup, d)
            }
        }
        // A call of a function-like macro whose body ignores its
        // arguments, or of a constant `constexpr` function
        // (`lower::constants`): `width()`, `Cfg::width()`.
        ExprKind::Call(c) if c.receiver.is_none() && c.template_args.is_empty() => {
            let member = c.args.is_empty() && f.class.is_some();
            call_keys(member, c.scope.as_deref(), &c.name).find_map(|k| lookup(&k))
        }
        _ => None,
    }
}

/// The constant key a call reads (`lower::constants`): `name()`, or
/// `Scope::name()` for a scoped call; no identifier spells either.
pub fn call_key(scope: Option<&str>, name: &str) -> String {
    match scope {
        Some(s) if !s.is_empty() => format!("{s}::{name}()"),
        _ => format!("{name}()"),
    }
}

/// The keys a call may read its constant under, in order: a scoped call's
/// own (`Layout::width()`, a class's), then the bare `name()`, as a
/// namespace's constants are keyed (`rowkit::row_lanes()` reads
/// `row_lanes()`, as `rowkit::kLanes` reads `kLanes`). An unqualified
/// call of no arguments in a member (`member`) reads none: C++ finds the
/// class's own member of that name first (`::name()` reads the bare key).
pub fn call_keys(member: bool, scope: Option<&str>, name: &str) -> impl Iterator<Item = String> {
    let own = (scope.filter(|s| !s.is_empty())).map(|s| call_key(Some(s), name));
    let bare = (scope.is_some() || !member).then(|| call_key(None, name));
    own.into_iter().chain(bare)
}

/// `~x` on a 32-bit unsigned-looking value stays in 32 bits, so that
/// `~0u >> 16` is 0xffff as in C.
pub fn bit_not(a: i64) -> i64 {
    if (0..=u32::MAX as i64).contains(&a) {
        (!a) & 0xffff_ffff
    } else {
        !a
    }
}

pub fn apply_binop(op: BinOp, a: i64, b: i64) -> Option<i64> {
    Some(match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Div => {
            if b == 0 {
                return None;
            }
            a.wrapping_div(b)
        }
        BinOp::Rem => {
            if b == 0 {
                return None;
            }
            a.wrapping_rem(b)
        }
        BinOp::Shl => {
            if !(0..64).contains(&b) {
                return None;
            }
            a.wrapping_shl(b as u32)
        }
        BinOp::Shr => {
            if !(0..64).contains(&b) {
                return None;
            }
            a >> b
        }
        BinOp::BitAnd => a & b,
        BinOp::BitOr => a | b,
        BinOp::BitXor => a ^ b,
        BinOp::And => ((a != 0) && (b != 0)) as i64,
        BinOp::Or => ((a != 0) || (b != 0)) as i64,
        BinOp::Lt => (a < b) as i64,
        BinOp::Le => (a <= b) as i64,
        BinOp::Gt => (a > b) as i64,
        BinOp::Ge => (a >= b) as i64,
        BinOp::Eq => (a == b) as i64,
        BinOp::Ne => (a != b) as i64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::{PreprocEnv, parse};
    use crate::ir::StmtKind;
    use crate::source::SourceFile;

    /// The folded value of each `if` condition of `k`, in order.
    fn conditions(body: &str) -> Vec<Option<i64>> {
        let src = format!("__global__ void k(int *p) {{ {body} }}\n");
        let parsed = parse(SourceFile::new("t.cu", src.as_bytes())).unwrap();
        let m = crate::ir::lower_file(&parsed, &PreprocEnv::default());
        let f = &m.functions[0];
        let consts: HashMap<String, i64> = [("kOff".to_owned(), 0), ("kOn".to_owned(), 1)]
            .into_iter()
            .collect();
        (f.stmts.iter())
            .filter_map(|s| match s.kind {
                StmtKind::If { cond, .. } => Some(eval_const(f, cond, &consts)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_call_reads_its_scope_then_the_bare_key_but_not_unqualified_in_a_member() {
        let keys = |member, scope, name| super::call_keys(member, scope, name).collect::<Vec<_>>();
        assert_eq!(keys(false, None, "w"), ["w()"]);
        assert_eq!(keys(false, Some("ns"), "w"), ["ns::w()", "w()"]);
        assert_eq!(keys(true, Some("Row"), "w"), ["Row::w()", "w()"]);
        assert!(keys(true, None, "w").is_empty());
        assert_eq!(keys(true, Some(""), "w"), ["w()"]);
    }

    #[test]
    fn a_decisive_operand_folds_a_logical_operator() {
        assert_eq!(
            conditions(
                "if (kOff && p[0]) {} if (p[0] && kOff) {} if (kOn || p[0]) {} \
                 if (p[0] || kOn) {} if (kOn && p[0]) {} if (kOff || p[0]) {} \
                 if (kOn && !kOff) {}"
            ),
            [Some(0), Some(0), Some(1), Some(1), None, None, Some(1)]
        );
    }
}
