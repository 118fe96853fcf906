//! What `static_assert`s state about a function's compile-time values.
//!
//! An instantiation whose `static_assert` fails does not compile, so every
//! launch of a kernel satisfies the assertions of its body and of the
//! constexpr helpers it instantiates with its own template values
//! (`threads_per_block<kLoad, kGroup>(m)` whose body asserts
//! `kGroup == 128` states `kGroup == 128` for the caller). Only two shapes
//! are read, as conjuncts of an assertion: `X == k` (or `k == X`) and
//! `X % m == 0`, with `X` a name and `k`, `m` constants. Runs and levels
//! that contradict them are runs no launch makes (DeepGEMM-style role
//! splits at a whole number of warpgroups).
//!
//! Run-time assertions (`assert`, `__builtin_assume`) that open a body
//! state multiples the same way, of names and field paths
//! ([`prologue_multiples`]): what host code checks before a launch.

use rustc_hash::FxHashMap as HashMap;

use super::{BinOp, ExprId, ExprKind, Function, Module};

/// What an assertion states about one name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stated {
    /// `X == k`.
    Value(i64),
    /// `X % m == 0` (`m > 0`).
    MultipleOf(i64),
}

impl Stated {
    /// Whether `v` satisfies what is stated.
    pub fn admits(self, v: i64) -> bool {
        match self {
            Stated::Value(k) => v == k,
            Stated::MultipleOf(m) => v % m == 0,
        }
    }
}

/// Conjuncts read per assertion (a long `&&` chain is cut, never misread).
const MAX_CONJUNCTS: usize = 16;

/// The facts `f`'s own assertions state, by name.
pub fn own_facts(f: &Function, constants: &HashMap<String, i64>) -> HashMap<String, Stated> {
    let mut out = HashMap::default();
    for &a in &f.asserts {
        for (x, y) in equalities(f, a) {
            if let Some((name, s)) = fact(f, x, y, constants) {
                // Two facts on one name: keep the first (both hold).
                out.entry(name).or_insert(s);
            }
        }
    }
    out
}

/// The `x == y` conjuncts of the assertion `cond`, in the order read
/// (at most [`MAX_CONJUNCTS`] conjuncts).
fn equalities(f: &Function, cond: ExprId) -> Vec<(ExprId, ExprId)> {
    let mut out = Vec::new();
    let mut stack = vec![cond];
    let mut seen = 0;
    while let Some(e) = stack.pop() {
        seen += 1;
        if seen > MAX_CONJUNCTS {
            break;
        }
        match &f.expr(e).kind {
            ExprKind::Binary(BinOp::And, x, y) => {
                stack.push(*x);
                stack.push(*y);
            }
            ExprKind::Binary(BinOp::Eq, x, y) => out.push((*x, *y)),
            _ => {}
        }
    }
    out
}

/// `X == k`, `k == X` or `X % m == 0`.
fn fact(
    f: &Function,
    x: ExprId,
    y: ExprId,
    constants: &HashMap<String, i64>,
) -> Option<(String, Stated)> {
    let konst = |e: ExprId| super::fold::eval_const(f, e, constants);
    if let Some((v, m)) = remainder_zero(f, x, y, constants)
        && let (ExprKind::Var(name), Some(m)) = (&f.expr(v).kind, konst(m))
        && m > 0
        && !constants.contains_key(name)
    {
        return Some((name.clone(), Stated::MultipleOf(m)));
    }
    for (a, b) in [(x, y), (y, x)] {
        if let (ExprKind::Var(name), Some(k)) = (&f.expr(a).kind, konst(b))
            && !constants.contains_key(name)
        {
            return Some((name.clone(), Stated::Value(k)));
        }
    }
    None
}

/// `v % m == 0` or `0 == v % m`: `(v, m)`.
fn remainder_zero(
    f: &Function,
    x: ExprId,
    y: ExprId,
    constants: &HashMap<String, i64>,
) -> Option<(ExprId, ExprId)> {
    [(x, y), (y, x)].into_iter().find_map(|(a, b)| {
        match (&f.expr(a).kind, super::fold::eval_const(f, b, constants)) {
            (ExprKind::Binary(BinOp::Rem, v, m), Some(0)) => Some((*v, *m)),
            _ => None,
        }
    })
}

/// The facts stated about `f`'s template values: its own assertions, and
/// those of each function of the module it calls with template arguments,
/// where the argument is one of `f`'s template values by name.
pub fn template_facts(module: &Module, f: &Function) -> HashMap<String, Stated> {
    let mut out: HashMap<String, Stated> = own_facts(f, &module.constants)
        .into_iter()
        .filter(|(n, _)| f.template_values.contains(n))
        .collect();
    for e in &f.exprs {
        let ExprKind::Call(c) = &e.kind else { continue };
        if c.template_args.is_empty() || c.receiver.is_some() {
            continue;
        }
        let Some(cands) = module.by_name.get(&c.name) else {
            continue;
        };
        // One function of that name takes that many template values:
        // it is the one instantiated.
        let mut matching = cands
            .iter()
            .map(|&g| &module.functions[g])
            .filter(|g| g.template_values.len() == c.template_args.len());
        if let (Some(g), None) = (matching.next(), matching.next()) {
            if g.asserts.is_empty() {
                continue;
            }
            let facts = own_facts(g, &module.constants);
            for (param, arg) in g.template_values.iter().zip(&c.template_args) {
                let arg = arg.trim();
                if let Some(s) = facts.get(param)
                    && f.template_values.iter().any(|t| t == arg)
                {
                    out.entry(arg.to_owned()).or_insert(*s);
                }
            }
        }
    }
    out
}

/// What a run-time assertion states divides a value: `X % m == 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Divisor {
    /// A constant `m > 0`.
    Const(i64),
    /// `blockDim.x`.
    BlockWidth,
}

/// `assert(X % m == 0)` and `__builtin_assume(…)` (`StmtKind::Assume`,
/// conjuncts too) among the statements that open `f`'s body, before its
/// first branch, loop or exit: they hold wherever the body goes on, since
/// a run that breaks them shows nothing. `X` is a name or a field path
/// (`params.hidden`) as written; `m` a constant or `blockDim.x`. Whether
/// `X` keeps its value is the reader's to check.
pub fn prologue_multiples(
    f: &Function,
    constants: &HashMap<String, i64>,
) -> HashMap<String, Divisor> {
    let mut out = HashMap::default();
    for &s in &f.body {
        let cond = match &f.stmt(s).kind {
            super::StmtKind::Assume(c) => *c,
            super::StmtKind::Decl { .. } | super::StmtKind::Expr(_) => continue,
            _ => break,
        };
        for (x, y) in equalities(f, cond) {
            let Some((v, m)) = remainder_zero(f, x, y, constants) else {
                continue;
            };
            let divisor = match (&f.expr(m).kind, super::fold::eval_const(f, m, constants)) {
                (ExprKind::Builtin(super::Builtin::BlockDim(super::Dim::X)), _) => {
                    Divisor::BlockWidth
                }
                (_, Some(m)) if m > 0 => Divisor::Const(m),
                _ => continue,
            };
            if let Some((_, path)) = f.access_path(v) {
                out.entry(path).or_insert(divisor);
            }
        }
    }
    out
}
