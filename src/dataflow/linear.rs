//! Differences whose lane terms cancel: `row_in_tile - row` with
//! `row_in_tile = tile * 128 + row` is `tile * 128`, the same for a warp
//! when `tile` is, although both operands vary between lanes.
//!
//! Each operand is read as a linear form `Σ aᵢ·xᵢ + r` modulo 2³², where
//! the `xᵢ` are lane-varying atoms (a thread index, or a lane-varying local
//! declared once and never written, by name: every read of it in its scope
//! sees the one value its declaration gave) and `r` collects terms whose
//! level is at most per warp. An unwritten local of a 32-bit integer type
//! stands for its initializer, which its store keeps modulo 2³². The
//! difference has the level of its `r` when every atom cancels.
//!
//! Sound only where every value is an integer of at most 32 bits, so that
//! `+`, `-`, `*` and `<<` are exact modulo 2³² and so is the difference:
//! leaves are integer literals that fit an `int`, thread and block indices
//! and extents, and locals and parameters declared `int`, `unsigned`,
//! `short`, `char` (and their fixed-width names; a parameter only as a
//! term of `r`). 64-bit, floating and `auto` values, named constants,
//! casts (which may change width), calls, loads and anything else give no
//! form, so the difference stays as it was. A `for` loop's own counter
//! (`for (int t = a + tid; …; t += c)`) stands for its initializer plus
//! the steps taken, a term of `r` when the step is.
//!
//! Bounded: [`MAX_DEPTH`] nested forms; the caller gives a step budget.

use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;

use super::Level;
use crate::ir::*;

const MAX_DEPTH: usize = 32;

/// What one local's declaration says.
#[derive(Debug, Clone, Copy)]
pub struct IntLocal {
    pub int_type: IntType,
    /// Declared once, never written: its initializer.
    pub init: Option<ExprId>,
    /// Declared once without an initializer and written by exactly one
    /// plain assignment (`uint32_t lane; asm("mov.u32 %0, %%laneid;" :
    /// "=r"(lane));`): the value it stores, the only one a read of it can
    /// have without reading it uninitialized.
    pub only_store: Option<ExprId>,
    /// A `for` loop's own counter (`for (int t = a + tid; …; t += c)`):
    /// declared in the loop's init, so read only inside the loop, and
    /// written only by the loop's step, `+=`/`-=` an amount (`None`: `++`
    /// or `--`). Its initializer and that amount.
    pub counter: Option<(ExprId, Option<ExprId>)>,
}

/// The integer locals of `f` (declared once, of a known integer type).
pub fn int_locals(f: &Function) -> HashMap<String, IntLocal> {
    let unwritten = f.unwritten_locals();
    let mut writes: HashMap<&str, usize> = HashMap::default();
    for name in f.writes() {
        *writes.entry(name).or_default() += 1;
    }
    let mut stores: HashMap<&str, ExprId> = HashMap::default();
    for e in &f.exprs {
        if let ExprKind::Assign { op: None, lhs, rhs } = &e.kind
            && let ExprKind::Var(name) = &f.expr(*lhs).kind
        {
            stores.insert(name.as_str(), *rhs);
        }
    }
    let counters = loop_counters(f);
    let mut count: HashMap<&str, usize> = HashMap::default();
    let mut out = HashMap::default();
    for s in &f.stmts {
        if let StmtKind::Decl {
            name,
            dims,
            int_type,
            init,
            ..
        } = &s.kind
        {
            *count.entry(name.as_str()).or_default() += 1;
            if dims.is_empty() && *int_type != IntType::Other {
                let once = init.is_none() && writes.get(name.as_str()) == Some(&1);
                out.insert(
                    name.clone(),
                    IntLocal {
                        int_type: *int_type,
                        init: unwritten.get(name.as_str()).copied(),
                        only_store: stores.get(name.as_str()).copied().filter(|_| once),
                        counter: counters
                            .get(name.as_str())
                            .copied()
                            .filter(|_| writes.get(name.as_str()) == Some(&1)),
                    },
                );
            }
        }
    }
    out.retain(|n, _| count.get(n.as_str()) == Some(&1));
    out
}

/// The counters of `for` loops: a local declared with an initializer in
/// the loop's init and stepped by its step expression (`t += c`, `t -= c`,
/// `++t`, `t--`): name → (initializer, amount). Whether the step is its
/// only write is the caller's to check.
fn loop_counters(f: &Function) -> HashMap<&str, (ExprId, Option<ExprId>)> {
    let mut out = HashMap::default();
    for s in &f.stmts {
        let StmtKind::Loop {
            kind: LoopKind::For,
            init,
            step: Some(step),
            ..
        } = &s.kind
        else {
            continue;
        };
        let (target, amount) = match &f.expr(*step).kind {
            ExprKind::Assign {
                op: Some(BinOp::Add | BinOp::Sub),
                lhs,
                rhs,
            } => (*lhs, Some(*rhs)),
            ExprKind::Update { target, .. } => (*target, None),
            _ => continue,
        };
        let ExprKind::Var(name) = &f.expr(target).kind else {
            continue;
        };
        for &d in init {
            if let StmtKind::Decl {
                name: declared,
                init: Some(value),
                dims,
                ..
            } = &f.stmt(d).kind
                && declared == name
                && dims.is_empty()
            {
                out.insert(name.as_str(), (*value, amount));
            }
        }
    }
    out
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Atom {
    /// `threadIdx` along x, y or z (0, 1, 2).
    Thread(u8),
    Lane,
    Local(String),
}

#[derive(Debug, Clone)]
struct Form {
    terms: BTreeMap<Atom, u32>,
    rest: Level,
}

impl Form {
    fn rest(level: Level) -> Form {
        Form {
            terms: BTreeMap::new(),
            rest: level,
        }
    }
    fn atom(a: Atom) -> Form {
        Form {
            terms: BTreeMap::from([(a, 1)]),
            rest: Level::Uniform,
        }
    }
    fn add(mut self, o: Form, sign: u32) -> Form {
        for (a, k) in o.terms {
            let e = self.terms.entry(a).or_insert(0);
            *e = e.wrapping_add(sign.wrapping_mul(k));
        }
        self.terms.retain(|_, k| *k != 0);
        self.rest = self.rest.max(o.rest);
        self
    }
    fn scale(mut self, k: u32) -> Form {
        for v in self.terms.values_mut() {
            *v = v.wrapping_mul(k);
        }
        self.terms.retain(|_, v| *v != 0);
        self
    }
}

/// What the forms need from the level table.
pub trait Leaves {
    fn f(&self) -> &Function;
    fn locals(&self) -> &HashMap<String, IntLocal>;
    /// The level of an expression (a leaf of a form).
    fn level(&mut self, e: ExprId) -> Level;
    /// The level of a variable.
    fn var_level(&self, name: &str) -> Level;
    /// Spend one step; `false` when the budget is gone.
    fn step(&mut self) -> bool;
}

/// The level of `a - b` when the lane terms of its operands cancel.
pub fn difference_level(cx: &mut dyn Leaves, a: ExprId, b: ExprId) -> Option<Level> {
    let x = form(cx, a, 0)?;
    let y = form(cx, b, 0)?;
    let d = x.add(y, u32::MAX);
    (d.terms.is_empty() && d.rest <= Level::Warp).then_some(d.rest)
}

/// The level of `a op b` when the lane terms of `a - b` cancel: the
/// difference itself, and a comparison (`t < hi + tid` with `t` counting
/// from `lo + tid`). Equality holds where the difference is 0 modulo 2³²,
/// whatever the types; an order is the difference's sign only without
/// overflow, which C++ rules out for signed `int` arithmetic, so both
/// operands must be signed (no thread index unconverted, no `unsigned`
/// local). `None` for other operators.
pub fn cancelled_level(cx: &mut dyn Leaves, op: BinOp, a: ExprId, b: ExprId) -> Option<Level> {
    match op {
        BinOp::Sub | BinOp::Eq | BinOp::Ne => {}
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            if !(signed(cx, a, 0) && signed(cx, b, 0)) {
                return None;
            }
        }
        _ => return None,
    }
    difference_level(cx, a, b)
}

/// Integer arithmetic whose type is a signed `int`: literals, `int`
/// locals and parameters, and `+`, `-`, `*`, `<<` of those.
fn signed(cx: &mut dyn Leaves, e: ExprId, depth: usize) -> bool {
    if depth > MAX_DEPTH || !cx.step() || cx.f().casts.contains(&e) {
        return false;
    }
    let kind = cx.f().expr(e).kind.clone();
    match kind {
        ExprKind::Int(_) => literal(cx.f(), e).is_some(),
        ExprKind::Var(name) => match cx.locals().get(&name) {
            Some(local) => local.int_type == IntType::Int32,
            None => param_int_type(cx.f(), &name) == Some(IntType::Int32),
        },
        ExprKind::Unary(UnOp::Neg, a) => signed(cx, a, depth + 1),
        ExprKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl, a, b) => {
            signed(cx, a, depth + 1) && signed(cx, b, depth + 1)
        }
        _ => false,
    }
}

fn literal(f: &Function, e: ExprId) -> Option<u32> {
    match f.expr(e).kind {
        // An `int` literal: wider ones (`5L`, or past `i32`) would make the
        // arithmetic 64-bit.
        ExprKind::Int(v) if i32::try_from(v).is_ok() && !f.casts.contains(&e) => Some(v as u32),
        _ => None,
    }
}

fn form(cx: &mut dyn Leaves, e: ExprId, depth: usize) -> Option<Form> {
    if depth > MAX_DEPTH || !cx.step() || cx.f().casts.contains(&e) {
        return None;
    }
    let kind = cx.f().expr(e).kind.clone();
    match kind {
        ExprKind::Int(_) => literal(cx.f(), e).map(|_| Form::rest(Level::Uniform)),
        ExprKind::Builtin(Builtin::ThreadIdx(d)) => Some(Form::atom(Atom::Thread(d as u8))),
        ExprKind::Builtin(Builtin::LaneId) => Some(Form::atom(Atom::Lane)),
        ExprKind::Builtin(
            Builtin::BlockIdx(_)
            | Builtin::BlockDim(_)
            | Builtin::GridDim(_)
            | Builtin::WarpSize
            | Builtin::ClusterBlockRank
            | Builtin::ClusterRank,
        ) => Some(Form::rest(Level::Uniform)),
        ExprKind::Var(name) => local_form(cx, &name, depth),
        ExprKind::Unary(UnOp::Neg, a) => Some(form(cx, a, depth + 1)?.scale(u32::MAX)),
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            let x = form(cx, a, depth + 1)?;
            let y = form(cx, b, depth + 1)?;
            Some(x.add(y, if op == BinOp::Add { 1 } else { u32::MAX }))
        }
        ExprKind::Binary(BinOp::Mul, a, b) => {
            let f = cx.f();
            match (literal(f, a), literal(f, b)) {
                (Some(k), _) => Some(form(cx, b, depth + 1)?.scale(k)),
                (_, Some(k)) => Some(form(cx, a, depth + 1)?.scale(k)),
                _ => leaf(cx, e, depth),
            }
        }
        ExprKind::Binary(BinOp::Shl, a, b) => match literal(cx.f(), b) {
            Some(k) if k < 32 => Some(form(cx, a, depth + 1)?.scale(1 << k)),
            _ => leaf(cx, e, depth),
        },
        _ => leaf(cx, e, depth),
    }
}

/// The integer type parameter `name` is declared with.
fn param_int_type(f: &Function, name: &str) -> Option<IntType> {
    f.params.iter().find(|p| p.name == name).map(|p| p.int_type)
}

/// A parameter of a built-in integer type of at most 32 bits.
fn narrow_param(f: &Function, name: &str) -> bool {
    param_int_type(f, name).is_some_and(|t| t != IntType::Other)
}

/// A local: one term of `r` if it is at most per warp, else its
/// initializer's form where it has one, else itself. A narrow parameter:
/// one term of `r` if it is at most per warp.
fn local_form(cx: &mut dyn Leaves, name: &str, depth: usize) -> Option<Form> {
    if !cx.locals().contains_key(name) && narrow_param(cx.f(), name) {
        let level = cx.var_level(name);
        return (level <= Level::Warp).then_some(Form::rest(level));
    }
    let local = *cx.locals().get(name)?;
    let level = cx.var_level(name);
    if level <= Level::Warp {
        return Some(Form::rest(level));
    }
    if local.int_type.is_32_bit()
        && let Some(init) = local.init
        && let Some(fm) = form(cx, init, depth + 1)
    {
        return Some(fm);
    }
    // A loop's counter, read inside its loop: its initializer plus the
    // steps taken so far. Lanes that test or read it together have taken
    // the same number of steps (the loop is entered together, each
    // iteration steps once, and a lane that left reads it no more), so
    // with an amount the same across the warp the sum is too.
    if local.int_type.is_32_bit()
        && let Some((init, amount)) = local.counter
    {
        let stepped = match amount {
            Some(a) => leaf(cx, a, depth + 1)?,
            None => Form::rest(Level::Uniform),
        };
        if !stepped.terms.is_empty() {
            return None;
        }
        return Some(form(cx, init, depth + 1)?.add(stepped, 1));
    }
    // Only a local with one value per scope is one atom.
    local.init.map(|_| Form::atom(Atom::Local(name.to_owned())))
}

/// Any other expression: one term of `r` if it is an integer of at most 32
/// bits and at most per warp.
fn leaf(cx: &mut dyn Leaves, e: ExprId, depth: usize) -> Option<Form> {
    if !narrow_integer(cx, e, depth) {
        return None;
    }
    let l = cx.level(e);
    (l <= Level::Warp).then_some(Form::rest(l))
}

/// Integer arithmetic on integers of at most 32 bits.
fn narrow_integer(cx: &mut dyn Leaves, e: ExprId, depth: usize) -> bool {
    if depth > MAX_DEPTH || !cx.step() || cx.f().casts.contains(&e) {
        return false;
    }
    let kind = cx.f().expr(e).kind.clone();
    match kind {
        ExprKind::Int(_) => literal(cx.f(), e).is_some(),
        ExprKind::Builtin(_) => true,
        ExprKind::Var(name) => cx.locals().contains_key(&name) || narrow_param(cx.f(), &name),
        ExprKind::Unary(UnOp::Neg | UnOp::BitNot | UnOp::Not, a) => {
            narrow_integer(cx, a, depth + 1)
        }
        ExprKind::Binary(_, a, b) => {
            narrow_integer(cx, a, depth + 1) && narrow_integer(cx, b, depth + 1)
        }
        ExprKind::Ternary(_, a, b) => {
            narrow_integer(cx, a, depth + 1) && narrow_integer(cx, b, depth + 1)
        }
        _ => false,
    }
}
