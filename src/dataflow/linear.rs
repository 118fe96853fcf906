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
//! and extents, and locals declared `int`, `unsigned`, `short`, `char`
//! (and their fixed-width names). Parameters, 64-bit, floating and `auto`
//! locals, named constants, casts (which may change width), calls, loads
//! and anything else give no form, so the difference stays as it was.
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
                    },
                );
            }
        }
    }
    out.retain(|n, _| count.get(n.as_str()) == Some(&1));
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

/// A local: one term of `r` if it is at most per warp, else its
/// initializer's form where it has one, else itself.
fn local_form(cx: &mut dyn Leaves, name: &str, depth: usize) -> Option<Form> {
    let local = *cx.locals().get(name)?;
    let level = cx.var_level(name);
    if level <= Level::Warp {
        return Some(Form::rest(level));
    }
    if local.int_type == IntType::Int32
        && let Some(init) = local.init
        && let Some(fm) = form(cx, init, depth + 1)
    {
        return Some(fm);
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
        ExprKind::Var(name) => cx.locals().contains_key(&name),
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
