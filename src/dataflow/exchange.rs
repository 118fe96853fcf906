//! Values that warp exchanges make the same in every lane.
//!
//! A full xor butterfly
//!
//! ```text
//! v = op(v, __shfl_xor_sync(0xffffffff, v, 16));  … 8, 4, 2, 1
//! ```
//!
//! leaves one value in all 32 lanes when `op` is commutative: after the
//! step with offset `k`, lane `l` holds `op(w_l, w_{l^k})` and lane `l^k`
//! holds `op(w_{l^k}, w_l)`, so by induction every lane that differs from
//! `l` only in the offsets done so far holds the same value. Associativity
//! is not needed, nor any order of the offsets; all five offsets on the full
//! mask with width 32 are. The lanes' values are per-lane to the rest of the
//! dataflow (one level per name), so this module finds the combining
//! expression that completes a butterfly and the expression table caps its
//! level at [`Level::Warp`](super::Level::Warp).
//!
//! Recognised only in straight-line code: within one statement list, from
//! plain declarations and assignments of local scalars (through copies,
//! `t = __shfl_xor_sync(…); o = t; m = v < o ? v : o; v = m;`). Any other
//! statement (a branch, a loop, a call that could write a local, a store
//! through a pointer) forgets everything known so far. Linear in the
//! function: each statement is looked at once, each expression at most
//! [`MAX_DEPTH`] levels deep.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::ir::primitives::ShflMode;
use crate::ir::*;

/// How deep one right-hand side is followed.
const MAX_DEPTH: usize = 8;

/// All five xor offsets of a 32-lane warp.
const ALL_OFFSETS: u8 = 0b1_1111;

/// What is known of one local's value in the current statement list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// `base` combined across the lanes that differ only in the bits of
    /// `covered` (bit i: xor offset 1 << i): the same in each such group.
    Reduced { base: u32, covered: u8 },
    /// The value `Reduced { base, covered }` of lane `l ^ (1 << bit)`.
    Partner { base: u32, covered: u8, bit: u8 },
}

/// The expressions whose value a full xor butterfly makes warp-uniform.
pub fn butterfly_results(f: &Function, module: &Module) -> HashSet<ExprId> {
    let mut found = HashSet::default();
    // Only functions that shuffle at all.
    let shuffles = f.exprs.iter().any(|e| {
        matches!(&e.kind, ExprKind::Call(c)
            if Primitive::from_call(&c.name, c.scope.as_deref(), c.receiver.is_some())
                == Some(Primitive::Shfl(ShflMode::Xor)))
    });
    if !shuffles {
        return found;
    }
    let mut scan = Scan {
        f,
        module,
        integral: integral_locals(f),
        shared: f
            .stmts
            .iter()
            .filter_map(|s| match &s.kind {
                StmtKind::Decl {
                    name, shared: true, ..
                } => Some(name.as_str()),
                _ => None,
            })
            .collect(),
        shapes: HashMap::default(),
        next_base: 0,
        found: &mut found,
    };
    let mut lists: Vec<&[StmtId]> = vec![&f.body];
    while let Some(list) = lists.pop() {
        scan.shapes.clear();
        for &sid in list {
            let stmt = f.stmt(sid);
            match &stmt.kind {
                StmtKind::If {
                    then_branch,
                    else_branch,
                    ..
                } => {
                    lists.push(then_branch);
                    lists.push(else_branch);
                    scan.shapes.clear();
                }
                StmtKind::Loop { body, .. } => {
                    lists.push(body);
                    scan.shapes.clear();
                }
                StmtKind::Switch { cases, .. } => {
                    lists.extend(cases.iter().map(|c| c.body.as_slice()));
                    scan.shapes.clear();
                }
                StmtKind::Block(b) => {
                    lists.push(b);
                    scan.shapes.clear();
                }
                StmtKind::Decl {
                    name,
                    init,
                    dims,
                    shared,
                    ..
                } => match init {
                    Some(e) if dims.is_empty() && !*shared && scan.pure(*e) => {
                        let s = scan.shape(*e, 0);
                        scan.shapes.insert(name.as_str(), s);
                    }
                    Some(_) => scan.shapes.clear(),
                    None => {
                        scan.shapes.remove(name.as_str());
                    }
                },
                StmtKind::Expr(e) => scan.statement(*e),
                _ => scan.shapes.clear(),
            }
        }
    }
    found
}

/// Locals and parameters declared with a type that is not floating point:
/// `a < b ? a : b` is commutative for them (not for floats: NaN, ±0).
fn integral_locals(f: &Function) -> HashSet<&str> {
    let mut floats: HashSet<&str> = HashSet::default();
    let mut names: HashSet<&str> = HashSet::default();
    for s in &f.stmts {
        if let StmtKind::Decl {
            name,
            is_float,
            is_pointer,
            ..
        } = &s.kind
        {
            if *is_float || *is_pointer {
                floats.insert(name);
            } else {
                names.insert(name);
            }
        }
    }
    for p in &f.params {
        if p.is_integral {
            names.insert(&p.name);
        } else {
            floats.insert(&p.name);
        }
    }
    names.retain(|n| !floats.contains(n));
    names
}

struct Scan<'a, 'f> {
    f: &'f Function,
    module: &'f Module,
    integral: HashSet<&'f str>,
    shared: HashSet<&'f str>,
    shapes: HashMap<&'f str, Shape>,
    next_base: u32,
    found: &'a mut HashSet<ExprId>,
}

impl<'f> Scan<'_, 'f> {
    fn fresh(&mut self) -> Shape {
        self.next_base += 1;
        Shape::Reduced {
            base: self.next_base,
            covered: 0,
        }
    }

    /// An expression statement: `v = e`, `v op= e`, or something that
    /// writes nothing this module tracks.
    fn statement(&mut self, e: ExprId) {
        let f = self.f;
        if let ExprKind::Assign { op, lhs, rhs } = &f.expr(e).kind
            && let ExprKind::Var(name) = &f.expr(*lhs).kind
            && self.pure(*rhs)
        {
            let s = match op {
                None => self.shape(*rhs, 0),
                // `v += partner`: commutative compound assignment.
                Some(op) if op.is_commutative() => {
                    let a = self.var_shape(name);
                    let b = self.shape(*rhs, 0);
                    self.combine(e, a, b)
                }
                Some(_) => self.fresh(),
            };
            self.shapes.insert(name.as_str(), s);
            return;
        }
        if !self.pure(e) {
            self.shapes.clear();
        }
    }

    /// No write to a local and no call that could make one.
    fn pure(&self, e: ExprId) -> bool {
        let f = self.f;
        let mut stack = vec![e];
        let mut budget = 256usize;
        while let Some(id) = stack.pop() {
            if budget == 0 {
                return false;
            }
            budget -= 1;
            let kind = &f.expr(id).kind;
            match kind {
                ExprKind::Assign { .. } | ExprKind::Update { .. } | ExprKind::Lambda(_) => {
                    return false;
                }
                ExprKind::Call(c) => {
                    let known =
                        Primitive::from_call(&c.name, c.scope.as_deref(), c.receiver.is_some())
                            .is_some()
                            || (c.receiver.is_none() && super::levels::follows_arguments(&c.name));
                    if !known {
                        return false;
                    }
                }
                _ => {}
            }
            stack.extend(kind.children());
        }
        true
    }

    fn var_shape(&mut self, name: &'f str) -> Shape {
        if let Some(s) = self.shapes.get(name) {
            return *s;
        }
        let s = self.fresh();
        // A shared scalar can change between two reads; a name that is
        // not a local or parameter is not followed either.
        if !self.shared.contains(name) && self.integral_or_local(name) {
            self.shapes.insert(name, s);
        }
        s
    }

    fn integral_or_local(&self, name: &str) -> bool {
        self.integral.contains(name)
            || self.f.params.iter().any(|p| p.name == name)
            || self
                .f
                .stmts
                .iter()
                .any(|s| matches!(&s.kind, StmtKind::Decl { name: n, .. } if n == name))
    }

    fn constant(&self, e: ExprId) -> Option<i64> {
        crate::ir::fold::eval_const(self.f, e, &self.module.constants)
    }

    fn shape(&mut self, e: ExprId, depth: usize) -> Shape {
        if depth > MAX_DEPTH {
            return self.fresh();
        }
        let f = self.f;
        match &f.expr(e).kind {
            ExprKind::Var(name) => self.var_shape(name),
            ExprKind::Call(c) => {
                let prim = Primitive::from_call(&c.name, c.scope.as_deref(), c.receiver.is_some());
                if prim == Some(Primitive::Shfl(ShflMode::Xor)) {
                    return self.partner(c, depth);
                }
                if c.receiver.is_none()
                    && matches!(c.name.as_str(), "min" | "max" | "umin" | "umax")
                    && c.args.len() == 2
                    && c.args.iter().all(|a| self.integral_var(*a))
                {
                    let a = self.shape(c.args[0], depth + 1);
                    let b = self.shape(c.args[1], depth + 1);
                    return self.combine(e, a, b);
                }
                self.fresh()
            }
            ExprKind::Binary(op, a, b) if op.is_commutative() => {
                let sa = self.shape(*a, depth + 1);
                let sb = self.shape(*b, depth + 1);
                self.combine(e, sa, sb)
            }
            // `a < b ? a : b` and its mirror images pick the same value
            // whichever operand comes first (integers: ties are equal).
            ExprKind::Ternary(c, x, y) => {
                let ExprKind::Binary(BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, p, q) =
                    &f.expr(*c).kind
                else {
                    return self.fresh();
                };
                let (Some(p), Some(q), Some(x), Some(y)) = (
                    self.integral_name(*p),
                    self.integral_name(*q),
                    self.integral_name(*x),
                    self.integral_name(*y),
                ) else {
                    return self.fresh();
                };
                if p == q || !((p == x && q == y) || (p == y && q == x)) {
                    return self.fresh();
                }
                let sa = self.var_shape(p);
                let sb = self.var_shape(q);
                self.combine(e, sa, sb)
            }
            _ => self.fresh(),
        }
    }

    fn integral_name(&self, e: ExprId) -> Option<&'f str> {
        match &self.f.expr(e).kind {
            ExprKind::Var(n) if self.integral.contains(n.as_str()) => Some(n.as_str()),
            _ => None,
        }
    }

    fn integral_var(&self, e: ExprId) -> bool {
        self.integral_name(e).is_some()
    }

    /// `__shfl_xor_sync(0xffffffff, v, 1 << bit)` over the whole warp.
    fn partner(&mut self, c: &Call, depth: usize) -> Shape {
        let full = c.args.first().and_then(|m| self.constant(*m)) == Some(0xffff_ffff);
        let width_ok = match c.args.get(3) {
            None => true,
            Some(w) => self.constant(*w) == Some(32),
        };
        let offset = c.args.get(2).and_then(|k| self.constant(*k));
        let bit = match offset {
            Some(k @ (1 | 2 | 4 | 8 | 16)) => k.trailing_zeros() as u8,
            _ => return self.fresh(),
        };
        if !full || !width_ok || c.args.len() < 3 {
            return self.fresh();
        }
        match self.shape(c.args[1], depth + 1) {
            Shape::Reduced { base, covered } => Shape::Partner { base, covered, bit },
            Shape::Partner { .. } => self.fresh(),
        }
    }

    /// `op(a, b)` with a commutative `op`: one butterfly step when one
    /// operand is the other's partner at an offset not yet covered.
    fn combine(&mut self, e: ExprId, a: Shape, b: Shape) -> Shape {
        let step = |x: Shape, y: Shape| match (x, y) {
            (
                Shape::Reduced { base, covered },
                Shape::Partner {
                    base: pb,
                    covered: pc,
                    bit,
                },
            ) if base == pb && covered == pc && covered >> bit & 1 == 0 => Some(Shape::Reduced {
                base,
                covered: covered | 1 << bit,
            }),
            _ => None,
        };
        match step(a, b).or_else(|| step(b, a)) {
            Some(s) => {
                if let Shape::Reduced {
                    covered: ALL_OFFSETS,
                    ..
                } = s
                {
                    self.found.insert(e);
                }
                s
            }
            None => self.fresh(),
        }
    }
}
