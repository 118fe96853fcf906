//! Values that are multiples of 32 whatever the template values and the
//! inputs are: `threadIdx.x >= kMath` then splits on warp boundaries, and
//! `for (i = lane; i < round_up<32>(n); i += 32)` keeps a warp together.
//!
//! A value is followed modulo 32 as a linear form `c + Σ aᵢ·xᵢ` over the
//! template values `xᵢ` (integer and unsigned arithmetic both map onto
//! arithmetic modulo 32, so `+`, `-`, `*` and `<<` are exact there). A
//! `static_assert` (`ir::asserts`) gives a name its stated value (`X ==
//! k`) or makes it `0` (`X % m == 0` with `m` a multiple of 32). Locals
//! declared once and never written stand for their initializer; a call of
//! a module function whose every `return e` (at most four, a constexpr
//! helper such as a round-up) has the same form stands for that form, with
//! its template values and parameters bound to the call's. Anything else
//! (division, comparisons, calls of other functions) has no form, except
//! that `0 · anything` is `0`, so
//! `(m == 64 ? 1 : 2) * kGroup` with `kGroup == 128` is a multiple of 32.
//!
//! Bounded: [`MAX_DEPTH`] nested forms and [`MAX_STEPS`] per function.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeMap;

use crate::ir::asserts::{Stated, own_facts};
use crate::ir::*;

const MAX_DEPTH: usize = 24;
const MAX_STEPS: usize = 4096;

/// `c + Σ coef·name` modulo 32 (no zero coefficients).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Form {
    c: u32,
    terms: BTreeMap<String, u32>,
}

impl Form {
    fn konst(v: i64) -> Form {
        Form {
            c: (v & 31) as u32,
            terms: BTreeMap::new(),
        }
    }
    fn var(name: &str) -> Form {
        Form {
            c: 0,
            terms: BTreeMap::from([(name.to_owned(), 1)]),
        }
    }
    fn is_zero(&self) -> bool {
        self.c == 0 && self.terms.is_empty()
    }
    fn as_const(&self) -> Option<u32> {
        self.terms.is_empty().then_some(self.c)
    }
    fn add(mut self, o: &Form, sign: u32) -> Form {
        self.c = (self.c + sign.wrapping_mul(o.c)) & 31;
        for (n, a) in &o.terms {
            let e = self.terms.entry(n.clone()).or_insert(0);
            *e = (*e + sign.wrapping_mul(*a)) & 31;
        }
        self.terms.retain(|_, a| *a != 0);
        self
    }
    fn scale(mut self, k: u32) -> Form {
        self.c = self.c.wrapping_mul(k) & 31;
        for a in self.terms.values_mut() {
            *a = a.wrapping_mul(k) & 31;
        }
        self.terms.retain(|_, a| *a != 0);
        self
    }
}

/// What names stand for inside one function (a callee's parameters and
/// template values take the caller's forms).
struct Env<'f> {
    f: &'f Function,
    /// Locals declared once and never written: their initializer.
    inits: HashMap<&'f str, ExprId>,
    stated: HashMap<String, Stated>,
    bound: HashMap<String, Option<Form>>,
}

impl<'f> Env<'f> {
    fn new(f: &'f Function, module: &Module) -> Env<'f> {
        let inits = f.unwritten_locals();
        Env {
            f,
            inits,
            stated: own_facts(f, &module.constants),
            bound: HashMap::default(),
        }
    }
}

struct Ctx<'m> {
    module: &'m Module,
    steps: usize,
}

/// The locals of `f` (declared once, never written) and its template
/// values whose value is a multiple of 32 for every instantiation.
pub fn multiples_of_32(f: &Function, module: &Module) -> HashSet<String> {
    let mut out = HashSet::default();
    if f.stmts.is_empty() {
        return out;
    }
    let env = Env::new(f, module);
    let mut cx = Ctx { module, steps: 0 };
    let mut names: Vec<&str> = env
        .inits
        .keys()
        .copied()
        .chain(f.template_values.iter().map(String::as_str))
        .collect();
    names.sort_unstable();
    names.dedup();
    for n in names {
        if cx.steps > MAX_STEPS {
            break;
        }
        if name_form(&mut cx, &env, n, 0).is_some_and(|f| f.is_zero()) {
            out.insert(n.to_owned());
        }
    }
    out
}

fn name_form(cx: &mut Ctx, env: &Env, name: &str, depth: usize) -> Option<Form> {
    if let Some(b) = env.bound.get(name) {
        return b.clone();
    }
    match env.stated.get(name) {
        Some(Stated::Value(k)) => return Some(Form::konst(*k)),
        Some(Stated::MultipleOf(m)) if m % 32 == 0 => return Some(Form::konst(0)),
        _ => {}
    }
    // A local shadows the file's constant of its name (a member's prelude
    // holds its own class's `kLanes`, the file's constants the last
    // class's).
    if let Some(&init) = env.inits.get(name) {
        return form(cx, env, init, depth + 1);
    }
    if let Some(v) = cx.module.constants.get(name) {
        return Some(Form::konst(*v));
    }
    if env.f.template_values.iter().any(|t| t == name) {
        return Some(Form::var(name));
    }
    None
}

fn form(cx: &mut Ctx, env: &Env, e: ExprId, depth: usize) -> Option<Form> {
    cx.steps += 1;
    if depth > MAX_DEPTH || cx.steps > MAX_STEPS {
        return None;
    }
    let f = env.f;
    match &f.expr(e).kind {
        ExprKind::Int(v) => Some(Form::konst(*v)),
        ExprKind::Builtin(Builtin::WarpSize) => Some(Form::konst(32)),
        ExprKind::Var(n) => name_form(cx, env, n, depth),
        ExprKind::Unary(UnOp::Neg, a) => {
            Some(Form::konst(0).add(&form(cx, env, *a, depth + 1)?, 31))
        }
        ExprKind::Binary(op, a, b) => {
            let x = form(cx, env, *a, depth + 1);
            let y = form(cx, env, *b, depth + 1);
            match op {
                BinOp::Add => Some(x?.add(&y?, 1)),
                BinOp::Sub => Some(x?.add(&y?, 31)),
                BinOp::Mul => {
                    if x.as_ref().is_some_and(Form::is_zero)
                        || y.as_ref().is_some_and(Form::is_zero)
                    {
                        return Some(Form::konst(0));
                    }
                    let (x, y) = (x?, y?);
                    match (x.as_const(), y.as_const()) {
                        (Some(k), _) => Some(y.scale(k)),
                        (_, Some(k)) => Some(x.scale(k)),
                        _ => None,
                    }
                }
                BinOp::Shl => {
                    // `x << k` is `x · 2^k`; from `k = 5` on, a multiple of 32.
                    let count = crate::ir::fold::eval_const(f, *b, &cx.module.constants)?;
                    match count {
                        5..=63 => Some(Form::konst(0)),
                        0..=4 => Some(x?.scale(1 << count)),
                        _ => None,
                    }
                }
                _ => None,
            }
        }
        ExprKind::Ternary(_, a, b) => {
            let (x, y) = (form(cx, env, *a, depth + 1)?, form(cx, env, *b, depth + 1)?);
            (x == y).then_some(x)
        }
        ExprKind::Call(c) if c.receiver.is_none() => {
            if matches!(c.name.as_str(), "static_cast") && c.args.len() == 1 {
                return form(cx, env, c.args[0], depth + 1);
            }
            call_form(cx, env, c, depth)
        }
        _ => None,
    }
}

/// A call of a module function whose body is one `return e`: `e` with the
/// callee's template values and parameters bound to the call's forms.
fn call_form(cx: &mut Ctx, env: &Env, c: &Call, depth: usize) -> Option<Form> {
    let g = cx.module.callee(c)?;
    let g = &cx.module.functions[g];
    // Every value it returns (`if (len == 0) return 0; return ((len - 1) /
    // size + 1) * size;`); none may fall off the end.
    let mut returns: Vec<ExprId> = Vec::new();
    for s in &g.stmts {
        match s.kind {
            StmtKind::Return(Some(e)) => returns.push(e),
            StmtKind::Return(None) => return None,
            _ => {}
        }
    }
    if returns.is_empty() || returns.len() > 4 {
        return None;
    }
    // An instance has its values bound already (`round_up<32>`).
    if (!g.template_values.is_empty() && g.template_values.len() != c.template_args.len())
        || g.params.iter().any(|p| p.of_field)
        || c.args.len() > g.params.len()
    {
        return None;
    }
    let mut inner = Env::new(g, cx.module);
    for (t, arg) in g.template_values.iter().zip(&c.template_args) {
        let arg = arg.trim();
        let v = if let Some(k) = crate::ir::lower::parse_int_literal(arg) {
            Some(Form::konst(k))
        } else if crate::ir::lower::is_identifier(arg) {
            name_form(cx, env, arg, depth + 1)
        } else {
            None
        };
        // The callee's own assertion about it holds as well.
        let v = match (v, inner.stated.get(t)) {
            (_, Some(Stated::Value(k))) => Some(Form::konst(*k)),
            (_, Some(Stated::MultipleOf(m))) if m % 32 == 0 => Some(Form::konst(0)),
            (v, _) => v,
        };
        inner.bound.insert(t.clone(), v);
    }
    for (k, p) in g.params.iter().enumerate() {
        let v = match c.args.get(k) {
            Some(a) => form(cx, env, *a, depth + 1),
            None => p.default.and_then(|d| form(cx, &inner, d, depth + 1)),
        };
        inner.bound.insert(p.name.clone(), v);
    }
    let first = form(cx, &inner, returns[0], depth + 1)?;
    for &ret in &returns[1..] {
        if form(cx, &inner, ret, depth + 1)? != first {
            return None;
        }
    }
    Some(first)
}
