//! Per-lane values of lane-derived expressions, and the proof that a warp
//! primitive's mask names exactly the lanes that reach it.
//!
//! Every expression of a kernel is evaluated for each lane 0..31 of one warp,
//! with `threadIdx.x = 32·W + lane` (W ≥ 0 the warp's unknown base: this
//! holds when the block's x extent is a multiple of 32, which the executor
//! checks before it relies on a proof). A lane's value is an exact integer,
//! a linear form in W, or an opaque symbol: equal symbols mean equal values
//! (a pure operation on equal operands gives equal results; a warp-uniform
//! expression has one symbol for every lane). So `tid / 8`, `lane < kTopK`
//! or `255 << (lane & ~7)` are known per lane, and `slot < q_per_kv` is the
//! same symbol in the lanes of one slot.
//!
//! The proof (`reaching_lanes_proof`): every lane-varying guard of the call
//! has, in each lane a mask names, the same value as in the lane passing
//! that mask, the masks of those lanes are equal (disjoint groups), and each
//! shuffle reads a lane of its own mask. Then a lane reaches the call exactly
//! when every lane of its mask does. A mask taken with
//! `__ballot_sync(0xffffffff, p)` before `if (p)` is proved the same way: the
//! branch keeps exactly the lanes the ballot names.
//!
//! Work: each expression is evaluated once (memoized) for 32 lanes, nested
//! evaluation stops at `MAX_DEPTH`, and the whole proof at `MAX_EVALS`.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::rc::Rc;

use super::{Context, Facts, FnFacts, GuardKind, Level};
use crate::ir::StmtId;
use crate::ir::primitives::{ShflMode, VoteMode};
use crate::ir::{
    BinOp, Builtin, Dim, ExprId, ExprKind, Function, Module, Primitive, StmtKind, UnOp,
};

const MAX_DEPTH: usize = 64;
const MAX_EVALS: usize = 20_000;

/// One lane's value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum V {
    Const(i64),
    /// `mul·W + off`, W ≥ 0 the warp's base in `threadIdx.x / 32`.
    Lin {
        mul: i64,
        off: i64,
    },
    /// Opaque: equal ids hold equal values.
    Sym(u32),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    /// A uniform expression, one value for the warp.
    Expr(ExprId),
    /// A lane-varying unknown: one symbol per lane.
    Lane(ExprId, u32),
    /// A named uniform input (parameter, template value).
    Name(String),
    Op(u8, Vec<V>),
    Un(u8, V),
    Ternary(V, V, V),
    /// `W < k`, `W == k` (the comparisons of a linear form).
    WLt(i64),
    WEq(i64),
    Not(u32),
    Ballot(ExprId),
    /// A counted loop's variable: its start and step in this lane.
    LoopVar(StmtId, V, V),
}

type Lanes = Rc<Vec<V>>;

/// A counted loop's variable: the loop, its start, its step and the step's
/// sign.
type LoopVar = (StmtId, ExprId, Option<ExprId>, i64);

/// What [`Eval`] reads of a function whatever the call site: built once
/// per function and kept in its facts ([`FnFacts::lane_base`]). A generated
/// kernel of thousands of lines has hundreds of masked calls, and building
/// this per call made the proof quadratic in the kernel's length.
#[derive(Debug, Default)]
pub struct EvalBase {
    /// Every name a declaration in the function declares.
    locals: HashSet<String>,
    /// Locals declared once and never written after: their initializer.
    immutable: HashMap<String, ExprId>,
    /// Names written anywhere (never read through their declaration).
    written: HashSet<String>,
    /// Counted loops' variables.
    loop_vars: HashMap<String, LoopVar>,
    /// The expressions of each source span, in order: a guard names its
    /// condition by span.
    by_span: HashMap<(usize, usize), Vec<ExprId>>,
    /// The spans of `switch` scrutinees: a guard there takes no arm by
    /// truth.
    switches: HashSet<(usize, usize)>,
}

struct Eval<'a> {
    module: &'a Module,
    f: &'a Function,
    ff: &'a FnFacts,
    base: &'a EvalBase,
    intern: HashMap<Key, u32>,
    booleans: HashSet<u32>,
    ballots: HashMap<u32, ExprId>,
    memo: HashMap<ExprId, Lanes>,
    evals: usize,
}

impl EvalBase {
    fn of<'a>(module: &'a Module, f: &'a Function) -> EvalBase {
        let mut decls: HashMap<&str, (usize, Option<ExprId>)> = HashMap::default();
        for s in &f.stmts {
            if let StmtKind::Decl {
                name,
                init,
                dims,
                shared,
                ..
            } = &s.kind
            {
                let e = decls.entry(name.as_str()).or_insert((0, None));
                e.0 += 1;
                e.1 = if dims.is_empty() && !shared {
                    *init
                } else {
                    None
                };
            }
        }
        // A lambda capturing by reference may write the function's locals.
        let lambdas = (f.exprs.iter()).filter_map(|e| match e.kind {
            ExprKind::Lambda(i) => module.functions.get(i),
            _ => None,
        });
        let mut written: HashMap<&str, usize> = HashMap::default();
        for name in std::iter::once(f).chain(lambdas).flat_map(Function::writes) {
            *written.entry(name).or_default() += 1;
        }
        let loop_vars = counted_loops(f, &decls, &written);
        let locals = decls.keys().map(|n| (*n).to_owned()).collect();
        let written: HashSet<&str> = written.into_keys().collect();
        let immutable = decls
            .into_iter()
            // A local that shares a parameter's or a file constant's name
            // may be read as that other one before its declaration.
            .filter(|(n, (count, init))| {
                *count == 1
                    && init.is_some()
                    && !written.contains(n)
                    && !f.params.iter().any(|p| p.name == *n)
                    && !module.constants.contains_key(*n)
                    && !module.globals.contains(*n)
            })
            .map(|(n, (_, init))| (n.to_owned(), init.unwrap_or_default()))
            .collect();
        let mut by_span: HashMap<(usize, usize), Vec<ExprId>> = HashMap::default();
        for (id, e) in f.exprs.iter().enumerate() {
            by_span.entry(e.span).or_default().push(id as ExprId);
        }
        let switches = (f.stmts.iter())
            .filter_map(|s| match &s.kind {
                StmtKind::Switch { scrutinee, .. } => Some(f.expr(*scrutinee).span),
                _ => None,
            })
            .collect();
        EvalBase {
            locals,
            immutable,
            by_span,
            switches,
            written: written.into_iter().map(str::to_owned).collect(),
            loop_vars: (loop_vars.into_iter())
                .map(|(n, v)| (n.to_owned(), v))
                .collect(),
        }
    }
}

impl<'a> Eval<'a> {
    fn new(module: &'a Module, f: &'a Function, ff: &'a FnFacts) -> Eval<'a> {
        Eval {
            module,
            f,
            ff,
            base: ff.lane_base.get_or_init(|| EvalBase::of(module, f)),
            intern: HashMap::default(),
            booleans: HashSet::default(),
            ballots: HashMap::default(),
            memo: HashMap::default(),
            evals: 0,
        }
    }

    fn sym(&mut self, k: Key) -> V {
        let n = self.intern.len() as u32;
        V::Sym(*self.intern.entry(k).or_insert(n))
    }

    fn boolean(&mut self, k: Key) -> V {
        let v = self.sym(k);
        if let V::Sym(s) = v {
            self.booleans.insert(s);
        }
        v
    }

    fn uniform_level(&self, e: ExprId) -> bool {
        self.ff
            .expr_levels
            .get(e as usize)
            .is_some_and(|l| *l <= Level::Warp)
    }

    /// What is not modelled: one symbol for the warp if the dataflow shows
    /// it warp-uniform, else one per lane.
    fn opaque(&mut self, e: ExprId) -> Lanes {
        if self.uniform_level(e) {
            let v = self.sym(Key::Expr(e));
            Rc::new(vec![v; 32])
        } else {
            Rc::new((0..32).map(|l| self.sym(Key::Lane(e, l))).collect())
        }
    }

    fn eval(&mut self, e: ExprId, depth: usize) -> Lanes {
        if let Some(v) = self.memo.get(&e) {
            return v.clone();
        }
        self.evals += 1;
        let v = if depth > MAX_DEPTH || self.evals > MAX_EVALS {
            // Distinct per lane: no proof can rest on it.
            Rc::new((0..32).map(|l| self.sym(Key::Lane(e, l))).collect())
        } else {
            self.eval_uncached(e, depth + 1)
        };
        self.memo.insert(e, v.clone());
        v
    }

    fn eval_uncached(&mut self, e: ExprId, d: usize) -> Lanes {
        let f = self.f;
        match &f.expr(e).kind {
            ExprKind::Int(v) => Rc::new(vec![V::Const(*v); 32]),
            ExprKind::Builtin(b) => match b {
                Builtin::ThreadIdx(Dim::X) => {
                    Rc::new((0..32).map(|l| V::Lin { mul: 32, off: l }).collect())
                }
                Builtin::LaneId => Rc::new((0..32).map(V::Const).collect()),
                Builtin::WarpSize => Rc::new(vec![V::Const(32); 32]),
                // With whole warps in x, y and z are the warp's.
                _ => {
                    let v = self.sym(Key::Expr(e));
                    Rc::new(vec![v; 32])
                }
            },
            ExprKind::Var(name) => self.var(e, name, d),
            ExprKind::Unary(op, a) if matches!(op, UnOp::Neg | UnOp::Not | UnOp::BitNot) => {
                let a = self.eval(*a, d);
                Rc::new(a.iter().map(|x| self.unary(*op, x)).collect())
            }
            ExprKind::Binary(op, a, b) => {
                let a = self.eval(*a, d);
                let b = self.eval(*b, d);
                Rc::new((0..32).map(|l| self.binary(*op, &a[l], &b[l])).collect())
            }
            ExprKind::Ternary(c, a, b) => {
                let c = self.eval(*c, d);
                let a = self.eval(*a, d);
                let b = self.eval(*b, d);
                Rc::new(
                    (0..32)
                        .map(|l| match &c[l] {
                            V::Const(0) => b[l].clone(),
                            V::Const(_) => a[l].clone(),
                            cv => self.sym(Key::Ternary(cv.clone(), a[l].clone(), b[l].clone())),
                        })
                        .collect(),
                )
            }
            ExprKind::Call(c)
                if c.args.len() == 2
                    && Primitive::from_call(&c.name, c.scope.as_deref(), c.receiver.is_some())
                        == Some(Primitive::Vote(VoteMode::Ballot)) =>
            {
                // One value for every lane that takes part.
                let v = self.sym(Key::Ballot(e));
                if let V::Sym(s) = v {
                    self.ballots.insert(s, e);
                }
                Rc::new(vec![v; 32])
            }
            _ => self.opaque(e),
        }
    }

    fn var(&mut self, e: ExprId, name: &str, d: usize) -> Lanes {
        if let Some(&init) = self.base.immutable.get(name) {
            return self.eval(init, d);
        }
        // Lanes that start a counted loop at the same value and step by
        // the same amount hold the same value in every iteration.
        if let Some(&(stmt, start, step, sign)) = self.base.loop_vars.get(name) {
            let a = self.eval(start, d);
            let b: Lanes = match step {
                Some(r) => {
                    let b = self.eval(r, d);
                    if sign < 0 {
                        Rc::new(b.iter().map(|x| self.unary(UnOp::Neg, x)).collect())
                    } else {
                        b
                    }
                }
                None => Rc::new(vec![V::Const(sign); 32]),
            };
            return Rc::new(
                (0..32)
                    .map(|l| self.sym(Key::LoopVar(stmt, a[l].clone(), b[l].clone())))
                    .collect(),
            );
        }
        let local = self.base.locals.contains(name);
        if !local && !self.base.written.contains(name) {
            if let Some(&c) = self.module.constants.get(name)
                && !self.f.params.iter().any(|p| p.name == name)
            {
                return Rc::new(vec![V::Const(c); 32]);
            }
            let param = self.f.params.iter().any(|p| p.name == name);
            let template = self.f.template_values.iter().any(|t| t == name);
            // A kernel's parameters and template values are the grid's.
            if (param && self.module.runs_as_kernel(self.f)) || template {
                let v = self.sym(Key::Name(name.to_owned()));
                return Rc::new(vec![v; 32]);
            }
        }
        self.opaque(e)
    }

    fn truth(&mut self, v: &V) -> V {
        match v {
            V::Const(c) => V::Const(i64::from(*c != 0)),
            V::Sym(s) if self.booleans.contains(s) => v.clone(),
            _ => self.boolean(Key::Op(0xfe, vec![v.clone()])),
        }
    }

    fn unary(&mut self, op: UnOp, a: &V) -> V {
        match (op, a) {
            (UnOp::Neg, V::Const(c)) => V::Const(c.wrapping_neg()),
            (UnOp::Not, V::Const(c)) => V::Const(i64::from(*c == 0)),
            (UnOp::BitNot, V::Const(c)) => V::Const(crate::ir::fold::bit_not(*c)),
            (UnOp::Not, V::Sym(s)) if self.booleans.contains(s) => self.boolean(Key::Not(*s)),
            (UnOp::Not, _) => self.boolean(Key::Un(op as u8, a.clone())),
            _ => self.sym(Key::Un(op as u8, a.clone())),
        }
    }

    fn binary(&mut self, op: BinOp, a: &V, b: &V) -> V {
        use BinOp::*;
        let cmp = matches!(op, Lt | Le | Gt | Ge | Eq | Ne);
        match (a, b) {
            (V::Const(x), V::Const(y)) => {
                // Signedness is not modelled: a comparison or a right shift
                // of a negative value stays opaque.
                if (cmp || op == Shr) && (*x < 0 || *y < 0) {
                    return self.generic(op, a, b);
                }
                match crate::ir::fold::apply_binop(op, *x, *y) {
                    Some(v) => V::Const(v),
                    None => self.generic(op, a, b),
                }
            }
            (V::Lin { mul, off }, V::Const(c)) => {
                let (mul, off, c) = (*mul, *off, *c);
                match op {
                    Add => lin(mul, off.wrapping_add(c)),
                    Sub => lin(mul, off.wrapping_sub(c)),
                    Mul if c > 0 && c < 1 << 20 => lin(mul * c, off * c),
                    Div if c > 0 && mul % c == 0 && off >= 0 => lin(mul / c, off / c),
                    Shr if (0..31).contains(&c) && mul % (1 << c) == 0 && off >= 0 => {
                        lin(mul >> c, off >> c)
                    }
                    Rem if c > 0 && mul % c == 0 && off >= 0 => V::Const(off % c),
                    BitAnd if c >= 0 && (c + 1) & c == 0 && mul % (c + 1) == 0 && off >= 0 => {
                        V::Const(off & c)
                    }
                    Lt | Le | Gt | Ge | Eq | Ne => self.compare_lin(op, mul, off, c),
                    _ => self.generic(op, a, b),
                }
            }
            (V::Const(c), V::Lin { mul, off }) => match op {
                Add => lin(*mul, off.wrapping_add(*c)),
                Mul if *c > 0 && *c < 1 << 20 => lin(mul * c, off * c),
                Lt => self.compare_lin(Gt, *mul, *off, *c),
                Le => self.compare_lin(Ge, *mul, *off, *c),
                Gt => self.compare_lin(Lt, *mul, *off, *c),
                Ge => self.compare_lin(Le, *mul, *off, *c),
                Eq | Ne => self.compare_lin(op, *mul, *off, *c),
                _ => self.generic(op, a, b),
            },
            _ if op == And || op == Or => {
                let (x, y) = (self.truth(a), self.truth(b));
                match (op, &x, &y) {
                    (And, V::Const(0), _) | (And, _, V::Const(0)) => V::Const(0),
                    (Or, V::Const(1), _) | (Or, _, V::Const(1)) => V::Const(1),
                    (_, V::Const(_), _) => y,
                    (_, _, V::Const(_)) => x,
                    _ => self.generic(op, &x, &y),
                }
            }
            _ if a == b && matches!(op, Eq | Le | Ge) => V::Const(1),
            _ if a == b && matches!(op, Ne | Lt | Gt | Sub | BitXor) => V::Const(0),
            _ => self.generic(op, a, b),
        }
    }

    fn generic(&mut self, op: BinOp, a: &V, b: &V) -> V {
        let k = Key::Op(op as u8, vec![a.clone(), b.clone()]);
        if matches!(
            op,
            BinOp::Lt
                | BinOp::Le
                | BinOp::Gt
                | BinOp::Ge
                | BinOp::Eq
                | BinOp::Ne
                | BinOp::And
                | BinOp::Or
        ) {
            self.boolean(k)
        } else {
            self.sym(k)
        }
    }

    /// `mul·W + off  op  c` with W ≥ 0: a comparison of W with a constant,
    /// the same symbol for every lane where it reduces to the same one.
    fn compare_lin(&mut self, op: BinOp, mul: i64, off: i64, c: i64) -> V {
        use BinOp::*;
        debug_assert!(mul > 0);
        // `mul·W + off < c`  ⇔  `W < ceil((c - off) / mul)`.
        let lt = |this: &mut Self, c: i64| {
            let k = (c - off).div_euclid(mul) + i64::from((c - off).rem_euclid(mul) != 0);
            if k <= 0 {
                V::Const(0)
            } else {
                this.boolean(Key::WLt(k))
            }
        };
        let eq = |this: &mut Self| {
            if (c - off).rem_euclid(mul) == 0 && c - off >= 0 {
                this.boolean(Key::WEq((c - off) / mul))
            } else {
                V::Const(0)
            }
        };
        match op {
            Lt => lt(self, c),
            Le => lt(self, c + 1),
            Ge => {
                let v = lt(self, c);
                self.unary(UnOp::Not, &v)
            }
            Gt => {
                let v = lt(self, c + 1);
                self.unary(UnOp::Not, &v)
            }
            Eq => eq(self),
            _ => {
                let v = eq(self);
                self.unary(UnOp::Not, &v)
            }
        }
    }
}

/// The variables of counted loops: `for (int i = start; cond; i += step)`
/// whose variable is declared once, written only by that step, and whose
/// body has no `break`, `continue` or `return` (the condition alone decides
/// the trip count).
fn counted_loops<'a>(
    f: &'a Function,
    decls: &HashMap<&str, (usize, Option<ExprId>)>,
    written: &HashMap<&str, usize>,
) -> HashMap<&'a str, LoopVar> {
    let mut out = HashMap::default();
    for (id, s) in f.stmts.iter().enumerate() {
        let StmtKind::Loop {
            init,
            step: Some(step),
            body,
            ..
        } = &s.kind
        else {
            continue;
        };
        let [first] = init.as_slice() else { continue };
        let StmtKind::Decl {
            name,
            init: Some(start),
            dims,
            shared: false,
            ..
        } = &f.stmt(*first).kind
        else {
            continue;
        };
        if !dims.is_empty()
            || decls.get(name.as_str()).map(|d| d.0) != Some(1)
            || written.get(name.as_str()) != Some(&1)
            || f.params.iter().any(|p| p.name == *name)
            || has_exit(f, body)
        {
            continue;
        }
        let is_var = |e: ExprId| matches!(&f.expr(e).kind, ExprKind::Var(v) if v == name);
        let (delta, sign) = match &f.expr(*step).kind {
            ExprKind::Assign {
                op: Some(op @ (BinOp::Add | BinOp::Sub)),
                lhs,
                rhs,
            } if is_var(*lhs) => (Some(*rhs), if *op == BinOp::Sub { -1 } else { 1 }),
            ExprKind::Update {
                target, increment, ..
            } if is_var(*target) => (None, if *increment { 1 } else { -1 }),
            _ => continue,
        };
        out.insert(name.as_str(), (id as StmtId, *start, delta, sign));
    }
    out
}

/// The condition of the counted loop whose condition spans `span`.
fn counted_loop_cond(
    f: &Function,
    loop_vars: &HashMap<String, LoopVar>,
    span: (usize, usize),
) -> Option<ExprId> {
    loop_vars
        .values()
        .find_map(|&(stmt, ..)| match &f.stmt(stmt).kind {
            StmtKind::Loop { cond: Some(c), .. } if f.expr(*c).span == span => Some(*c),
            _ => None,
        })
}

/// Whether statements hold a `break`, `continue` or `return` (at any depth:
/// conservative for the nested loops' own).
fn has_exit(f: &Function, list: &[StmtId]) -> bool {
    let mut stack: Vec<StmtId> = list.to_vec();
    while let Some(s) = stack.pop() {
        match &f.stmt(s).kind {
            StmtKind::Return(_) | StmtKind::Break | StmtKind::Continue => return true,
            StmtKind::If {
                then_branch,
                else_branch,
                ..
            } => {
                stack.extend(then_branch);
                stack.extend(else_branch);
            }
            StmtKind::Loop { init, body, .. } => {
                stack.extend(init);
                stack.extend(body);
            }
            StmtKind::Switch { cases, .. } => {
                for c in cases {
                    stack.extend(&c.body);
                }
            }
            StmtKind::Block(b) => stack.extend(b),
            _ => {}
        }
    }
    false
}

fn lin(mul: i64, off: i64) -> V {
    if mul == 0 {
        V::Const(off)
    } else {
        V::Lin { mul, off }
    }
}

/// Why the mask of the primitive call `site` (in kernel `function`, reached
/// under `context`) names exactly the lanes that reach it, if that can be
/// shown lane by lane; `None` otherwise. Holds for warps of 32 consecutive
/// `threadIdx.x` (the caller checks the launch shape).
pub fn reaching_lanes_proof(
    module: &Module,
    facts: &Facts,
    function: usize,
    site: ExprId,
    context: &Context,
) -> Option<String> {
    let f = module.functions.get(function)?;
    // A device function's callers may have left lanes out already.
    if !module.runs_as_kernel(f) {
        return None;
    }
    let ff = facts.functions.get(function)?;
    let ExprKind::Call(call) = &f.expr(site).kind else {
        return None;
    };
    let mut ev = Eval::new(module, f, ff);
    let guards = guard_values(&mut ev, context)?;
    let Some(prim) =
        Primitive::from_call(&call.name, call.scope.as_deref(), call.receiver.is_some())
    else {
        return helper_proof(module, facts, function, call, &guards);
    };
    if !prim.is_masked() {
        return None;
    }
    let masks = ev.eval(*call.args.first()?, 0);
    if masks.iter().all(|m| matches!(m, V::Const(_))) {
        let shfl_src = shuffle_sources(&mut ev, prim, &call.args);
        let groups = const_mask_groups(&masks, &[&guards], prim, shfl_src.as_deref())?;
        return Some(format!(
            "evaluated lane by lane, the mask is {} and each lane it names takes the same branch at every lane-varying guard, so it names exactly the lanes that reach the call",
            describe(&groups)
        ));
    }
    // `m = __ballot_sync(0xffffffff, p)` before `if (p)`.
    let V::Sym(s) = masks[0] else { return None };
    if masks.iter().any(|m| *m != V::Sym(s)) || matches!(prim, Primitive::Shfl(_)) {
        return None;
    }
    let ballot = *ev.ballots.get(&s)?;
    let ExprKind::Call(bc) = &f.expr(ballot).kind else {
        return None;
    };
    let bmask = ev.eval(bc.args[0], 0);
    if bmask.iter().any(|m| *m != V::Const(0xffff_ffff)) {
        return None;
    }
    let pred = ev.eval(bc.args[1], 0);
    let pred: Vec<V> = pred.iter().map(|v| ev.truth(v)).collect();
    let bctx = ff.call_context.get(&ballot)?;
    let n = bctx.guards.len();
    if context.guards.get(..n)? != bctx.guards.as_slice() {
        return None; // not taken on the way to this call
    }
    let mut matched = false;
    for (i, taken, v) in &guards {
        if *i < n {
            continue; // before the ballot: leaves out the same lanes of both
        }
        let v: Vec<V> = v.iter().map(|x| ev.truth(x)).collect();
        if *taken != Some(true) || v != pred {
            return None;
        }
        matched = true;
    }
    matched.then(|| {
        "the mask is a `__ballot_sync(0xffffffff, p)` taken where the lanes are still together, and the only lane-varying guard since is `p` itself, so it names exactly the lanes that reach the call".to_owned()
    })
}

/// A lane-varying guard: its index in the context, the value that takes
/// it (`None` when not a condition: a switch, a loop), its value per lane.
type GuardValues = Vec<(usize, Option<bool>, Lanes)>;

/// The values of a context's lane-varying guards in every lane; `None`
/// when one is not modelled (an early exit, a loop that is not counted, a
/// condition the spans do not name).
fn guard_values(ev: &mut Eval, context: &Context) -> Option<GuardValues> {
    let f = ev.f;
    let base = ev.base;
    let mut guards: GuardValues = Vec::new();
    for (i, g) in context.guards.iter().enumerate() {
        if g.level < Level::Varying {
            continue; // the whole warp agrees
        }
        let negated = match g.kind {
            GuardKind::Branch { negated } => negated,
            // A counted loop without exits: lanes whose condition has the
            // same value in every iteration run it equally often.
            GuardKind::Loop => {
                let cond = counted_loop_cond(f, &base.loop_vars, g.span)?;
                let v = ev.eval(cond, 0);
                guards.push((i, None, v));
                continue;
            }
            // Not modelled: an early exit; a case, entered on equality or
            // by falling through.
            GuardKind::EarlyExit { .. } | GuardKind::Case { .. } => return None,
        };
        let mut vals: Option<Lanes> = None;
        for &id in base.by_span.get(&g.span).into_iter().flatten() {
            let v = ev.eval(id, 0);
            match &vals {
                Some(w) if *w != v => return None,
                _ => vals = Some(v),
            }
        }
        // Which value takes the branch, where the guard is a condition.
        let taken = (!base.switches.contains(&g.span)).then_some(!negated);
        guards.push((i, taken, vals?));
    }
    Some(guards)
}

/// For masks known in every lane: the masks the reaching lanes pass, if
/// each names itself, lanes passing the same mask, and lanes whose every
/// guard has its own value (so they reach the call together), and each
/// shuffle reads inside its mask.
fn const_mask_groups(
    masks: &[V],
    guards: &[&GuardValues],
    prim: Primitive,
    shfl_src: Option<&[Option<u32>]>,
) -> Option<HashSet<u32>> {
    let passes = |taken: Option<bool>, v: &V| match (taken, v) {
        (Some(t), V::Const(c)) => (*c != 0) == t,
        _ => true,
    };
    let mask_of = |l: usize| match masks[l] {
        V::Const(c) => Some(c as u32),
        _ => None,
    };
    let all = || guards.iter().flat_map(|g| g.iter());
    let mut groups = HashSet::default();
    for l in 0..32usize {
        if !all().all(|(_, t, v)| passes(*t, &v[l])) {
            continue; // this lane never gets here
        }
        let ml = mask_of(l)?;
        if ml >> l & 1 == 0 {
            return None;
        }
        for j in (0..32usize).filter(|j| ml >> j & 1 == 1) {
            if mask_of(j) != Some(ml) || all().any(|(_, _, v)| v[j] != v[l]) {
                return None;
            }
        }
        // A shuffle must read a lane of its own mask (which reaches).
        let reads_inside = match shfl_src {
            Some(src) => ml >> src.get(l).copied().flatten()? & 1 == 1,
            None => !matches!(prim, Primitive::Shfl(_)),
        };
        if !reads_inside {
            return None;
        }
        groups.insert(ml);
    }
    Some(groups)
}

/// A kernel's call of a helper that runs warp primitives: each masked
/// primitive of the helper (which calls no other warp code) is proved
/// with the kernel's guards at the call and the helper's own guards.
fn helper_proof(
    module: &Module,
    facts: &Facts,
    caller: usize,
    call: &crate::ir::Call,
    caller_guards: &GuardValues,
) -> Option<String> {
    let gi = super::callee(module, call)?;
    let g = module.functions.get(gi)?;
    let lambda = g
        .exprs
        .iter()
        .any(|e| matches!(e.kind, ExprKind::Lambda(_)));
    if gi == caller || g.kind == crate::ir::FnKind::Lambda || lambda {
        return None;
    }
    let gf = facts.functions.get(gi)?;
    let mut ev = Eval::new(module, g, gf);
    let mut groups = HashSet::default();
    let mut any = false;
    for (i, e) in g.exprs.iter().enumerate() {
        let ExprKind::Call(c) = &e.kind else { continue };
        let Some(prim) = Primitive::from_call(&c.name, c.scope.as_deref(), c.receiver.is_some())
        else {
            // Warp code one call further is not followed.
            match super::callee(module, c) {
                Some(k) if facts.uses_warp_primitives[k] => return None,
                Some(_) => continue,
                None => continue,
            }
        };
        if !prim.is_masked() {
            if prim == Primitive::Activemask {
                return None;
            }
            continue;
        }
        let ctx = gf.call_context.get(&(i as ExprId))?;
        let own = guard_values(&mut ev, ctx)?;
        let masks = ev.eval(*c.args.first()?, 0);
        let shfl_src = shuffle_sources(&mut ev, prim, &c.args);
        groups.extend(const_mask_groups(
            &masks,
            &[caller_guards, &own],
            prim,
            shfl_src.as_deref(),
        )?);
        any = true;
    }
    any.then(|| {
        format!(
            "evaluated lane by lane, every warp primitive in `{}` passes {} and each lane it names takes the same branch at every lane-varying guard here and inside, so they name exactly the lanes that reach them",
            g.name,
            describe(&groups)
        )
    })
}

/// The lane each lane of a shuffle reads, where every argument is known.
fn shuffle_sources(ev: &mut Eval, prim: Primitive, args: &[ExprId]) -> Option<Vec<Option<u32>>> {
    let Primitive::Shfl(mode) = prim else {
        return None;
    };
    let lane = ev.eval(*args.get(2)?, 0);
    let width = match args.get(3) {
        Some(w) => ev.eval(*w, 0),
        None => Rc::new(vec![V::Const(32); 32]),
    };
    Some(
        (0..32u32)
            .map(|l| {
                let (V::Const(x), V::Const(w)) = (&lane[l as usize], &width[l as usize]) else {
                    return None;
                };
                let w = u32::try_from(*w)
                    .ok()
                    .filter(|w| [1, 2, 4, 8, 16, 32].contains(w))?;
                let x = u32::try_from(*x).ok()?;
                let base = l / w * w;
                Some(match mode {
                    ShflMode::Idx => base + x % w,
                    ShflMode::Xor => {
                        let s = l ^ x;
                        if s >= 32 || s / w != l / w { l } else { s }
                    }
                    ShflMode::Down => {
                        if l - base + x >= w {
                            l
                        } else {
                            l + x
                        }
                    }
                    ShflMode::Up => {
                        if l - base < x {
                            l
                        } else {
                            l - x
                        }
                    }
                })
            })
            .collect(),
    )
}

fn describe(groups: &HashSet<u32>) -> String {
    let mut g: Vec<u32> = groups.iter().copied().collect();
    g.sort_unstable();
    let shown: Vec<String> = g.iter().take(4).map(|m| format!("0x{m:08x}")).collect();
    match g.len() {
        0 => "never passed".to_owned(),
        1 => shown[0].clone(),
        n if n <= 4 => format!("one of {} (disjoint groups)", shown.join(", ")),
        n => format!("one of {n} disjoint groups ({}, …)", shown.join(", ")),
    }
}
